import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { ERRORS } from '../../contract/errors.ts';
import { PATHS } from '../../contract/paths.ts';
import { createSession } from '../auth/sessions.ts';
import { loadConfig } from '../config.ts';
import { checkLedger, postEntry, SYSTEM } from '../ledger/ledger.ts';
import { DAY_MS, fixedClock } from '../platform/clock.ts';
import { DATABASES, startTestApp, type TestApp } from '../test/harness.ts';
import { bearer, post, signIn } from '../test/signIn.ts';
import { settleDay, settleDue } from './settle.ts';

/**
 * Scenario: launch day 2026-11-01, the clock frozen at 08:00 UTC and moved by hand. The 360-day
 * cap is lifted so that the pool's sharing by power shows to the unit (cap.test.ts has the cap).
 */
describe.each(DATABASES)('earn products and daily settlement on %s', (kind) => {
  let t: TestApp;
  const tokens: Record<string, string> = {};
  const orders: Record<string, string> = {};

  beforeAll(async () => {
    const earn = { ...loadConfig({}).earn, poolMaxDailyRate: '1000' };
    // Parts of two holder ids: every step crediting earning accounts is paid in several parts,
    // and the exact amounts below hold for the parts together.
    t = await startTestApp(kind, { clock: fixedClock(new Date('2026-11-01T08:00:00Z')), config: { earn, settlementPartHolders: 2 } });
    await signInAll();
  });
  afterAll(async () => {
    await t.close();
  });

  const info = async (who: string) =>
    (await t.app.inject({ url: PATHS.userInfo, headers: bearer(tokens[who] as string) })).json().data;
  const wallet = async (who: string) =>
    (await t.app.inject({ url: PATHS.getAsset, headers: bearer(tokens[who] as string) })).json().data.balances[0].available;
  const order = async (who: string, id: string) =>
    (await t.app.inject({ url: PATHS.product, query: { id }, headers: bearer(tokens[who] as string) })).json().data;
  const buy = (who: string, product: string, amount: string) =>
    post(t.app, PATHS.productBuy, tokens[who] as string, { product, amount });
  const bind = async (who: string, inviter: string) =>
    post(t.app, PATHS.bindInviter, tokens[who] as string, { inviteCode: (await info(inviter)).inviteCode });
  const userIds: Record<string, bigint> = {};
  async function signInAll() {
    for (const name of ['root', 'alice', 'bob', 'carol']) {
      if (userIds[name] === undefined) {
        const session = await signIn(t.app, { name });
        userIds[name] = BigInt(session.userId);
        tokens[name] = session.token;
      } else {
        tokens[name] = await createSession(t.ctx.db, userIds[name], 30, 'test');
      }
    }
  }
  /** Moves the clock, settles what is due, checks the books; sessions live 30 days, so sign in again. */
  const advance = async (ms: number) => {
    t.ctx.clock.advance(ms);
    await signInAll();
    const reports = await settleDue(t.ctx);
    expect((await checkLedger(t.ctx.db)).ok).toBe(true);
    return reports;
  };

  it('refuses a purchase before an inviter is bound (a21)', async () => {
    await post(t.app, PATHS.transferIn, tokens.bob as string, { asset: 'AIC', amount: '15000' });
    const res = await buy('bob', 'current', '10');
    expect(res.json()).toMatchObject({ code: ERRORS.BIND_FIRST.code, msg: 'Purchase failed, please bind the inviter first' });
  });

  it('binds inviters once, refusing empty, unknown, own and cyclic codes', async () => {
    expect((await bind('alice', 'root')).json().code).toBe(0);
    expect((await bind('bob', 'alice')).json().code).toBe(0);
    expect((await post(t.app, PATHS.bindInviter, tokens.carol as string, { inviteCode: '  ' })).json().code).toBe(
      ERRORS.INVITE_EMPTY.code,
    );
    expect((await post(t.app, PATHS.bindInviter, tokens.carol as string, { inviteCode: 'ZZZZ2222' })).json().code).toBe(
      ERRORS.INVITE_UNKNOWN.code,
    );
    expect((await bind('carol', 'carol')).json().code).toBe(ERRORS.INVITE_OWN.code);
    expect((await bind('root', 'bob')).json().code).toBe(ERRORS.INVITE_CODE.code); // bob is below root
    expect((await bind('bob', 'carol')).json().code).toBe(ERRORS.INVITE_BOUND.code);
    expect((await bind('carol', 'bob')).json().code).toBe(0);
  });

  it('applies the buy rules, each with its own code, changing nothing', async () => {
    const before = await wallet('bob');
    expect((await buy('bob', 'current', '0.5')).json().code).toBe(ERRORS.BELOW_MINIMUM.code);
    expect((await buy('bob', 'current', '1.000000001')).json().code).toBe(ERRORS.AMOUNT_DECIMALS.code);
    expect((await buy('bob', 'current', '')).json().code).toBe(ERRORS.AMOUNT_REQUIRED.code);
    expect((await buy('bob', 'weekly', '5')).json().code).toBe(ERRORS.PARAM.code);
    expect((await buy('alice', 'current', '5')).json().code).toBe(ERRORS.BALANCE.code);
    expect((await buy('bob', 'current', '10000.00000001')).json().code).toBe(ERRORS.DAILY_QUOTA.code);
    expect(await wallet('bob')).toBe(before);
  });

  it('subscribes each product; fixed terms wait as confirming until the next day', async () => {
    await post(t.app, PATHS.transferIn, tokens.alice as string, { asset: 'AIC', amount: '1000' });
    const current = (await buy('bob', 'current', '1000')).json().data;
    const fixed = (await buy('bob', 'fixed30', '1000')).json().data;
    const long = (await buy('bob', 'reinvest360', '300')).json().data;
    const aliceLong = (await buy('alice', 'reinvest360', '100')).json().data;
    Object.assign(orders, { current: current.id, fixed: fixed.id, long: long.id, aliceLong: aliceLong.id });
    expect(current).toMatchObject({ status: 'in_progress', quantity: '1000', countdownSeconds: 86_400 });
    expect(fixed).toMatchObject({ status: 'confirming', startDay: '2026-11-02', maturesDay: '2026-12-02', remainingDays: 30 });
    expect(long).toMatchObject({ status: 'confirming', coefficient: '1.00000000', power: '1500' });
    expect(await wallet('bob')).toBe('12700');

    const productInfo = (await t.app.inject({ url: PATHS.productInfo, headers: bearer(tokens.bob as string) })).json().data;
    expect(productInfo).toMatchObject({ quotaLeft: '7700', dailyQuota: '10000', minimum: '1', coefficient: '1.00000000' });
    expect(productInfo.products[1]).toMatchObject({ product: 'fixed30', dailyRate: '0.003', apr: '109.50', termDays: 30 });

    // The quota is per UTC day: 7,700 left today.
    expect((await buy('bob', 'current', '7700.00000001')).json().code).toBe(ERRORS.DAILY_QUOTA.code);
  });

  it('refuses early redemption of a fixed term, and redeeming what is not there (a6)', async () => {
    const early = await post(t.app, PATHS.redeemRegular, tokens.bob as string, { orderId: orders.fixed });
    expect(early.json().code).toBe(ERRORS.NOT_MATURE.code);
    const none = await post(t.app, PATHS.redeemCurrent, tokens.bob as string, { orderId: '424242' });
    expect(none.json()).toMatchObject({ code: ERRORS.REDEEM_NONE.code });
    const others = await post(t.app, PATHS.redeemCurrent, tokens.alice as string, { orderId: orders.current });
    expect(others.json().code).toBe(ERRORS.REDEEM_NONE.code);
  });

  it('switches reinvestment on for the 360-day order', async () => {
    const on = await post(t.app, PATHS.oneRebuy, tokens.bob as string, { orderId: orders.long });
    expect(on.json().data).toMatchObject({ reinvest: true, status: 'confirming' });
  });

  it('settles the first two days: cycles, accrual, the pool shared by power', async () => {
    const reports = await advance(2 * DAY_MS); // now 2026-11-03 08:00
    expect(reports.map((r) => [r.day, r.status])).toEqual([
      ['2026-11-01', 'done'],
      ['2026-11-02', 'done'],
    ]);
    // Current: two finished cycles, 1000 × 0.001, then 1001 × 0.001.
    expect(await order('bob', orders.current as string)).toMatchObject({ income: '2.001', redeemable: '1002.001' });
    // Fixed: one accrued day (11-02), 1000 × 0.003.
    expect(await order('bob', orders.fixed as string)).toMatchObject({ income: '3', status: 'in_progress' });
    // 360-day, day 11-02: output 1% of 1,000,000 shared by power 1500 : 500.
    // Bob reinvests: principal 300 + 7500, power 1500 + 5 × 7500 × 1.02 (c on 11-02).
    expect(await order('bob', orders.long as string)).toMatchObject({
      status: 'reinvested',
      quantity: '7800',
      income: '7500',
      power: '39750',
    });
    expect(await order('alice', orders.aliceLong as string)).toMatchObject({ income: '2500', status: 'in_progress' });
  });

  it('pays the next day from the smaller pool, truncating at 1e-8 and keeping the remainder', async () => {
    await advance(DAY_MS); // settles 11-03: output 9,900 over power 40,250
    expect((await order('alice', orders.aliceLong as string)).income).toBe('2622.98136645');
    expect((await order('bob', orders.long as string)).quantity).toBe('17577.01863354');
    const pool = await t.ctx.db
      .selectFrom('accounts')
      .select('balance')
      .where('user_id', '=', SYSTEM)
      .where('kind', '=', 'supercomputing_pool')
      .executeTakeFirstOrThrow();
    expect(pool.balance).toBe(1_000_000_00000000n - 10_000_00000000n - 9_899_99999999n);
  });

  it('pays a day once however often it runs, also concurrently and after a lost status', async () => {
    const before = await t.ctx.db.selectFrom('income').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
    await settleDay(t.ctx, '2026-11-03');
    await t.ctx.db.deleteFrom('settlement_days').where('day', '=', '2026-11-03').execute(); // as if it crashed
    await Promise.all([settleDay(t.ctx, '2026-11-03'), settleDay(t.ctx, '2026-11-03')]);
    const after = await t.ctx.db.selectFrom('income').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
    expect(after.n).toEqual(before.n);
    expect((await order('alice', orders.aliceLong as string)).income).toBe('2622.98136645');
    expect((await checkLedger(t.ctx.db)).ok).toBe(true);
  });

  it('redeems current holdings with the income of completed cycles only', async () => {
    t.ctx.clock.advance(12 * 60 * 60 * 1000); // mid-cycle: the unfinished cycle earns nothing
    expect(await wallet('bob')).toBe('12700');
    const res = await post(t.app, PATHS.redeemCurrent, tokens.bob as string, { orderId: orders.current });
    // Three finished cycles: 1000 × 0.001, 1001 × 0.001, 1002.001 × 0.001.
    expect(res.json().data).toMatchObject({ status: 'redeemed', income: '3.003001' });
    expect(await wallet('bob')).toBe('13703.003001');
    t.ctx.clock.advance(-12 * 60 * 60 * 1000);
  });

  it('waits when the treasury cannot pay, and pays once it is funded', async () => {
    const treasury = await t.ctx.db
      .selectFrom('accounts')
      .select('balance')
      .where('user_id', '=', SYSTEM)
      .where('asset', '=', 'AIC')
      .where('kind', '=', 'treasury')
      .executeTakeFirstOrThrow();
    const move = (amount: bigint) =>
      t.ctx.db.transaction().execute((trx) =>
        postEntry(trx, {
          kind: 'test_treasury',
          postings: [
            { userId: SYSTEM, asset: 'AIC', kind: 'treasury', amount: -amount },
            { userId: SYSTEM, asset: 'AIC', kind: 'exchange', amount },
          ],
        }),
      );
    await move(treasury.balance); // empty it
    const waiting = await advance(DAY_MS); // 11-04
    expect(waiting.at(-1)).toMatchObject({ day: '2026-11-04', status: 'waiting_funds', shortfall: 'treasury' });
    expect((await order('bob', orders.fixed as string)).income).toBe('6');
    // The team figures are written at the day's end, also when the day waits for funds.
    const figuresOf = () => t.ctx.db.selectFrom('team_stats').select(sql<string>`day::text`.as('day')).distinct().execute();
    expect(await figuresOf()).toEqual([{ day: '2026-11-04' }]);
    await move(-treasury.balance); // fund it again
    const paid = await settleDue(t.ctx);
    expect(paid[0]).toMatchObject({ day: '2026-11-04', status: 'done' });
    expect((await order('bob', orders.fixed as string)).income).toBe('9');
    expect((await checkLedger(t.ctx.db)).ok).toBe(true);
  });

  it('makes the 30-day order redeemable on day 30 and pays principal plus income exactly', async () => {
    await advance(26 * DAY_MS); // now 12-01 08:00: settled through 11-30, 29 days accrued
    expect(await order('bob', orders.fixed as string)).toMatchObject({ status: 'in_progress', income: '87', remainingDays: 0 });
    await advance(DAY_MS); // settles 12-01, the 30th day
    expect(await order('bob', orders.fixed as string)).toMatchObject({ status: 'redeemable', income: '90', redeemable: '1090' });
    expect(await wallet('bob')).toBe('13703.003001');
    const res = await post(t.app, PATHS.redeemRegular, tokens.bob as string, { orderId: orders.fixed });
    expect(res.json().data).toMatchObject({ status: 'redemption_successful' });
    expect(await wallet('bob')).toBe('14793.003001');
    const again = await post(t.app, PATHS.redeemRegular, tokens.bob as string, { orderId: orders.fixed });
    expect(again.json().code).toBe(ERRORS.REDEEM_NONE.code);
  });

  it('claims rewards into the wallet once (a20 when nothing is left)', async () => {
    const claim = await post(t.app, PATHS.receive, tokens.alice as string, {});
    expect(claim.json().code).toBe(0);
    expect(Number(claim.json().data.claimed)).toBeGreaterThan(2622);
    const notices = (await t.app.inject({ url: PATHS.notifications, headers: bearer(tokens.alice as string) })).json().data.items;
    expect(notices[0]).toMatchObject({ kind: 'claimed', params: { amount: claim.json().data.claimed, what: 'rewards' }, read: true });
    const again = await post(t.app, PATHS.receive, tokens.alice as string, {});
    expect(again.json()).toMatchObject({ code: ERRORS.CLAIM_NONE.code, msg: 'Failed to claim, insufficient quantity available' });
  });

  it('stops reinvesting when cancelled: earnings go to rewards again', async () => {
    const off = await post(t.app, PATHS.cancelRebuy, tokens.bob as string, { orderId: orders.long });
    expect(off.json().data).toMatchObject({ reinvest: false, status: 'in_progress' });
    const before = await order('bob', orders.long as string);
    await advance(DAY_MS);
    const after = await order('bob', orders.long as string);
    expect(after.quantity).toBe(before.quantity);
    expect(after.power).toBe(before.power);
    expect(Number(after.income)).toBeGreaterThan(Number(before.income));
  });
});
