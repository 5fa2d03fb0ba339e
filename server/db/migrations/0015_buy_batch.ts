import { type Kysely, sql } from 'kysely';

/**
 * Group commit for buys (issue 16): the buys that reach one process within a millisecond go to
 * the database as one statement and one commit. Each item runs `earn_buy` as it would alone, so
 * it keeps its own checks, refusal, stored answer and Idempotency-Key (a refusal rolls back only
 * its own writes, inside `earn_buy`'s block); items are taken in user order, so two batches lock
 * the same holders' rows in the same order.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create or replace function earn_buy_batch(p_items jsonb)
    returns table (idx integer, outcome text, status integer, body jsonb)
    language plpgsql as $fn$
    declare
      v_item record;
      v_result record;
    begin
      for v_item in
        select (e.ordinality - 1)::integer as i, e.value as v
        from jsonb_array_elements(p_items) with ordinality as e
        order by (e.value ->> 'user')::bigint, e.ordinality
      loop
        select * into v_result from earn_buy(
          (v_item.v ->> 'user')::bigint, v_item.v ->> 'key', v_item.v ->> 'hash',
          (v_item.v ->> 'now')::timestamptz, (v_item.v ->> 'today')::date,
          v_item.v ->> 'product', (v_item.v ->> 'amount')::bigint, (v_item.v ->> 'power')::bigint,
          v_item.v ->> 'coefficient', v_item.v ->> 'status', (v_item.v ->> 'startDay')::date,
          (v_item.v ->> 'cycleStart')::timestamptz, (v_item.v ->> 'maturesDay')::date,
          (v_item.v ->> 'minimum')::bigint, (v_item.v ->> 'quota')::bigint,
          v_item.v -> 'answer', v_item.v -> 'refusals');
        idx := v_item.i;
        outcome := v_result.outcome;
        status := v_result.status;
        body := v_result.body;
        return next;
      end loop;
    end
    $fn$`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop function if exists earn_buy_batch`.execute(db);
}
