import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { explainIncome, recomputeIncome } from '../../contract/income.ts';
import { formatUnits } from '../../contract/money.ts';
import { PATHS } from '../../contract/paths.ts';
import { createSession } from '../auth/sessions.ts';
import { EARN_PARAM_NAMES } from '../earn/params.ts';
import { aprOf } from '../earn/routes.ts';
import { balanceOf, checkLedger, SYSTEM } from '../ledger/ledger.ts';
import { DAY_MS, fixedClock } from '../platform/clock.ts';
import { setParam } from '../platform/params.ts';
import { DATABASES, startTestApp, type TestApp } from '../test/harness.ts';
import { bearer, post, signIn } from '../test/signIn.ts';
import { settleDue } from './settle.ts';
import { verifyDay } from './verify.ts';

/**
 * The 360-day cap (PRODUCT.md): a day's static earning of an order is at most its principal ×
 * the maximum daily rate, and what the cap holds back stays in the pool. Launch day 2026-11-01,
 * the seeded pool 1,000,000 AIC, its output 1% a day, the clock frozen at 08:00 UTC.
 */
describe.each(DATABASES)('the 360-day yield cap on %s', (kind) => {
  let t: TestApp;
  const ids: Record<string, bigint> = {};
  const orders: Record<string, string> = {};
  const token = (who: string) => createSession(t.ctx.db, ids[who] as bigint, 30, 'test');
  const order = async (who: string) =>
    (await t.app.inject({ url: PATHS.product, query: { id: orders[who] as string }, headers: bearer(await token(who)) })).json().data;
  const pool = () => balanceOf(t.ctx.db, { userId: SYSTEM, asset: 'AIC', kind: 'supercomputing_pool' });
  const staticLog = async (who: string) =>
    (await t.app.inject({ url: PATHS.rewardLog, query: { kind: 'static' }, headers: bearer(await token(who)) })).json().data.items;

  /** The static lines' own rate, apart from the settlement's kept figures: what they paid over the principal sharing. */
  const rateOfLines = async () => {
    const lines = await t.ctx.db
      .selectFrom('income')
      .select((eb) => [eb.fn.sum<string>('amount').as('paid'), eb.fn.sum<string>('source').as('principal')])
      .where('kind', '=', 'static')
      .executeTakeFirstOrThrow();
    return formatUnits((BigInt(lines.paid) * 100_000_000n) / BigInt(lines.principal));
  };
  const recentOf = async () =>
    (await t.app.inject({ url: PATHS.productInfo, headers: bearer(await token('bob')) }))
      .json()
      .data.products.find((p: { product: string }) => p.product === 'reinvest360').recent;

  beforeAll(async () => {
    t = await startTestApp(kind, { clock: fixedClock(new Date('2026-11-01T08:00:00Z')) });
    let rootCode = '';
    for (const name of ['root', 'bob', 'alice']) {
      const session = await signIn(t.app, { name });
      ids[name] = BigInt(session.userId);
      if (name === 'root') {
        rootCode = (await t.app.inject({ url: PATHS.userInfo, headers: bearer(session.token) })).json().data.inviteCode;
        continue;
      }
      await post(t.app, PATHS.transferIn, session.token, { asset: 'AIC', amount: '5000' });
      await post(t.app, PATHS.bindInviter, session.token, { inviteCode: rootCode });
    }
    for (const [who, amount] of [['bob', '3000'], ['alice', '1000']] as const) {
      const bought = await post(t.app, PATHS.productBuy, await token(who), { product: 'reinvest360', amount });
      orders[who] = bought.json().data.id;
    }
    expect((await post(t.app, PATHS.oneRebuy, await token('bob'), { orderId: orders.bob })).json().code).toBe(0);
  });
  afterAll(async () => {
    await t.close();
  });

  it('estimates within the cap before subscribing, and says the maximum', async () => {
    const info = (await t.app.inject({ url: PATHS.productInfo, headers: bearer(await token('bob')) })).json().data;
    const long = info.products.find((p: { product: string }) => p.product === 'reinvest360');
    expect(long).toMatchObject({ maxDailyRate: '0.005', maxApr: '182.50', dailyRate: null, recent: null });
    expect(info.products.filter((p: { maxDailyRate: string | null }) => p.maxDailyRate !== null)).toHaveLength(1);
  });

  it('pays at most principal × 0.5% a day and keeps the rest in the pool', async () => {
    t.ctx.clock.advance(DAY_MS);
    await settleDue(t.ctx); // 11-01 (nothing running yet) and nothing else: 11-02 has not ended
    t.ctx.clock.advance(DAY_MS);
    await settleDue(t.ctx); // 11-02: output 10,000 by power 15,000 : 5,000, shares 7,500 and 2,500
    // Capped: bob 3,000 × 0.005 = 15, reinvested (principal 3,015, power 15,000 + 5 × 15 × 1.02);
    // alice 1,000 × 0.005 = 5 to her rewards.
    expect(await order('bob')).toMatchObject({ quantity: '3015', income: '15', power: '15076.5' });
    expect(await order('alice')).toMatchObject({ quantity: '1000', income: '5' });
    expect(await pool()).toBe(1_000_000_00000000n - 20_00000000n);
    expect((await checkLedger(t.ctx.db)).ok).toBe(true);
    expect((await verifyDay(t.ctx.db, t.ctx.config, '2026-11-02')).problems).toEqual([]);
  });

  it("shows what the product paid over its settled days, as its own lines add up, and each holder's own power", async () => {
    const info = (await t.app.inject({ url: PATHS.productInfo, headers: bearer(await token('bob')) })).json().data;
    const long = info.products.find((p: { product: string }) => p.product === 'reinvest360');
    expect(await rateOfLines()).toBe('0.005');
    expect(long.recent).toEqual({ dailyRate: '0.005', apr: '182.50', days: 1 });
    // Each holder's own power, from the pass over their orders the wallet reads: Bob's grown
    // by the reinvested share, Alice's as bought.
    const powerOf = async (who: string) =>
      (await t.app.inject({ url: PATHS.positions, headers: bearer(await token(who)) }))
        .json()
        .data.products.find((p: { product: string }) => p.product === 'reinvest360').power;
    expect(await powerOf('bob')).toBe('15076.5');
    expect(await powerOf('alice')).toBe('5000');
  });

  it('explains a capped line and recomputes it from its inputs', async () => {
    const [line] = await staticLog('alice');
    expect(line).toMatchObject({ day: '2026-11-02', amount: '5' });
    expect(line.inputs).toMatchObject({ output: '1000000000000', power: '500000000000', principal: '100000000000', maxRate: '0.005' });
    expect(formatUnits(recomputeIncome('static', line.inputs))).toBe('5');
    expect(explainIncome('static', line.inputs, line.amount)).toMatchObject({
      key: 'income.formula.staticCapped',
      expression: 'min(10000 × 5000 ÷ 20000, 1000 × 0.005) = 5',
    });
  });

  it('follows a new maximum announced ahead: above the share, the share is paid in full', async () => {
    await setParam(t.ctx.db, EARN_PARAM_NAMES.poolMaxDailyRate, '2026-11-03', '10');
    t.ctx.clock.advance(DAY_MS);
    await settleDue(t.ctx); // 11-03: output 9,999.8 by power 15,076.5 : 5,000, under the caps of 30,150 and 10,000
    expect((await order('bob')).income).toBe('7524.37587228');
    expect((await order('alice')).income).toBe('2495.42412771');
    expect(await pool()).toBe(1_000_000_00000000n - 20_00000000n - 9_999_79999999n);
    const report = await verifyDay(t.ctx.db, t.ctx.config, '2026-11-03');
    expect(report.problems).toEqual([]);
    // Two settled days now, weighted by the principal sharing each: (20 + 9,999.79999999) / (4,000 + 4,015).
    const rate = await rateOfLines();
    expect(rate).toBe('1.250131');
    expect(await recentOf()).toEqual({ dailyRate: rate, apr: aprOf(rate), days: 2 });
  });

  it('finds a line paid above its cap', async () => {
    await t.ctx.db.updateTable('income').set({ amount: 5_00000001n }).where('day', '=', '2026-11-02').where('user_id', '=', ids.alice as bigint).execute();
    const report = await verifyDay(t.ctx.db, t.ctx.config, '2026-11-02');
    expect(report.problems.join('\n')).toMatch(/paid 5\.00000001, recomputed 5\b/);
  });
});
