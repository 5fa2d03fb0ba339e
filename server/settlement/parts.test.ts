import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLedger, postEntry, SYSTEM } from '../ledger/ledger.ts';
import { addDays, fixedClock } from '../platform/clock.ts';
import { DATABASES, startTestApp, type TestApp } from '../test/harness.ts';
import { settleDay } from './settle.ts';

const UNIT = 100_000_000n;
const FIRST_DAY = '2026-11-10';

/** A few 360-day orders: principal and power in whole AIC, and whether each reinvests. */
const pool = fc.array(
  fc.record({ units: fc.integer({ min: 1, max: 50_000 }), power: fc.integer({ min: 1, max: 250_000 }), reinvest: fc.boolean() }),
  { minLength: 1, maxLength: 24 },
);

type PoolOrders = typeof pool extends fc.Arbitrary<infer T> ? T : never;

/**
 * The pool's output is paid in two parts by holder (a hash of the id), side by side. Whatever the
 * orders, the parts together must pay what the output shared by power pays in one piece: one line
 * per active order, `output × power ÷ total power` (rounded down) each, and the pool debited by
 * their sum, no more.
 */
describe.each(DATABASES)('the pool output paid in parts on %s', (kind) => {
  let t: TestApp;
  let nextId = 5000;
  let day = FIRST_DAY;
  beforeAll(async () => {
    t = await startTestApp(kind, { seed: false, clock: fixedClock(new Date(`${FIRST_DAY}T23:00:00Z`)) });
    const funds = 1_000_000_000n * UNIT;
    await t.ctx.db.transaction().execute((trx) =>
      postEntry(trx, {
        kind: 'test_fund',
        postings: [
          { userId: SYSTEM, asset: 'AIC', kind: 'exchange', amount: -2n * funds },
          { userId: SYSTEM, asset: 'AIC', kind: 'supercomputing_pool', amount: funds },
          { userId: SYSTEM, asset: 'AIC', kind: 'treasury', amount: funds },
        ],
      }),
    );
  });
  afterAll(async () => {
    await t.close();
  });

  async function addOrders(orders: PoolOrders) {
    for (const order of orders) {
      const id = nextId++;
      await sql`insert into users (id, subject, name, invite_code) values (${id}, ${`p-${id}`}, ${`p ${id}`}, ${`P${id}`})`.execute(t.ctx.db);
      await sql`insert into orders (user_id, product, principal, power, coefficient, status, reinvest, start_day, created_at, matures_day)
        values (${id}, 'reinvest360', ${BigInt(order.units) * UNIT}, ${BigInt(order.power) * UNIT}, '1.00000000',
          ${order.reinvest ? 'reinvested' : 'in_progress'}, ${order.reinvest}, ${day}::date, now(), '2027-12-31')`.execute(t.ctx.db);
    }
  }

  it('pays every order its share exactly once, in two parts that are each used', async () => {
    const partsSeen = new Set<number>();
    await fc.assert(
      fc.asyncProperty(pool, async (orders) => {
        await addOrders(orders);
        // What the day shares: the orders' power before the day (reinvested shares add to it).
        const before = (
          await sql<{ user_id: bigint; id: bigint; power: bigint; part: number }>`
            select user_id, id, power, (hashint8(user_id) & 2147483647) % 2 as part from orders
            where product = 'reinvest360' and status in ('in_progress', 'reinvested')`.execute(t.ctx.db)
        ).rows;
        const poolBefore = await poolBalance();
        t.ctx.clock.set(new Date(`${addDays(day, 1)}T01:00:00Z`));
        const report = await settleDay(t.ctx, day);
        expect(report.status).toBe('done');
        const settled = await t.ctx.db
          .selectFrom('settlement_days')
          .select(['pool_output', 'total_power'])
          .where('day', '=', day)
          .executeTakeFirstOrThrow();
        const output = settled.pool_output as bigint;
        const totalPower = before.reduce((sum, o) => sum + o.power, 0n);
        expect(settled.total_power).toBe(totalPower);
        const lines = (
          await sql<{ order_id: bigint; amount: bigint }>`
            select order_id, amount from income where day = ${day}::date and kind = 'static' order by order_id`.execute(t.ctx.db)
        ).rows;
        const expected = [...before]
          .sort((a, b) => (a.id < b.id ? -1 : 1))
          .map((o) => ({ order_id: o.id, amount: (output * o.power) / totalPower }));
        expect(lines).toEqual(expected);
        const paid = expected.reduce((sum, line) => sum + line.amount, 0n);
        expect(poolBefore - (await poolBalance())).toBe(paid);
        for (const order of before) partsSeen.add(order.part);
        expect((await checkLedger(t.ctx.db)).ok).toBe(true);
        day = addDays(day, 1);
      }),
      { numRuns: 6 },
    );
    // Over the runs' holders both parts were paid (else this tested one piece only).
    expect([...partsSeen].sort()).toEqual([0, 1]);
  });

  const poolBalance = async () =>
    (
      await t.ctx.db
        .selectFrom('accounts')
        .select('balance')
        .where('user_id', '=', SYSTEM)
        .where('kind', '=', 'supercomputing_pool')
        .executeTakeFirstOrThrow()
    ).balance;
});
