import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { PATHS } from '../../contract/paths.ts';
import type { ProductDefinition } from '../../contract/productRegistry.ts';
import { createSession } from '../auth/sessions.ts';
import { checkLedger } from '../ledger/ledger.ts';
import { DAY_MS, fixedClock } from '../platform/clock.ts';
import { settleDue } from '../settlement/settle.ts';
import { verifyDay } from '../settlement/verify.ts';
import { DATABASES, startTestApp, type TestApp } from '../test/harness.ts';
import { bearer, post, signIn } from '../test/signIn.ts';

/** A fourth product, declared as docs/architecture.md's "Adding a product" says: one entry. */
const FIXED7 = vi.hoisted((): ProductDefinition => ({
  kind: 'fixed',
  termDays: 7,
  cycleHours: null,
  rateParam: 'earn.fixed7.daily_rate',
  defaultDailyRate: '0.002',
  termParams: ['earn.fixed7.daily_rate'],
  incomeKind: 'fixed',
  statuses: ['confirming', 'in_progress', 'redeemable', 'redeemed', 'renewed'],
}));

// The scratch registry: the real one with the new entry, seen by every module of the app.
vi.mock('../../contract/productRegistry.ts', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../contract/productRegistry.ts')>();
  return { ...real, PRODUCT_REGISTRY: { ...real.PRODUCT_REGISTRY, fixed7: FIXED7 } };
});

/**
 * A product added by its declaration alone: subscribed, settled day by day at its own rate,
 * matured on its own term and redeemed, with the dashboard, the product list, the parameters
 * and the verifier all following the registry. Launch day 2026-11-01, clock frozen at 08:00 UTC.
 */
describe.each(DATABASES)('a product added by its declaration alone, on %s', (kind) => {
  let t: TestApp;
  let holderId = 0n;
  let orderId = '';
  const token = () => createSession(t.ctx.db, holderId, 30, 'test');
  const get = async (url: string, query: Record<string, string> = {}) =>
    (await t.app.inject({ url, query, headers: bearer(await token()) })).json().data;
  const available = async () => (await get(PATHS.getAsset)).balances[0].available as string;
  const advance = async (days: number) => {
    t.ctx.clock.advance(days * DAY_MS);
    await settleDue(t.ctx);
    expect((await checkLedger(t.ctx.db)).ok).toBe(true);
  };

  beforeAll(async () => {
    t = await startTestApp(kind, { clock: fixedClock(new Date('2026-11-01T08:00:00Z')) });
    const root = await signIn(t.app, { name: 'root' });
    const holder = await signIn(t.app, { name: 'Hana' });
    holderId = BigInt(holder.userId);
    const code = (await t.app.inject({ url: PATHS.userInfo, headers: bearer(root.token) })).json().data.inviteCode;
    await post(t.app, PATHS.bindInviter, holder.token, { inviteCode: code });
    await post(t.app, PATHS.transferIn, holder.token, { asset: 'AIC', amount: '2000' });
  });
  afterAll(async () => {
    await t.close();
  });

  it('offers it beside the others, with its rate, term and dates', async () => {
    const info = await get(PATHS.productInfo);
    expect(info.products.map((p: { product: string }) => p.product)).toEqual(['current', 'fixed30', 'reinvest360', 'fixed7']);
    expect(info.products[3]).toMatchObject({ product: 'fixed7', dailyRate: '0.002', apr: '73.00', termDays: 7 });
    expect(info.termDates.find((d: { product: string }) => d.product === 'fixed7').dates).toMatchObject({ valueDay: '2026-11-02' });
  });

  it('subscribes, accrues its own rate each day, and matures on its own term', async () => {
    const bought = await post(t.app, PATHS.productBuy, await token(), { product: 'fixed7', amount: '1000' });
    expect(bought.json().data).toMatchObject({ product: 'fixed7', status: 'confirming', startDay: '2026-11-02', maturesDay: '2026-11-09' });
    orderId = bought.json().data.id;
    expect(await available()).toBe('1000');

    const home = (await t.app.inject({ url: PATHS.home })).json().data;
    expect(home.figures.stable).toEqual([
      { product: 'fixed30', subscribed: '0', dailyRate: '0.003', apr: '109.50', termDays: 30 },
      { product: 'fixed7', subscribed: '1000', dailyRate: '0.002', apr: '73.00', termDays: 7 },
    ]);

    await advance(7); // 11-08 08:00: settled through 11-07, six days accrued
    expect(await get(PATHS.product, { id: orderId })).toMatchObject({ status: 'in_progress', income: '12' });
    await advance(1); // settles 11-08, the seventh day
    expect(await get(PATHS.product, { id: orderId })).toMatchObject({ status: 'redeemable', income: '14', redeemable: '1014' });
    expect((await verifyDay(t.ctx.db, t.ctx.config, '2026-11-08')).problems).toEqual([]);
  });

  it('redeems principal and income exactly, once', async () => {
    const redeemed = await post(t.app, PATHS.redeemRegular, await token(), { orderId });
    expect(redeemed.json().data).toMatchObject({ status: 'redemption_successful' });
    expect(await available()).toBe('2014');
    expect((await post(t.app, PATHS.redeemRegular, await token(), { orderId })).json().code).not.toBe(0);
    expect(await available()).toBe('2014');
  });

  it('takes an operator rate for it, versioned like the others', async () => {
    const params = await get(PATHS.rateHistory);
    expect(JSON.stringify(params)).toContain('earn.fixed7.daily_rate');
  });
});
