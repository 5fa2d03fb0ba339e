import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Order } from '../../contract/earn.ts';
import { ERRORS } from '../../contract/errors.ts';
import type { Notice } from '../../contract/notifications.ts';
import { PATHS } from '../../contract/paths.ts';
import { checkLedger } from '../ledger/ledger.ts';
import { fixedClock } from '../platform/clock.ts';
import { DATABASES, startTestApp, type TestApp } from '../test/harness.ts';
import { bearer, post, type SignedIn, signIn } from '../test/signIn.ts';
import { settleDay, settleDue } from './settle.ts';
import { lineInputs } from '../income/inputs.ts';
import { verifyDay } from './verify.ts';

const AIC = 100_000_000n;

/**
 * Auto-renew of 30-day orders. Scenario: the clock frozen at 2026-11-01 08:00 UTC. Hana buys
 * 1,000 AIC with auto-renew and 200 AIC without; Ivo 5,000 and 100 AIC, both with auto-renew.
 * The operator announces for 2026-12-02 (the orders' maturity day, the renewals' first day) a
 * 30-day rate of 0.4% and a minimum of 500 AIC. On 12-02 Ivo subscribes 5,000 AIC before the
 * day 12-01 settles, so his 5,450 would go over that day's 10,000 quota; his 109 is below the
 * new minimum. Every 30-day order accrues 11-02 to 12-01 at 0.3%.
 */
