import { type Kysely, sql } from 'kysely';

/**
 * Figures a holder's screen shows that would otherwise be summed over the platform on every
 * request, kept as the day settles instead:
 * - `pool_power`: the total power of the earning 360-day orders (the Earn centre's figure). Only
 *   the day's steps change it (the pool's shares add power, a term's end and an order's start
 *   move orders in or out of earning), so the step that starts the orders writes it, in its
 *   transaction (settlement/settle.ts, `confirm`).
 * - In the team roll-up and team_stats, what each member's downline did inside the recruitment
 *   activity's window (the activity page): who joined, who of them is effective, and the
 *   subscriptions still held. `users_tree` also holds `bound_at`, so the roll-up still reads
 *   every member from that index alone.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table pool_power (
      one boolean primary key default true check (one),
      total bigint not null,
      as_of date
    )`.execute(db);
  await sql`
    insert into pool_power (total)
    select coalesce(sum(power), 0)::bigint from orders
    where product = 'reinvest360' and status in ('in_progress', 'reinvested')`.execute(db);
  const windowColumns = sql`
    add column window_direct bigint not null default 0,
    add column window_direct_effective bigint not null default 0,
    add column window_members bigint not null default 0,
    add column window_effective bigint not null default 0,
    add column window_quantity bigint not null default 0`;
  await sql`alter table team_roll ${windowColumns}`.execute(db);
  await sql`alter table team_stats ${windowColumns}`.execute(db);
  await sql`drop index users_tree`.execute(db);
  await sql`create index users_tree on users (id) include (parent, depth, bound_at)`.execute(db);
  // The roll-up now takes the window and the effective minimum (team/functions.ts defines it).
  await sql`drop function if exists team_roll_up(date, text[])`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists pool_power`.execute(db);
  const dropped = sql`
    drop column if exists window_direct, drop column if exists window_direct_effective,
    drop column if exists window_members, drop column if exists window_effective,
    drop column if exists window_quantity`;
  await sql`alter table team_roll ${dropped}`.execute(db);
  await sql`alter table team_stats ${dropped}`.execute(db);
  await sql`drop index if exists users_tree`.execute(db);
  await sql`create index users_tree on users (id) include (parent, depth)`.execute(db);
}
