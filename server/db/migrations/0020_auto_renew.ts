import { type Kysely, sql } from 'kysely';

/**
 * Auto-renew of 30-day orders (issue 20). `auto_renew`: the holder's choice, taken with the buy
 * and switchable while the order runs; a constant default, so adding it rewrites no row.
 * `renewed_from` (on the new order) and `renewed_to` (on the old, status 'renewed') link the two
 * ends of a renewal, both written by settlement's maturity statement; the partial unique index
 * holds each order to one renewal at most, whatever runs twice (it holds no row of a bought
 * order, so a buy pays nothing for it).
 *
 * `earn_buy` takes the flag as a new last parameter (server/earn/buyFunction.ts, defined after
 * the migrations on every start). `create or replace` cannot change a signature: it would add a
 * second `earn_buy` beside the old one, and a call with the old arguments would match both. So
 * the old one goes here; the new parameter has a default, so calls that leave it out (the
 * pgbench yardstick in bench/pgbench.ts) still reach it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table orders
      add column auto_renew boolean not null default false,
      add column renewed_from bigint,
      add column renewed_to bigint`.execute(db);
  await sql`create unique index orders_renewed_from on orders (user_id, renewed_from) where renewed_from is not null`.execute(db);
  await sql`
    drop function if exists earn_buy(bigint, text, text, timestamptz, date, text, bigint, bigint, text, text,
      date, timestamptz, date, bigint, bigint, jsonb, jsonb)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists orders_renewed_from`.execute(db);
  await sql`alter table orders drop column auto_renew, drop column renewed_from, drop column renewed_to`.execute(db);
}
