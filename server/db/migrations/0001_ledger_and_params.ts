import { type Kysely, sql } from 'kysely';

/**
 * The ledger: balances live on the account row and change in the same transaction as the
 * postings that explain them. The CHECK makes the database itself refuse an overdraft.
 * Every user-owned key starts with user_id so the tables can be distributed by user.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table accounts (
      user_id bigint not null,
      asset text not null check (asset in ('AIC', 'USDT')),
      kind text not null,
      balance bigint not null default 0,
      allow_negative boolean not null default false,
      primary key (user_id, asset, kind),
      constraint balance_not_negative check (allow_negative or balance >= 0)
    )`.execute(db);
  await sql`
    create table journal_entries (
      id bigserial primary key,
      kind text not null,
      ref text,
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`
    create table postings (
      entry_id bigint not null,
      user_id bigint not null,
      asset text not null,
      kind text not null,
      amount bigint not null check (amount <> 0),
      primary key (user_id, asset, kind, entry_id)
    )`.execute(db);
  await sql`
    create table params (
      name text not null,
      effective_day date not null,
      value text not null,
      created_at timestamptz not null default now(),
      primary key (name, effective_day)
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['params', 'postings', 'journal_entries', 'accounts']) {
    await sql`drop table if exists ${sql.table(table)}`.execute(db);
  }
}
