import { randomBytes } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS } from '../../contract/errors.ts';
import { PATHS } from '../../contract/paths.ts';
import { DATABASES, startTestApp, type TestApp } from '../test/harness.ts';
import { authorize, bearer, newKey, post, signIn } from '../test/signIn.ts';

type Caller = { token: string; userId: string };

/** Amounts no one else uses, so that any of them in B's answers is a leak of A's data. */
const A_IN = '4321.12345678';
const A_CURRENT = '777.77777777';
const A_FIXED = '666.66666666';
const A_360 = '555.55555555';
const A_OUT = '12.34567891';

/**
 * User B holding user A's ids and tokens: order ids (one order, redeem, the reinvest and
 * auto-renew switches),
 * transfer ids (operator review), session ids, A's session token with B's secret, A's
 * Idempotency-Key, A's used sign-in code, and A's ids as cursors and filters on every list.
 * B gets a clear refusal, the same as for an id that does not exist (so no oracle either),
 * never a 5xx; A's data does not change and never shows in B's answers.
 */
describe.each(DATABASES)('another user’s ids on %s', (kind) => {
  let t: TestApp;
  let a: Caller;
  let b: Caller;
  const aName = `owner-${randomBytes(4).toString('hex')}`;
  const aOrders: Record<'current' | 'fixed30' | 'reinvest360', string> = { current: '', fixed30: '', reinvest360: '' };
  const aTransfers: string[] = [];
  let aInviteCode = '';
  let aKey = '';

  const get = (caller: Caller, url: string, query: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url, query, headers: bearer(caller.token) });
  const data = <T>(res: LightMyRequestResponse) => (res.json() as { data: T }).data;

  /** What of A's shows in a text: name, invite code, distinctive amounts. */
  const leaks = (text: string) =>
    [aName, aInviteCode, A_IN, A_CURRENT, A_FIXED, A_360, A_OUT].filter((secret) => secret && text.includes(secret));

  /** A's rows: balances, orders, transfers, live sessions, the user row. */
  const aState = async () =>
    JSON.stringify(
      await Promise.all([
        t.ctx.db.selectFrom('accounts').selectAll().where('user_id', '=', BigInt(a.userId)).orderBy('kind').orderBy('asset').execute(),
        t.ctx.db.selectFrom('orders').selectAll().where('user_id', '=', BigInt(a.userId)).orderBy('id').execute(),
        t.ctx.db.selectFrom('transfers').selectAll().where('user_id', '=', BigInt(a.userId)).orderBy('id').execute(),
        t.ctx.db.selectFrom('sessions').select(['token_hash', 'revoked_at']).where('user_id', '=', BigInt(a.userId)).orderBy('token_hash').execute(),
        t.ctx.db.selectFrom('users').selectAll().where('id', '=', BigInt(a.userId)).execute(),
      ]),
      (_k, v) => (typeof v === 'bigint' ? v.toString() : v),
    );

  beforeAll(async () => {
    t = await startTestApp(kind, { config: { operatorUserIds: [1n] } });
    const operator = await signIn(t.app, { name: 'operator' });
    const code = data<{ inviteCode: string }>(await get(operator, PATHS.userInfo)).inviteCode;
    a = await signIn(t.app, { name: aName });
    b = await signIn(t.app, { name: 'intruder' });
    for (const user of [a, b]) expect((await post(t.app, PATHS.bindInviter, user.token, { inviteCode: code })).json().code).toBe(0);
    aInviteCode = data<{ inviteCode: string }>(await get(a, PATHS.userInfo)).inviteCode;

    aKey = newKey();
    const moved = await post(t.app, PATHS.transferIn, a.token, { asset: 'AIC', amount: A_IN }, aKey);
    aTransfers.push(data<{ id: string }>(moved).id);
    for (const [product, amount] of [['current', A_CURRENT], ['fixed30', A_FIXED], ['reinvest360', A_360]] as const) {
      aOrders[product] = data<{ id: string }>(await post(t.app, PATHS.productBuy, a.token, { product, amount })).id;
    }
    aTransfers.push(data<{ id: string }>(await post(t.app, PATHS.withdraw, a.token, { asset: 'AIC', amount: A_OUT })).id);
    // B has data of its own, so its lists are not trivially empty (and the platform's public
    // totals per product are sums, not A's amounts).
    await post(t.app, PATHS.transferIn, b.token, { asset: 'AIC', amount: '100' });
    for (const product of ['current', 'fixed30', 'reinvest360']) await post(t.app, PATHS.productBuy, b.token, { product, amount: '5' });
    await post(t.app, PATHS.withdraw, b.token, { asset: 'AIC', amount: '1' });
  });
  afterAll(async () => {
    await t.close();
  });

  it('refuses B on every call that takes one of A’s ids, and leaks nothing', async () => {
    const before = await aState();
    const answers: LightMyRequestResponse[] = [];
    const missing = '999999999';
    let checks = 0;
    /** B's answer with A's id is a refusal, and the same as with an id that does not exist. */
    const refusedLikeMissing = (mine: LightMyRequestResponse, none: LightMyRequestResponse, label: string) => {
      answers.push(mine, none);
      expect(mine.statusCode, label).toBeGreaterThanOrEqual(400);
      expect(mine.statusCode, label).toBeLessThan(500);
      expect({ status: mine.statusCode, body: mine.json() }, label).toEqual({ status: none.statusCode, body: none.json() });
      checks++;
    };

    // One order, by id.
    for (const id of Object.values(aOrders)) {
      const mine = await get(b, PATHS.product, { id });
      expect(mine.json().code).toBe(ERRORS.NOT_FOUND.code);
      refusedLikeMissing(mine, await get(b, PATHS.product, { id: missing }), `${PATHS.product} ${id}`);
    }
    // Redeem and the reinvest switch on each of A's orders.
    for (const path of [PATHS.redeemCurrent, PATHS.redeemRegular, PATHS.oneRebuy, PATHS.cancelRebuy]) {
      for (const orderId of Object.values(aOrders)) {
        refusedLikeMissing(
          await post(t.app, path, b.token, { orderId }),
          await post(t.app, path, b.token, { orderId: missing }),
          `${path} ${orderId}`,
        );
      }
    }
    // The auto-renew switch on each of A's orders.
    for (const orderId of Object.values(aOrders)) {
      refusedLikeMissing(
        await post(t.app, PATHS.autoRenew, b.token, { orderId, autoRenew: false }),
        await post(t.app, PATHS.autoRenew, b.token, { orderId: missing, autoRenew: false }),
        `${PATHS.autoRenew} ${orderId}`,
      );
    }
    // The review queue and A's pending transfer: operators only.
    const queue = await get(b, PATHS.operatorReviews);
    answers.push(queue);
    expect(queue.json().code).toBe(ERRORS.FORBIDDEN.code);
    for (const path of [PATHS.operatorApprove, PATHS.operatorReject]) {
      for (const id of aTransfers) {
        const mine = await post(t.app, path.replace(':id', id), b.token, { reason: 'mine now' });
        expect(mine.json().code).toBe(ERRORS.FORBIDDEN.code);
        refusedLikeMissing(mine, await post(t.app, path.replace(':id', missing), b.token, {}), `${path} ${id}`);
      }
    }
    // A's session id, revoked by B: not B's session, so "not found", and A's stays live.
    const aSessions = data<{ items: { id: string }[] }>(await get(a, PATHS.sessions)).items;
    expect(aSessions.length).toBeGreaterThan(0);
    for (const { id } of aSessions) {
      refusedLikeMissing(
        await post(t.app, PATHS.sessionsRevoke, b.token, { id }),
        await post(t.app, PATHS.sessionsRevoke, b.token, { id: '0123456789abcdef' }),
        `${PATHS.sessionsRevoke} ${id}`,
      );
    }
    // Tokens: A's user id with B's secret, or with a made-up one, signs nobody in.
    const bSecret = b.token.slice(b.token.indexOf('.') + 1);
    for (const token of [`${a.userId}.${bSecret}`, `${a.userId}.${randomBytes(24).toString('base64url')}`, `${a.userId}.`]) {
      const res = await t.app.inject({ url: PATHS.userInfo, headers: bearer(token) });
      answers.push(res);
      expect({ status: res.statusCode, code: res.json().code }).toEqual({ status: 401, code: ERRORS.UNAUTHORIZED.code });
      checks++;
    }
    // A's sign-in code, once used, signs nobody in again.
    const flow = await authorize(t.app, { account: 'demo-bob' });
    const first = await t.app.inject({ url: PATHS.login, query: { code: flow.code, state: flow.state } });
    expect(first.json().code).toBe(0);
    const replayed = await t.app.inject({ url: PATHS.login, query: { code: flow.code, state: flow.state } });
    answers.push(replayed);
    expect(replayed.statusCode).toBeGreaterThanOrEqual(400);
    expect(replayed.statusCode).toBeLessThan(500);
    checks++;

    // Every GET, with A's ids as cursors and filters: only B's own records come back.
    const ids = [a.userId, ...Object.values(aOrders), ...aTransfers];
    const gets = t.app.routeTable.filter((r) => r.method === 'GET' && r.url.startsWith('/api/') && !r.url.includes(':'));
    for (const route of gets) {
      for (const id of ids) {
        const big = String(BigInt(id) + 1n);
        const query = { userId: a.userId, user_id: a.userId, uid: a.userId, id, orderId: id, cursor: big };
        const res = await get(b, route.url, query);
        answers.push(res);
        expect(res.statusCode, route.url).toBeLessThan(500);
        checks++;
      }
    }
    // B's lists hold only B's records.
    const bOrders = data<{ items: { id: string }[] }>(await get(b, PATHS.myProductList)).items.map((o) => o.id);
    const bTransfers = data<{ items: { id: string }[] }>(await get(b, PATHS.transferRecords)).items.map((r) => r.id);
    for (const id of Object.values(aOrders)) expect(bOrders).not.toContain(id);
    for (const id of aTransfers) expect(bTransfers).not.toContain(id);

    for (const res of answers) expect(leaks(res.body), res.body.slice(0, 300)).toEqual([]);
    // Last (B's answer then holds A's amount as its own): A's Idempotency-Key, same call and
    // body, gives B an effect of its own, not A's stored answer.
    const reused = await post(t.app, PATHS.transferIn, b.token, { asset: 'AIC', amount: A_IN }, aKey);
    expect(reused.json().code).toBe(0);
    expect(data<{ id: string }>(reused).id).not.toBe(aTransfers[0]);
    checks++;
    expect(await aState()).toBe(before);
    // A's own calls still work: A's session was not revoked, A's orders are A's.
    expect(data<{ id: string }>(await get(a, PATHS.product, { id: aOrders.current })).id).toBe(aOrders.current);
    console.log(`ownership on ${kind}: ${checks} calls with another user’s ids, all refused or own-data only; nothing leaked or changed`);
  });
});
