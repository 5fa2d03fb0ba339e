import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatUnits } from '../../contract/money.ts';
import { PATHS } from '../../contract/paths.ts';
import { createSession } from '../auth/sessions.ts';
import { ORDERS, productsIn } from '../db/statuses.ts';
import { checkLedger } from '../ledger/ledger.ts';
import { addDays, DAY_MS, fixedClock, utcDay } from '../platform/clock.ts';
import { settleDue } from '../settlement/settle.ts';
import { DATABASES, startTestApp, type TestApp } from '../test/harness.ts';
import { bearer, post, signIn } from '../test/signIn.ts';

const HOLDERS = 3;

/** A day of the scenario: 360-day buys (some reinvesting), and maybe one earning order brought to its term's end. */
const day = fc.record({
  buys: fc.array(
    fc.record({ holder: fc.nat(HOLDERS - 1), units: fc.integer({ min: 1, max: 150 }), reinvest: fc.boolean(), afterSettling: fc.boolean() }),
    { maxLength: 4 },
  ),
  endOne: fc.boolean(),
});

/**
 * The Earn centre's total power comes from `pool_power`, which the day's `confirm` step writes.
 * Held to what the route summed over every earning 360-day order before (the oracle, still the
 * definition) after each settled day of random buys, reinvested shares and terms ending.
 */
describe.each(DATABASES)('the pool’s total power kept by settlement on %s', (kind) => {
  let t: TestApp;
  const ids: bigint[] = [];
  const token = (i: number) => createSession(t.ctx.db, ids[i] as bigint, 30, 'test');

  beforeAll(async () => {
    t = await startTestApp(kind, { clock: fixedClock(new Date('2026-11-01T08:00:00Z')) });
    const root = await signIn(t.app, { name: 'root' });
    const code = (await t.app.inject({ url: PATHS.userInfo, headers: bearer(root.token) })).json().data.inviteCode;
    for (let i = 0; i < HOLDERS; i++) {
      const session = await signIn(t.app, { name: `holder ${i}` });
      ids.push(BigInt(session.userId));
      await post(t.app, PATHS.transferIn, session.token, { asset: 'AIC', amount: '10000' });
      await post(t.app, PATHS.bindInviter, session.token, { inviteCode: code });
    }
  });
  afterAll(async () => {
    await t.close();
  });

  const shown = async () => (await t.app.inject({ url: PATHS.productInfo, headers: bearer(await token(0)) })).json().data.totalPower;
  const summed = async () => {
    const { rows } = await sql<{ total: bigint }>`select coalesce(sum(power), 0)::bigint as total from orders
      where product in ${productsIn('pool')} and status in ${ORDERS.earning}`.execute(t.ctx.db);
    return formatUnits(rows[0]?.total ?? 0n);
  };

  it('equals the sum over the earning orders after every settled day', async () => {
    let nonZero = false;
    await fc.assert(
      fc.asyncProperty(fc.array(day, { minLength: 1, maxLength: 4 }), async (days) => {
        for (const { buys, endOne } of days) {
          // An order bought today waits (confirming) until today is settled, with no power in the
          // pool yet, whether it is bought before or after yesterday's settlement.
          const buyAll = async (afterSettling: boolean) => {
            for (const buy of buys.filter((b) => b.afterSettling === afterSettling)) {
              const bought = await post(t.app, PATHS.productBuy, await token(buy.holder), { product: 'reinvest360', amount: String(buy.units) });
              expect(bought.json().code).toBe(0);
              if (buy.reinvest) await post(t.app, PATHS.oneRebuy, await token(buy.holder), { orderId: bought.json().data.id });
            }
          };
          t.ctx.clock.advance(DAY_MS);
          await buyAll(false);
          if (endOne) {
            // An earning order whose term ends with tomorrow's settlement: it leaves the pool's power.
            const tomorrow = addDays(utcDay(t.ctx.clock.now()), 0);
            await sql`update orders set matures_day = ${tomorrow}::date where id = (
              select id from orders where product in ${productsIn('pool')} and status in ${ORDERS.earning} order by id limit 1)`.execute(t.ctx.db);
          }
          await settleDue(t.ctx);
          await buyAll(true);
          const total = await summed();
          nonZero ||= total !== '0';
          expect(await shown()).toBe(total);
        }
      }),
      { numRuns: 4 },
    );
    expect(nonZero).toBe(true);
    expect((await checkLedger(t.ctx.db)).ok).toBe(true);
  });
});
