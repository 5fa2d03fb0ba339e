import { type Kysely, sql } from 'kysely';

/**
 * Money crosses the exchange boundary through the exchange's API.
 *
 * The platform's side: a transfer is a state machine (requested or under review, sending,
 * unknown, then success or failure) named at the exchange by `exchange_id`, driven by whoever
 * holds its lease; a holder's consent to be debited is their OAuth tokens, kept encrypted; each
 * day's transfers are reconciled with the exchange's list, and what differs waits for an operator.
 * A funding of the treasury or the pool is such a transfer, from the platform's own account there.
 *
 * The embedded exchange's own books (`xc_*`): holders' and omnibus balances, double entry, a
 * transfer id applied once per client. A real deployment leaves them empty.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table transfers drop constraint if exists transfers_status_check`.execute(db);
  await sql`alter table transfers add constraint transfers_status_check
    check (status in ('requested', 'under_review', 'sending', 'unknown', 'success', 'failure'))`.execute(db);
  // A funding is a transfer too: from the platform's own account at the exchange into its omnibus
  // account, for a system account (treasury, pool), asked by one operator and approved by another.
  await sql`alter table transfers drop constraint if exists transfers_type_check`.execute(db);
  await sql`alter table transfers add constraint transfers_type_check
    check (type in ('recharge', 'transfer_in', 'transfer_out', 'withdraw', 'funding'))`.execute(db);
  await sql`alter table transfers
    add column account text check (account in ('treasury', 'supercomputing_pool')),
    add column requested_by bigint,
    add column exchange_id text,
    add column request_key text,
    add column request_user bigint,
    add column exchange_at timestamptz,
    add column lease_until timestamptz,
    add column attempts integer not null default 0`.execute(db);
  await sql`create unique index transfers_exchange_id on transfers (exchange_id)`.execute(db);
  await sql`create index transfers_unfinished on transfers (id)
    where status in ('requested', 'sending', 'unknown')`.execute(db);
  await sql`create index transfers_exchange_day on transfers (exchange_at) where exchange_at is not null`.execute(db);

  await sql`
    create table exchange_grants (
      user_id bigint primary key,
      subject text not null,
      access_token text not null,
      refresh_token text,
      access_expires_at timestamptz not null,
      updated_at timestamptz not null
    )`.execute(db);

  await sql`
    create table reconciliations (
      day date primary key,
      differences integer not null,
      checked_at timestamptz not null
    )`.execute(db);
  await sql`
    create table reconciliation_differences (
      id bigserial primary key,
      day date not null,
      kind text not null check (kind in ('missing_at_exchange', 'missing_on_platform', 'amount', 'status', 'omnibus')),
      transfer_id text,
      asset text,
      platform jsonb,
      exchange jsonb,
      found_at timestamptz not null,
      resolved_at timestamptz,
      resolved_by bigint,
      note text
    )`.execute(db);
  await sql`create unique index reconciliation_differences_key
    on reconciliation_differences (day, kind, coalesce(transfer_id, ''), coalesce(asset, ''))`.execute(db);
  await sql`create index reconciliation_differences_open on reconciliation_differences (id) where resolved_at is null`.execute(db);

  await sql`
    create table xc_accounts (
      subject text not null,
      asset text not null check (asset in ('AIC', 'USDT')),
      balance bigint not null default 0,
      allow_negative boolean not null default false,
      primary key (subject, asset),
      constraint xc_balance_not_negative check (allow_negative or balance >= 0)
    )`.execute(db);
  await sql`
    create table xc_transfers (
      client_id text not null,
      transfer_id text not null,
      seq bigserial not null,
      direction text not null check (direction in ('debit', 'credit', 'funding')),
      subject text not null,
      asset text not null,
      amount bigint not null check (amount > 0),
      status text not null check (status in ('applied', 'refused')),
      reason text,
      at timestamptz not null,
      primary key (client_id, transfer_id)
    )`.execute(db);
  await sql`create index xc_transfers_by_time on xc_transfers (client_id, at, transfer_id)`.execute(db);
  await sql`
    create table xc_postings (
      seq bigserial primary key,
      entry text not null,
      subject text not null,
      asset text not null,
      amount bigint not null check (amount <> 0),
      at timestamptz not null
    )`.execute(db);
  await sql`create index xc_postings_by_account on xc_postings (subject, asset, at)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['xc_postings', 'xc_transfers', 'xc_accounts', 'reconciliation_differences', 'reconciliations', 'exchange_grants']) {
    await sql`drop table if exists ${sql.table(table)}`.execute(db);
  }
}
