import { type Kysely, sql } from 'kysely';

/**
 * Proof of liabilities (server/proof). Each holder's secret nonce; per settled day and asset the
 * published root, the leaves (one row per holder, keyed by user first like every user-owned
 * table, with its place in the tree), and the tree's levels above its 1,024-leaf chunks.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table proof_nonces (
      user_id bigint primary key,
      nonce bytea not null check (length(nonce) = 32),
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`
    create table proof_roots (
      day date not null,
      asset text not null,
      root bytea not null,
      total bigint not null check (total >= 0),
      holders integer not null,
      ledger_total bigint not null,
      built_at timestamptz not null,
      primary key (day, asset)
    )`.execute(db);
  await sql`
    create table proof_leaves (
      user_id bigint not null,
      day date not null,
      asset text not null,
      position integer not null,
      wallet bigint not null,
      earning bigint not null,
      rewards bigint not null,
      locked_rewards bigint not null,
      network_rewards bigint not null,
      withdrawals_pending bigint not null,
      primary key (user_id, day, asset)
    )`.execute(db);
  await sql`create unique index proof_leaves_position on proof_leaves (day, asset, position)`.execute(db);
  await sql`
    create table proof_nodes (
      day date not null,
      asset text not null,
      level smallint not null,
      idx integer not null,
      hash bytea not null,
      sum bigint not null,
      primary key (day, asset, level, idx)
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['proof_nodes', 'proof_leaves', 'proof_roots', 'proof_nonces']) {
    await sql`drop table if exists ${sql.table(table)}`.execute(db);
  }
}
