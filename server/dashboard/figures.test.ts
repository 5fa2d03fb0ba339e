import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PATHS } from '../../contract/paths.ts';
import { checkLedger } from '../ledger/ledger.ts';
import { DAY_MS, fixedClock } from '../platform/clock.ts';
import { setParam } from '../platform/params.ts';
import { settleDue } from '../settlement/settle.ts';
import { DATABASES, startTestApp, type TestApp } from '../test/harness.ts';
import { bearer, post, signIn } from '../test/signIn.ts';

/**
 * The platform figures of the dashboard after settled days: a 360-day order alone in the pool
 * takes each day's whole output (1% of the pool), and a 30-day order earns 0.3% a day from the
 * treasury. Launch 2026-11-01; the clock frozen at 08:00 UTC.
 */
describe.each(DATABASES)('platform figures on the dashboard on %s', (kind) => {
  let t: TestApp;
  const home = async () => (await t.app.inject({ url: PATHS.home })).json().data.figures;

  beforeAll(async () => {
    t = await startTestApp(kind, { clock: fixedClock(new Date('2026-11-01T08:00:00Z')) });
  });
  afterAll(async () => {
    await t.close();
  });

  it('starts from the seeded pool and treasury, with no output yet', async () => {
    expect(await home()).toEqual({
      networkOutput: '0',
      lastOutput: '0',
      lastOutputDay: null,
      supercomputingPool: '1000000',
      treasury: '500000',
      stable: [{ product: 'fixed30', subscribed: '0', dailyRate: '0.003', apr: '109.50', termDays: 30 }],
    });
  });

  it('counts what the pool paid and the treasury paid, day by day, to the unit', async () => {
    const root = await signIn(t.app, { name: 'root' });
    const holder = await signIn(t.app, { name: 'holder' });
    const rootCode = (await t.app.inject({ url: PATHS.userInfo, headers: bearer(root.token) })).json().data.inviteCode;
    expect((await post(t.app, PATHS.bindInviter, holder.token, { inviteCode: rootCode })).json().code).toBe(0);
    await post(t.app, PATHS.transferIn, holder.token, { asset: 'AIC', amount: '3000' });
    expect((await post(t.app, PATHS.productBuy, holder.token, { product: 'reinvest360', amount: '1000' })).json().code).toBe(0);
    expect((await post(t.app, PATHS.productBuy, holder.token, { product: 'fixed30', amount: '2000' })).json().code).toBe(0);
    // Bought today: confirming, and already counted as subscribed to the stable product.
    expect((await home()).stable[0]?.subscribed).toBe('2000');

    t.ctx.clock.advance(3 * DAY_MS); // 2026-11-04 08:00: days 11-01 to 11-03 are due
    const reports = await settleDue(t.ctx);
    expect(reports.map((r) => [r.day, r.status])).toEqual([
      ['2026-11-01', 'done'],
      ['2026-11-02', 'done'],
      ['2026-11-03', 'done'],
    ]);
    expect((await checkLedger(t.ctx.db)).ok).toBe(true);
    // Both orders start on 11-02. The pool releases 1% of itself a day, the whole of it this
    // order's share, but pays at most 1,000 × 0.5% = 5 a day (the cap): 5 on 11-02 and 5 on
    // 11-03, the rest staying in the pool. The output counts what was paid.
    // The 30-day order: 2,000 × 0.003 = 6 a day from the treasury. Root holds nothing: no rebate.
    expect(await home()).toEqual({
      networkOutput: '10',
      lastOutput: '5',
      lastOutputDay: '2026-11-03',
      supercomputingPool: '999990',
      treasury: '499988',
      stable: [{ product: 'fixed30', subscribed: '2000', dailyRate: '0.003', apr: '109.50', termDays: 30 }],
    });
    const data = (await t.app.inject({ url: PATHS.home })).json().data;
    expect(data.pool1).toBe('999990');
  });

  it('takes the stable product’s rate in force today, never a future one', async () => {
    await setParam(t.ctx.db, 'earn.fixed30.daily_rate', '2026-11-04', '0.004');
    await setParam(t.ctx.db, 'earn.fixed30.daily_rate', '2026-11-05', '0.005');
    expect((await home()).stable).toEqual([{ product: 'fixed30', subscribed: '2000', dailyRate: '0.004', apr: '146.00', termDays: 30 }]);
  });

  it('settling a day again pays nothing twice and the figures stay', async () => {
    const before = await home();
    await settleDue(t.ctx);
    expect(await home()).toEqual(before);
  });
});
