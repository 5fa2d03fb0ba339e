import { type Kysely, sql } from 'kysely';

/**
 * Earn orders, the income each settlement step pays (one row per effect, keyed so that a
 * second run pays nothing twice), per-user daily quota use, and one row per settled day.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table orders (
      id bigserial not null,
      user_id bigint not null,
      product text not null check (product in ('current', 'fixed30', 'reinvest360')),
      principal bigint not null check (principal > 0),
      income bigint not null default 0,
      power bigint not null default 0,
      coefficient text,
      status text not null,
      reinvest boolean not null default false,
      start_day date not null,
      created_at timestamptz not null,
      cycle_start timestamptz,
      cycles_paid integer not null default 0,
      matures_day date,
      closed_at timestamptz,
      primary key (user_id, id)
    )`.execute(db);
  await sql`create index orders_active on orders (product, status) where status in ('confirming', 'in_progress', 'reinvested')`.execute(db);
  await sql`
    create table income (
      user_id bigint not null,
      order_id bigint not null,
      day date not null,
      kind text not null,
      amount bigint not null check (amount >= 0),
      inputs jsonb not null,
      created_at timestamptz not null default now(),
      primary key (user_id, order_id, day, kind)
    )`.execute(db);
  await sql`
    create table daily_quota (
      user_id bigint not null,
      day date not null,
      used bigint not null,
      primary key (user_id, day)
    )`.execute(db);
  await sql`
    create table settlement_days (
      day date primary key,
      status text not null,
      pool_output bigint,
      total_power bigint,
      shortfall text,
      started_at timestamptz not null,
      finished_at timestamptz,
      duration_ms integer
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['settlement_days', 'daily_quota', 'income', 'orders']) {
    await sql`drop table if exists ${sql.table(table)}`.execute(db);
  }
}
