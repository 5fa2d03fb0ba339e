import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS } from '../../contract/errors.ts';
import { PATHS } from '../../contract/paths.ts';
import { checkRedemption } from '../../contract/redemption.ts';
import { checkLedger } from '../ledger/ledger.ts';
import { fixedClock } from '../platform/clock.ts';
import { settleDue } from '../settlement/settle.ts';
import { DATABASES, startTestApp, type TestApp } from '../test/harness.ts';
import { bearer, post, signIn } from '../test/signIn.ts';

const HOUR_MS = 3_600_000;

/**
 * A current order redeemed in part (PRODUCT.md): at least the minimum (1 AIC), leaving zero or
 * at least the minimum; the part comes from the order's income first, the running cycle pays
 * at its end on what is left, and a refused amount changes nothing.
 */
describe.each(DATABASES)('partial redemption of a current order on %s', (kind) => {
  let t: TestApp;
  let token = '';
  let orderId = '';
  beforeAll(async () => {
    t = await startTestApp(kind, { clock: fixedClock(new Date('2026-11-01T08:00:00Z')) });
    const root = await signIn(t.app, { name: 'root' });
    const holder = await signIn(t.app, { name: 'hana' });
    token = holder.token;
    const code = (await t.app.inject({ url: PATHS.userInfo, headers: bearer(root.token) })).json().data.inviteCode;
    await post(t.app, PATHS.bindInviter, token, { inviteCode: code });
    await post(t.app, PATHS.transferIn, token, { asset: 'AIC', amount: '5000' });
    orderId = (await post(t.app, PATHS.productBuy, token, { product: 'current', amount: '1000' })).json().data.id;
  });
  afterAll(() => t?.close());

  const order = async () => (await t.app.inject({ url: PATHS.product, query: { id: orderId }, headers: bearer(token) })).json().data;
  const wallet = async () => (await t.app.inject({ url: PATHS.getAsset, headers: bearer(token) })).json().data.balances[0].available;
  const redeem = (amount?: string) => post(t.app, PATHS.redeemCurrent, token, { orderId, ...(amount === undefined ? {} : { amount }) });

  it('refuses more than the order holds, under the minimum, or a rest under it, and changes nothing', async () => {
    for (const [amount, error] of [
      ['1000.00000001', ERRORS.REDEEM_MORE],
      ['0.5', ERRORS.REDEEM_BELOW_MINIMUM],
      ['999.5', ERRORS.REDEEM_REMAINDER],
      ['abc', ERRORS.AMOUNT_INVALID],
    ] as const) {
      const res = await redeem(amount);
      expect(res.json().code, amount).toBe(error.code);
    }
    expect(await wallet()).toBe('4000');
    expect(await order()).toMatchObject({ status: 'in_progress', quantity: '1000', income: '0', redeemable: '1000' });
  });

  it('takes a part from the income first, and the next cycle pays on what is left', async () => {
    // Two finished cycles: 1000 × 0.001, then 1001 × 0.001.
    t.ctx.clock.advance(49 * HOUR_MS);
    await settleDue(t.ctx);
    expect(await order()).toMatchObject({ income: '2.001', redeemable: '1002.001' });
    // 2.001 from the income, 0.999 from the principal.
    expect((await redeem('3')).json().data).toMatchObject({ status: 'in_progress', quantity: '999.001', income: '0', redeemable: '999.001' });
    expect(await wallet()).toBe('4003');
    // The running cycle ends 23 hours later and pays on the 999.001 left: 0.999001.
    t.ctx.clock.advance(23 * HOUR_MS);
    await settleDue(t.ctx);
    expect(await order()).toMatchObject({ quantity: '999.001', income: '0.999001', redeemable: '1000.000001' });
    expect((await checkLedger(t.ctx.db)).ok).toBe(true);
  });

  it('closes the order when the whole holding is asked, as without an amount', async () => {
    expect((await redeem('1000.000001')).json().data).toMatchObject({ status: 'redeemed' });
    expect(await wallet()).toBe('5003.000001');
    expect((await redeem('1')).json().code).toBe(ERRORS.REDEEM_NONE.code);
    expect((await checkLedger(t.ctx.db)).ok).toBe(true);
  });

  it('leaves the holder a notice of each redemption, read, and none of the refusals', async () => {
    const page = (await t.app.inject({ url: PATHS.notifications, query: { limit: '50' }, headers: bearer(token) })).json().data;
    const own = page.items.filter((n: { kind: string }) => n.kind === 'redeemed' || n.kind === 'subscribed');
    expect(own.map((n: { kind: string; params: unknown; read: boolean }) => [n.kind, n.params, n.read])).toEqual([
      ['redeemed', { order: orderId, product: 'current', amount: '1000.000001' }, true],
      ['redeemed', { order: orderId, product: 'current', amount: '3' }, true],
      ['subscribed', { order: orderId, product: 'current', amount: '1000' }, true],
    ]);
  });
});

describe('the redemption rule', () => {
  it('allows all, or a part of at least the minimum that leaves zero or at least the minimum', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: 10n ** 12n }), fc.bigInt({ min: 1n, max: 10n ** 12n }), fc.bigInt({ min: 1n, max: 10n ** 9n }), (holding, amount, minimum) => {
        const verdict = checkRedemption(holding, amount, minimum);
        const rest = holding - amount;
        const allowed = amount === holding || (amount < holding && amount >= minimum && rest >= minimum);
        expect(verdict.ok).toBe(allowed);
        if (verdict.ok) expect(verdict.whole).toBe(rest === 0n);
      }),
    );
  });
});