describe.each(DATABASES)('auto-renew of 30-day orders on %s', (kind) => {
  let t: TestApp;
  let olga: SignedIn;
  let hana: SignedIn;
  let ivo: SignedIn;
  const ids: Record<'renews' | 'plain' | 'overQuota' | 'belowMinimum', string> = { renews: '', plain: '', overQuota: '', belowMinimum: '' };

  const get = <T>(who: SignedIn, url: string, query: Record<string, string> = {}) =>
    t.app.inject({ url, query, headers: bearer(who.token) }).then((res) => res.json().data as T);
  const order = (who: SignedIn, id: string) => get<Order>(who, PATHS.product, { id });
  const buy = (who: SignedIn, product: string, amount: string, autoRenew?: unknown) =>
    post(t.app, PATHS.productBuy, who.token, autoRenew === undefined ? { product, amount } : { product, amount, autoRenew });
  const autoRenew = (who: SignedIn, orderId: string, on: boolean) => post(t.app, PATHS.autoRenew, who.token, { orderId, autoRenew: on });
  const notices = async (who: SignedIn, kindOf: Notice['kind']) =>
    (await get<{ items: Notice[] }>(who, PATHS.notifications, { limit: '50' })).items.filter((n) => n.kind === kindOf).map((n) => n.params);
  const wallet = async (who: SignedIn) => (await get<{ balances: { asset: string; available: string }[] }>(who, PATHS.getAsset)).balances[0]?.available;
  const quotaUsed = async (who: SignedIn, day: string) =>
    (await t.ctx.db.selectFrom('daily_quota').select('used').where('user_id', '=', BigInt(who.userId)).where('day', '=', day).executeTakeFirst())?.used ?? 0n;

  beforeAll(async () => {
    t = await startTestApp(kind, { clock: fixedClock(new Date('2026-11-01T08:00:00Z')), config: { sessionTtlDays: 1000 } });
    olga = await signIn(t.app, { name: 'Olga' });
    hana = await signIn(t.app, { name: 'Hana' });
    ivo = await signIn(t.app, { name: 'Ivo' });
    t.ctx.config.operatorUserIds = [BigInt(olga.userId)];
    const { inviteCode } = await get<{ inviteCode: string }>(olga, PATHS.userInfo);
    for (const holder of [hana, ivo]) {
      expect((await post(t.app, PATHS.bindInviter, holder.token, { inviteCode })).json().code).toBe(0);
      expect((await post(t.app, PATHS.transferIn, holder.token, { asset: 'AIC', amount: '12000' })).json().code).toBe(0);
    }
  });
  afterAll(async () => {
    await t?.close();
  });

  it('takes auto-renew with a 30-day buy only, refusing it for another product and changing nothing', async () => {
    const renewing = (await buy(hana, 'fixed30', '1000', true)).json();
    expect(renewing.code).toBe(0);
    expect(renewing.data).toMatchObject({ product: 'fixed30', autoRenew: true, renewedFrom: null, renewedTo: null, startDay: '2026-11-02', maturesDay: '2026-12-02' });
    ids.renews = renewing.data.id;
    const plain = (await buy(hana, 'fixed30', '200')).json().data as Order;
    expect(plain.autoRenew).toBe(false);
    ids.plain = plain.id;
    ids.overQuota = (await buy(ivo, 'fixed30', '5000', true)).json().data.id;
    ids.belowMinimum = (await buy(ivo, 'fixed30', '100', true)).json().data.id;

    const before = { wallet: await wallet(hana), quota: await quotaUsed(hana, '2026-11-01') };
    expect((await buy(hana, 'current', '10', true)).json().code).toBe(ERRORS.AUTO_RENEW_PRODUCT.code);
    expect((await buy(hana, 'reinvest360', '10', false)).json().code).toBe(ERRORS.AUTO_RENEW_PRODUCT.code);
    expect((await buy(hana, 'fixed30', '10', 'yes')).json().code).toBe(ERRORS.PARAM.code);
    expect({ wallet: await wallet(hana), quota: await quotaUsed(hana, '2026-11-01') }).toEqual(before);
    const orders = await get<{ items: Order[] }>(hana, PATHS.myProductList);
    expect(orders.items.map((o) => o.id)).toEqual([ids.plain, ids.renews]);
  });

  it('switches a running order’s auto-renew, and refuses another holder’s order like a missing one, and another product', async () => {
    expect((await autoRenew(hana, ids.plain, true)).json().data).toMatchObject({ id: ids.plain, autoRenew: true });
    expect((await autoRenew(hana, ids.plain, false)).json().data).toMatchObject({ id: ids.plain, autoRenew: false });
    expect((await order(hana, ids.plain)).autoRenew).toBe(false);

    const theirs = await autoRenew(ivo, ids.renews, false);
    const missing = await autoRenew(ivo, '999999999', false);
    expect(theirs.json().code).toBe(ERRORS.NOT_FOUND.code);
    expect({ status: theirs.statusCode, body: theirs.json() }).toEqual({ status: missing.statusCode, body: missing.json() });
    expect((await order(hana, ids.renews)).autoRenew).toBe(true);

    const current = (await buy(hana, 'current', '10')).json().data.id as string;
    expect((await autoRenew(hana, current, true)).json().code).toBe(ERRORS.AUTO_RENEW_PRODUCT.code);
  });

  it('renews an auto-renewing order on its maturity day into a new order of principal plus income, once; the others stay redeemable and say why', async () => {
    for (const [name, value] of [['earn.fixed30.daily_rate', '0.004'], ['earn.minimum', '500']]) {
      expect((await post(t.app, PATHS.operatorParams, olga.token, { name, value, effectiveDay: '2026-12-02' })).json().code).toBe(0);
    }
    // The maturity day, before the day before it settles: Ivo subscribes 5,000 of its quota.
    t.ctx.clock.set(new Date('2026-12-02T00:00:30Z'));
    expect((await buy(ivo, 'current', '5000')).json().code).toBe(0);
    const reports = await settleDue(t.ctx);
    const last = reports.at(-1);
    expect(last).toMatchObject({ day: '2026-12-01', status: 'done', matured: 4, renewed: 1 });
    expect((await checkLedger(t.ctx.db)).ok).toBe(true);

    // 1,000 AIC at 0.3% for 30 days: 90 AIC; the new order holds 1,090 to the unit.
    const old = await order(hana, ids.renews);
    expect(old).toMatchObject({ status: 'renewed', quantity: '1000', income: '90', redeemable: '0', renewedFrom: null });
    const renewal = old.renewedTo as string;
    expect(renewal).toMatch(/^\d+$/);
    const fresh = await order(hana, renewal);
    expect(fresh).toMatchObject({
      product: 'fixed30', quantity: '1090', income: '0', status: 'in_progress', autoRenew: true,
      // Seen 30 s into its first day: 29 days 23:59:30 to its maturity, so 29 whole days remain.
      renewedFrom: ids.renews, renewedTo: null, startDay: '2026-12-02', maturesDay: '2027-01-01', remainingDays: 29,
    });
    const row = await t.ctx.db.selectFrom('orders').select(['principal']).where('id', '=', BigInt(renewal)).executeTakeFirstOrThrow();
    expect(row.principal).toBe(1090n * AIC);
    // A subscription of 12-02: it used that day's quota. No money moved: the holding stayed in
    // the earning account, which holds exactly what the open orders do.
    expect(await quotaUsed(hana, '2026-12-02')).toBe(1090n * AIC);
    const earning = await sql<{ balance: bigint; held: bigint }>`
      select (select balance from accounts where user_id = ${BigInt(hana.userId)} and asset = 'AIC' and kind = 'earning') as balance,
        (select sum(principal + income) from orders where user_id = ${BigInt(hana.userId)}
          and status in ('confirming', 'in_progress', 'redeemable')) as held`.execute(t.ctx.db);
    expect(earning.rows[0]?.balance).toBe(earning.rows[0]?.held);

    expect(await notices(hana, 'order_renewed')).toEqual([
      { order: ids.renews, renewal, principal: '1090', income: '90', day: '2026-12-02' },
    ]);
    expect(await notices(hana, 'order_redeemable')).toEqual([{ order: ids.plain, principal: '200', income: '18' }]);
    // Ivo's: 5,450 over what is left of 12-02's quota; 109 below 12-02's minimum of 500.
    expect((await order(ivo, ids.overQuota)).status).toBe('redeemable');
    expect((await order(ivo, ids.belowMinimum)).status).toBe('redeemable');
    const refused = await notices(ivo, 'order_redeemable');
    expect(refused.sort((a, b) => Number(a.order) - Number(b.order))).toEqual([
      { order: ids.overQuota, principal: '5000', income: '450', reason: 'quota', limit: '10000' },
      { order: ids.belowMinimum, principal: '100', income: '9', reason: 'minimum', limit: '500' },
    ]);
    expect(await notices(ivo, 'order_renewed')).toEqual([]);
    expect(await quotaUsed(ivo, '2026-12-02')).toBe(5000n * AIC);

    // The step again, as after a crash before the day was marked done: nothing renews twice.
    const count = async () => Number((await sql<{ n: bigint }>`select count(*) as n from orders`.execute(t.ctx.db)).rows[0]?.n);
    const orders = await count();
    await sql`update settlement_days set status = 'running' where day = '2026-12-01'`.execute(t.ctx.db);
    const again = await settleDay(t.ctx, '2026-12-01');
    expect(again).toMatchObject({ status: 'done', matured: 0, renewed: 0 });
    expect(await count()).toBe(orders);
    expect(await quotaUsed(hana, '2026-12-02')).toBe(1090n * AIC);
    expect((await notices(hana, 'order_renewed')).length).toBe(1);
    expect((await settleDay(t.ctx, '2026-12-01')).status).toBe('already_done');
    expect((await checkLedger(t.ctx.db)).ok).toBe(true);
  });

  it('accrues the renewal from its first day at the rate then in force, and the verifier agrees', async () => {
    const renewal = (await order(hana, ids.renews)).renewedTo as string;
    t.ctx.clock.set(new Date('2026-12-03T00:00:30Z'));
    await settleDue(t.ctx);
    // 1,090 AIC at 0.4%: 4.36 AIC on 12-02.
    const fresh = await order(hana, renewal);
    expect(fresh).toMatchObject({ quantity: '1090', income: '4.36', remainingDays: 28 });
    const line = await t.ctx.db.selectFrom('income').select(['amount', lineInputs('income').as('inputs')]).where('order_id', '=', BigInt(renewal)).where('day', '=', '2026-12-02').executeTakeFirstOrThrow();
    expect(line.amount).toBe(436_000_000n);
    expect(line.inputs).toMatchObject({ principal: String(1090n * AIC), rate: '0.004' });
    for (const day of ['2026-12-01', '2026-12-02']) {
      const report = await verifyDay(t.ctx.db, t.ctx.config, day);
      expect(report.problems, day).toEqual([]);
    }
    expect((await checkLedger(t.ctx.db)).ok).toBe(true);
  });

  it('refuses the switch on an order no longer running: renewed or matured', async () => {
    for (const id of [ids.renews, ids.plain]) {
      const res = await autoRenew(hana, id, true);
      expect(res.json().code).toBe(ERRORS.AUTO_RENEW_CLOSED.code);
    }
    expect((await order(hana, ids.plain)).autoRenew).toBe(false);
    // The renewal itself runs: its auto-renew can be switched off.
    const renewal = (await order(hana, ids.renews)).renewedTo as string;
    expect((await autoRenew(hana, renewal, false)).json().data).toMatchObject({ id: renewal, autoRenew: false });
  });
});
