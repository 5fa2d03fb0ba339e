import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS } from '../../contract/errors.ts';
import { UNIT } from '../../contract/money.ts';
import { PATHS } from '../../contract/paths.ts';
import { checkExchangeBooks } from '../exchange/books.ts';
import { balanceOf, checkLedger, SYSTEM } from '../ledger/ledger.ts';
import { utcDay } from '../platform/clock.ts';
import { DATABASES, startTestApp, type TestApp } from '../test/harness.ts';
import { bearer, post, signIn } from '../test/signIn.ts';
import { compareDay } from './reconcile.ts';

/**
 * Funding the pools needs two operators and a source: one asks, another approves, and the money
 * comes from the platform's own account at the exchange, moved there into its omnibus account.
 */
describe.each(DATABASES)('funding the treasury and the pool on %s', (kind) => {
  let t: TestApp;
  let olga: string;
  let omar: string;
  let holder: string;
  const pool = () => balanceOf(t.ctx.db, { userId: SYSTEM, asset: 'AIC', kind: 'supercomputing_pool' });
  const platformAtExchange = async () => {
    const row = await t.ctx.db.selectFrom('xc_accounts').select('balance').where('subject', '=', '@platform:aic-earn').where('asset', '=', 'AIC').executeTakeFirst();
    return row?.balance;
  };

  beforeAll(async () => {
    t = await startTestApp(kind, { config: { fundingDailyLimit: { AIC: '2000000', USDT: '2000000' } } });
    const first = await signIn(t.app, { name: 'Olga' });
    const second = await signIn(t.app, { name: 'Omar' });
    holder = (await signIn(t.app, { name: 'Hana' })).token;
    [olga, omar] = [first.token, second.token];
    t.ctx.config.operatorUserIds = [BigInt(first.userId), BigInt(second.userId)];
  });
  afterAll(async () => {
    await t?.close();
  });

  it('waits for a second operator, who sees what and for which account, then moves it at the exchange', async () => {
    const before = await pool();
    const asked = (await post(t.app, PATHS.operatorFund, olga, { account: 'supercomputing_pool', asset: 'AIC', amount: '1000000' })).json();
    expect(asked).toMatchObject({ code: 0, data: { status: 'under_review', account: 'supercomputing_pool', amount: '1000000' } });
    expect(await pool()).toBe(before);

    const list = (await t.app.inject({ url: PATHS.operatorFundings, headers: bearer(omar) })).json().data.items;
    expect(list[0]).toMatchObject({ id: asked.data.id, account: 'supercomputing_pool', asset: 'AIC', amount: '1000000', status: 'under_review' });
    const own = await post(t.app, PATHS.operatorFundingApprove.replace(':id', asked.data.id), olga);
    expect(own.json().code).toBe(ERRORS.OWN_REQUEST.code);
    expect((await post(t.app, PATHS.operatorFundingApprove.replace(':id', asked.data.id), holder)).json().code).toBe(ERRORS.FORBIDDEN.code);
    // Not through the withdrawals' review either.
    expect((await post(t.app, PATHS.operatorApprove.replace(':id', asked.data.id), omar)).json().code).toBe(ERRORS.NOT_FOUND.code);

    const ownFunds = await platformAtExchange();
    const approved = (await post(t.app, PATHS.operatorFundingApprove.replace(':id', asked.data.id), omar)).json();
    expect(approved).toMatchObject({ code: 0, data: { status: 'success' } });
    expect(await pool()).toBe(before + 1_000_000n * UNIT);
    expect(await platformAtExchange()).toBe((ownFunds ?? 10_000_000n * UNIT) - 1_000_000n * UNIT);
    const again = await post(t.app, PATHS.operatorFundingApprove.replace(':id', asked.data.id), omar);
    expect(again.json().code).toBe(ERRORS.ALREADY_REVIEWED.code);

    const audit = await t.ctx.db.selectFrom('operator_audit').select(['action', 'target']).where('target', '=', `funding:${asked.data.id}`).orderBy('id').execute();
    expect(audit.map((a) => a.action)).toEqual(['fund_request', 'fund']);
    expect((await checkLedger(t.ctx.db)).ok).toBe(true);
    expect((await checkExchangeBooks(t.ctx.db)).ok).toBe(true);
    expect(await compareDay(t.ctx.db, t.app.exchange.client, utcDay(t.ctx.clock.now()))).toEqual([]);
  });

  it('holds each operator to the daily limit, and a rejected funding moves nothing', async () => {
    const over = await post(t.app, PATHS.operatorFund, olga, { account: 'treasury', asset: 'AIC', amount: '1000000.00000001' });
    expect(over.json().code).toBe(ERRORS.FUNDING_LIMIT.code);
    const fits = (await post(t.app, PATHS.operatorFund, olga, { account: 'treasury', asset: 'AIC', amount: '1000000' })).json();
    expect(fits.code).toBe(0);
    const treasury = await balanceOf(t.ctx.db, { userId: SYSTEM, asset: 'AIC', kind: 'treasury' });
    const rejected = (await post(t.app, PATHS.operatorFundingReject.replace(':id', fits.data.id), omar, { reason: 'not agreed' })).json();
    expect(rejected).toMatchObject({ code: 0, data: { status: 'failure', reason: 'not agreed' } });
    expect(await balanceOf(t.ctx.db, { userId: SYSTEM, asset: 'AIC', kind: 'treasury' })).toBe(treasury);
    // Rejected asks do not count: the rest of the day's limit is there again.
    expect((await post(t.app, PATHS.operatorFund, olga, { account: 'treasury', asset: 'AIC', amount: '1' })).json().code).toBe(0);
  });

  it('fails a funding the platform’s account at the exchange cannot cover, and books nothing', async () => {
    // The platform's account at the embedded exchange opens with 1,000,000 USDT.
    const asked = (await post(t.app, PATHS.operatorFund, omar, { account: 'treasury', asset: 'USDT', amount: '1500000' })).json();
    const treasury = await balanceOf(t.ctx.db, { userId: SYSTEM, asset: 'USDT', kind: 'treasury' });
    const approved = (await post(t.app, PATHS.operatorFundingApprove.replace(':id', asked.data.id), olga)).json();
    expect(approved).toMatchObject({ code: 0, data: { status: 'failure', reason: 'exchange.insufficient_balance' } });
    expect(await balanceOf(t.ctx.db, { userId: SYSTEM, asset: 'USDT', kind: 'treasury' })).toBe(treasury);
    expect((await checkLedger(t.ctx.db)).ok).toBe(true);
  });
});
