import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PATHS } from '../../contract/paths.ts';
import { DAY_MS } from '../platform/clock.ts';
import { settleDue } from '../settlement/settle.ts';
import { DATABASES, startTestApp, type TestApp } from '../test/harness.ts';
import { bearer, newKey, post, signIn } from '../test/signIn.ts';

/**
 * Spec section 7, call by call: every GET the spec names answers the envelope with code 0 for a
 * signed-in holder (the answer schemas are enforced by the route declarations), and the POSTs
 * take a JSON body or the form-urlencoded default. The flows behind each call have their own
 * tests (see docs/spec-coverage.md); this pins that each is there and answers.
 */
describe.each(DATABASES)('spec section 7 calls on %s', (kind) => {
  let t: TestApp;
  let holder = '';
  let orderId = '';

  const get = (url: string, query: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url, query, headers: bearer(holder) }).then((r) => ({ status: r.statusCode, body: r.json() }));

  beforeAll(async () => {
    t = await startTestApp(kind, { config: { sessionTtlDays: 1000 } });
    const root = (await signIn(t.app, { name: 'root of the calls' })).token;
    holder = (await signIn(t.app, { name: 'holder of the calls' })).token;
    const { inviteCode } = (await t.app.inject({ url: PATHS.userInfo, headers: bearer(root) })).json().data;
    expect((await post(t.app, PATHS.bindInviter, holder, { inviteCode })).json().code).toBe(0);
    expect((await post(t.app, PATHS.transferIn, holder, { asset: 'AIC', amount: '100' })).json().code).toBe(0);
    const order = (await post(t.app, PATHS.productBuy, holder, { product: 'fixed30', amount: '40' })).json();
    expect(order.code).toBe(0);
    orderId = order.data.id;
  });
  afterAll(async () => {
    await t?.close();
  });

  it.each([
    [PATHS.home, ['totalAmount', 'price', 'priceRate', 'pool1', 'pool2', 'pool']],
    [PATHS.productInfo, ['products', 'quotaLeft', 'minimum', 'coefficient']],
    [PATHS.userInfo, ['userId', 'inviteCode', 'inviterCode', 'level', 'earnings']],
    [PATHS.inviteRecords, ['items', 'nextCursor']],
    [PATHS.productList, ['items', 'nextCursor']],
    [PATHS.myProductList, ['items', 'nextCursor']],
    [PATHS.rewardLog, ['items', 'nextCursor']],
    [PATHS.userLog, ['items', 'nextCursor']],
    [PATHS.zeroProfit, ['claimable', 'locked']],
    [PATHS.zeroLog, ['items']],
    [PATHS.getAsset, ['balances']],
    [PATHS.transferPage, ['assets', 'types']],
    [PATHS.transferRecords, ['items', 'nextCursor']],
  ])('GET %s answers code 0 with its fields', async (path, fields) => {
    const { status, body } = await get(path);
    expect({ status, code: body.code, msg: body.msg }).toEqual({ status: 200, code: 0, msg: 'success' });
    for (const field of fields) expect(body.data, `${path} ${field}`).toHaveProperty(field);
  });

  it('GET /api/user/product answers one order of the caller', async () => {
    const { body } = await get(PATHS.product, { id: orderId });
    expect(body.data).toMatchObject({ id: orderId, product: 'fixed30', quantity: '40', status: 'confirming' });
  });

  it('GET /api/user/user-log lists every movement of the holder’s accounts, newest first', async () => {
    const { body } = await get(PATHS.userLog);
    const moves = body.data.items.map((i: { account: string; amount: string }) => `${i.account} ${i.amount}`);
    // The subscription (wallet to earning), then the transfer in (exchange wallet to wallet).
    expect(moves.slice(0, 2).sort()).toEqual(['earning 40', 'wallet -40']);
    expect(moves).toContain('wallet 100');
  });

  it('takes a POST in the form-urlencoded default as well as JSON', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: PATHS.transferIn,
      headers: { ...bearer(holder), 'idempotency-key': newKey(), 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'asset=AIC&amount=1.5',
    });
    expect(res.json()).toMatchObject({ code: 0 });
    const { body } = await get(PATHS.getAsset);
    expect(body.data.balances.find((b: { asset: string }) => b.asset === 'AIC').available).toBe('61.5');
  });

  it('GET /api/user/info counts today’s, yesterday’s and cumulative income, and the claimable fixed term', async () => {
    // The 40 AIC 30-day order earns 0.3% a day from 2026-11-02: 0.12 AIC a day.
    t.ctx.clock.advance(3 * DAY_MS); // 2026-11-04 08:00: 11-02 and 11-03 settle
    await settleDue(t.ctx);
    expect((await get(PATHS.userInfo)).body.data.earnings).toEqual({
      today: '0', yesterday: '0.12', cumulative: '0.24', static: '0', dynamic: '0',
      claimableReward: '0', claimableNetwork: '0', claimableFixed: '0',
    });
    t.ctx.clock.advance(29 * DAY_MS); // 2026-12-03: the term of 30 days is over
    await settleDue(t.ctx);
    const { earnings } = (await get(PATHS.userInfo)).body.data;
    expect({ cumulative: earnings.cumulative, claimableFixed: earnings.claimableFixed }).toEqual({ cumulative: '3.6', claimableFixed: '43.6' });
  });
});
