import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runningOn } from '../db/statuses.ts';
import { DATABASES, startTestApp, type TestApp } from '../test/harness.ts';
import { holderRanges, inPart } from './parts.ts';

const HOLDERS_A_PART = 20_000n;

const DAY = '2026-11-20';
/** Holders with an order: spread so that the highest id makes three parts. */
const HOLDERS = [1n, 2n, 500n, HOLDERS_A_PART - 1n, HOLDERS_A_PART, HOLDERS_A_PART + 1n, 2n * HOLDERS_A_PART + 7n];

/**
 * The steps paying orders are paid in ranges of holder ids, each reading a range of the index of
 * the active orders by holder (migration 0039): every holder falls in exactly one range, and a
 * range's orders are read through that index, not by scanning every active order once a part.
 */
describe.each(DATABASES)('holder ranges on %s', (kind) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp(kind, { seed: false });
    await sql`
      insert into orders (user_id, product, principal, power, status, start_day, created_at, matures_day)
      select u, 'reinvest360', 100000000, 100000000, 'in_progress', date '2026-11-01', now(), date '2027-10-27'
      from unnest(${HOLDERS.map(String)}::bigint[]) u`.execute(t.ctx.db);
    // Orders no longer active, in the same ranges: more than the active ones, as on a platform.
    await sql`
      insert into orders (user_id, product, principal, power, status, start_day, created_at, matures_day)
      select u, 'reinvest360', 100000000, 100000000, 'redeemed', date '2025-11-01', now(), date '2026-10-27'
      from generate_series(1, ${Number(3n * HOLDERS_A_PART)}, 10) u`.execute(t.ctx.db);
    await sql`analyze orders`.execute(t.ctx.db);
  });
  afterAll(async () => {
    await t.close();
  });

  it('puts every holder in exactly one range, up to the highest, the last open-ended', async () => {
    const ranges = await holderRanges(t.ctx.db, Number(HOLDERS_A_PART));
    expect(ranges).toHaveLength(3);
    expect(ranges.at(-1)).toMatchObject({ below: null });
    const holdersOf = await Promise.all(
      ranges.map(async (part) => {
        const { rows } = await sql<{ user_id: string }>`
          select user_id::text from orders where ${runningOn('pool', DAY)} and ${inPart('user_id', part)} order by orders.user_id`.execute(t.ctx.db);
        return rows.map((r) => BigInt(r.user_id));
      }),
    );
    expect(holdersOf.flat()).toEqual(HOLDERS);
    expect(holdersOf.map((ids) => ids.length)).toEqual([4, 2, 1]);
  });

  it("reads a range's orders through the index of the active orders by holder", async () => {
    const [, middle] = await holderRanges(t.ctx.db, Number(HOLDERS_A_PART));
    const plan = await t.ctx.db.transaction().execute(async (trx) => {
      // Any index the planner may use, then, over scanning the table: this asks which one fits.
      await sql`set local enable_seqscan = off`.execute(trx);
      const { rows } = await sql<{ 'QUERY PLAN': string }>`
        explain select user_id from orders where ${runningOn('pool', DAY)} and ${inPart('user_id', middle ?? { from: null, below: null })}`.execute(trx);
      return rows.map((r) => r['QUERY PLAN']).join('\n');
    });
    expect(plan).toContain('orders_active_holder');
    expect(plan).toMatch(/Index Cond: .*user_id >= .*user_id < /);
  });
});
