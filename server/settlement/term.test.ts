import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PATHS } from '../../contract/paths.ts';
import { addDays } from '../platform/clock.ts';
import { DATABASES, startTestApp, type TestApp } from '../test/harness.ts';
import { bearer, post, signIn } from '../test/signIn.ts';
import { settleDay } from './settle.ts';

/** Spec section 4, order status "ended": a 360-day order at the end of its term. */
describe.each(DATABASES)('the end of a 360-day term on %s', (kind) => {
  let t: TestApp;
  let holder = '';

  beforeAll(async () => {
    t = await startTestApp(kind, { config: { sessionTtlDays: 1000 } });
    const root = (await signIn(t.app, { name: 'root of the term' })).token;
    holder = (await signIn(t.app, { name: 'holder of the term' })).token;
    const { inviteCode } = (await t.app.inject({ url: PATHS.userInfo, headers: bearer(root) })).json().data;
    expect((await post(t.app, PATHS.bindInviter, holder, { inviteCode })).json().code).toBe(0);
    expect((await post(t.app, PATHS.transferIn, holder, { asset: 'AIC', amount: '1000' })).json().code).toBe(0);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('ends the order and returns its principal to the wallet on the settlement before its last day', async () => {
    const order = (await post(t.app, PATHS.productBuy, holder, { product: 'reinvest360', amount: '100' })).json().data;
    expect(order).toMatchObject({ status: 'confirming', startDay: '2026-11-02', maturesDay: addDays('2026-11-02', 360) });
    t.ctx.clock.set(new Date(`${order.maturesDay}T08:00:00Z`));
    // The day before maturity settles: the next day is the term's end, so the order ends.
    const report = await settleDay(t.ctx, addDays(order.maturesDay, -1));
    expect(report.ended).toBe(1);
    const after = (await t.app.inject({ url: PATHS.product, query: { id: order.id }, headers: bearer(holder) })).json().data;
    expect(after.status).toBe('ended');
    const asset = (await t.app.inject({ url: PATHS.getAsset, headers: bearer(holder) })).json().data;
    expect(asset.balances.find((b: { asset: string }) => b.asset === 'AIC').available).toBe('1000');
  });
});
