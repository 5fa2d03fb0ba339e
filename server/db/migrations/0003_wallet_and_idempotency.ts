import { type Kysely, sql } from 'kysely';

/**
 * Wallet movements (keyed by user, like every user-owned table) and the idempotency keys of
 * POST requests, whose stored answer is written in the same transaction as the effect.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table transfers (
      id bigserial not null,
      user_id bigint not null,
      type text not null check (type in ('recharge', 'transfer_in', 'transfer_out', 'withdraw')),
      asset text not null check (asset in ('AIC', 'USDT')),
      amount bigint not null check (amount > 0),
      status text not null check (status in ('under_review', 'success', 'failure')),
      reason text,
      created_at timestamptz not null,
      reviewed_at timestamptz,
      reviewed_by bigint,
      primary key (user_id, id)
    )`.execute(db);
  await sql`create index transfers_review_queue on transfers (id) where status = 'under_review'`.execute(db);
  await sql`
    create table idempotency_keys (
      user_id bigint not null,
      key text not null,
      request_hash text not null,
      response_status integer,
      response_body jsonb,
      created_at timestamptz not null,
      primary key (user_id, key)
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists idempotency_keys`.execute(db);
  await sql`drop table if exists transfers`.execute(db);
}
