import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS } from '../../contract/errors.ts';
import { PATHS } from '../../contract/paths.ts';
import type { PushPayload } from '../../contract/push.ts';
import { DAY_MS } from '../platform/clock.ts';
import { settleDay } from '../settlement/settle.ts';
import { DATABASES, type TestApp } from '../test/harness.ts';
import { type PushBrowser, type PushReceiver, startPushReceiver, vapidClaims } from '../test/pushReceiver.ts';
import { bearer, post, type SignedIn, startWithPeople } from '../test/signIn.ts';
import { advancePushCursors, dispatchPush } from './push.ts';

/** A text of the app's own locale files, filled as the app fills it. */
function localeText(file: string, key: string, values: Record<string, string> = {}): string {
  const tree = JSON.parse(readFileSync(new URL(`../../web/src/i18n/locales/${file}.json`, import.meta.url), 'utf8'));
  const text = key.split('.').reduce((node, part) => node[part], tree) as unknown as string;
  return text.replace(/\{\{(\w+)\}\}/g, (_m, name: string) => values[name] ?? '');
}

/**
 * Web Push with a push service of our own on 127.0.0.1 that decrypts what it gets as a browser
 * would. Scenario: the clock frozen at 2026-11-01 08:00 UTC; Olga (the operator), Hana and Ivo.
 */
describe.each(DATABASES)('Web Push on %s', (kind) => {
  let t: TestApp;
  let push: PushReceiver;
  let olga: SignedIn;
  let hana: SignedIn;
  let ivo: SignedIn;
  beforeAll(async () => {
    let people: SignedIn[];
    ({ t, people } = await startWithPeople(kind, '2026-11-01T08:00:00Z', ['Olga', 'Hana', 'Ivo']));
    [olga, hana, ivo] = people as [SignedIn, SignedIn, SignedIn];
    push = await startPushReceiver();
  });
  afterAll(async () => {
    await push?.close();
    await t?.close();
  });

  const subscribe = (user: SignedIn, browser: PushBrowser | object, language = 'en') =>
    post(t.app, PATHS.pushSubscribe, user.token, 'subscription' in browser ? { ...browser.subscription, language } : browser);
  const unsubscribe = (user: SignedIn, endpoint: string) => post(t.app, PATHS.pushUnsubscribe, user.token, { endpoint });
  const subscriptions = async (user: SignedIn) =>
    (await t.ctx.db.selectFrom('push_subscriptions').select('endpoint').where('user_id', '=', BigInt(user.userId)).execute()).map((r) => r.endpoint);
  const payloadOf = (browser: PushBrowser, index: number): PushPayload => {
    const request = browser.received()[index];
    if (!request) throw new Error(`no request ${index}`);
    return JSON.parse(browser.decrypt(request.body));
  };

  it('gives every holder the same VAPID public key, made once and kept in the database', async () => {
    const keys = await Promise.all(
      [hana, ivo].map(async (user) => (await t.app.inject({ url: PATHS.pushKey, headers: bearer(user.token) })).json().data.publicKey as string),
    );
    expect(keys[0]).toBe(keys[1]);
    expect(Buffer.from(keys[0] as string, 'base64url')).toHaveLength(65);
    const rows = await t.ctx.db.selectFrom('push_keys').select('public_key').execute();
    expect(rows).toEqual([{ public_key: keys[0] }]);
    expect((await t.app.inject({ url: PATHS.pushKey })).json().code).toBe(ERRORS.UNAUTHORIZED.code);
  });

  it('refuses a subscription it cannot use with code 100 and keeps nothing', async () => {
    const good = push.browser('/good').subscription;
    const offCurve = Buffer.alloc(65, 7);
    offCurve[0] = 4;
    const bad: object[] = [
      {},
      { endpoint: good.endpoint, language: 'en' },
      { ...good, language: 'xx' },
      { ...good },
      { ...good, language: 'en', extra: 1 },
      { ...good, endpoint: 'ftp://127.0.0.1/push', language: 'en' },
      { ...good, endpoint: 'https://', language: 'en' },
      { ...good, endpoint: 'https://user:secret@push.example.com/x', language: 'en' },
      { ...good, keys: { ...good.keys, p256dh: offCurve.toString('base64url') }, language: 'en' },
      { ...good, keys: { ...good.keys, auth: Buffer.alloc(15).toString('base64url') }, language: 'en' },
      { ...good, keys: { ...good.keys, extra: 'x' }, language: 'en' },
      { ...good, keys: { p256dh: good.keys.p256dh }, language: 'en' },
    ];
    for (const body of bad) {
      const res = await subscribe(hana, body);
      expect({ status: res.statusCode, code: res.json().code }, JSON.stringify(body)).toEqual({ status: 400, code: ERRORS.PARAM.code });
    }
    // A server on a public address sends only to public https addresses: this one's is refused, and
    // so is each local address of the probe that made such a server connect to itself.
    t.ctx.config.pushLocalEndpoints = false;
    try {
      const probe = ['https://[::ffff:7f00:1]:4161/b', 'https://[::ffff:127.0.0.1]:4162/c', 'https://[0:0:0:0:0:ffff:7f00:1]:4166/h',
        'https://[::ffff:a9fe:a9fe]/', 'https://localhost./', 'https://metadata.google.internal./'];
      for (const endpoint of [good.endpoint, good.endpoint.replace('http:', 'https:'), ...probe]) {
        expect((await subscribe(hana, { ...good, endpoint, language: 'en' })).json().code, endpoint).toBe(ERRORS.PARAM.code);
      }
      // With PUSH_ALLOWED_HOSTS, a host that is not a listed push service is refused too.
      t.ctx.config.pushAllowedHosts = ['fcm.googleapis.com'];
      expect((await subscribe(hana, { ...good, endpoint: 'https://evil.example/x', language: 'en' })).json().code).toBe(ERRORS.PARAM.code);
    } finally {
      t.ctx.config.pushLocalEndpoints = true;
      t.ctx.config.pushAllowedHosts = [];
    }
    expect(await t.ctx.db.selectFrom('push_subscriptions').selectAll().execute()).toEqual([]);
  });

  let hanaPhone: PushBrowser;
  let olgaOld: PushBrowser;

  it("sends a holder's notice to their browser, encrypted and signed, in their language, once; a 410 removes the subscription", async () => {
    hanaPhone = push.browser('/hana');
    olgaOld = push.browser('/olga-old');
    push.answer('/olga-old', 410);
    expect((await subscribe(hana, hanaPhone, 'zh-cn')).json()).toMatchObject({ code: 0, data: { subscribed: true } });
    expect((await subscribe(olga, olgaOld, 'en')).json().code).toBe(0);
    // Ivo never subscribes. Hana and Ivo join Olga's team (two notices to Olga) and earn a day.
    const { inviteCode } = (await t.app.inject({ url: PATHS.userInfo, headers: bearer(olga.token) })).json().data;
    for (const user of [hana, ivo]) {
      expect((await post(t.app, PATHS.bindInviter, user.token, { inviteCode })).json().code).toBe(0);
      expect((await post(t.app, PATHS.transferIn, user.token, { asset: 'AIC', amount: '2000' })).json().code).toBe(0);
      expect((await post(t.app, PATHS.productBuy, user.token, { product: 'fixed30', amount: '1000' })).json().code).toBe(0);
    }
    t.ctx.clock.advance(2 * DAY_MS);
    for (const day of ['2026-11-01', '2026-11-02']) expect((await settleDay(t.ctx, day)).status).toBe('done');

    const report = await dispatchPush(t.ctx);
    expect(report).toMatchObject({ sent: 1, removed: 1 });
    // Hana's day: 1,000 AIC at 0.3% on 11-02, in Chinese.
    expect(hanaPhone.received()).toHaveLength(1);
    expect(payloadOf(hanaPhone, 0)).toEqual({
      title: localeText('zh-cn', 'notifications.income.title'),
      body: localeText('zh-cn', 'notifications.income.text', { total: '3.00', day: '2026-11-02' }),
      url: '/#/income',
      tag: expect.stringMatching(/^notice-\d+$/),
    });
    expect(payloadOf(hanaPhone, 0).title).toMatch(/[\u4e00-\u9fff]/);
    const request = hanaPhone.received()[0];
    expect(request?.headers).toMatchObject({ 'content-encoding': 'aes128gcm', ttl: '86400' });
    const publicKey = (await t.app.inject({ url: PATHS.pushKey, headers: bearer(hana.token) })).json().data.publicKey;
    const vapid = vapidClaims(request?.headers.authorization);
    expect(vapid.key).toBe(publicKey);
    expect(vapid.claims).toMatchObject({ aud: push.url, sub: t.ctx.config.vapidSubject });
    expect(vapid.claims.exp * 1000).toBeGreaterThan(Date.now());

    // Olga's browser answered 410: her subscription is gone. Ivo, who did not opt in, got nothing.
    expect(olgaOld.received().length).toBeGreaterThanOrEqual(1);
    expect(await subscriptions(olga)).toEqual([]);
    expect(push.requests.every((r) => r.path === '/hana' || r.path === '/olga-old')).toBe(true);

    // A second run sends nothing again.
    const before = push.requests.length;
    expect(await dispatchPush(t.ctx)).toMatchObject({ claimed: 0, sent: 0 });
    expect(push.requests).toHaveLength(before);
  });

  it('sends only what comes after the subscription, and nothing twice once the cursor has moved', async () => {
    // Ivo has his income notice already: subscribing does not send it.
    const ivoPhone = push.browser('/ivo');
    expect((await subscribe(ivo, ivoPhone, 'en')).json().code).toBe(0);
    expect(await dispatchPush(t.ctx)).toMatchObject({ claimed: 0 });
    expect(ivoPhone.received()).toEqual([]);

    // A withdrawal approved afterwards is sent, in English.
    const withdrawal = (await post(t.app, PATHS.withdraw, ivo.token, { asset: 'AIC', amount: '10' })).json().data;
    expect((await post(t.app, PATHS.operatorApprove.replace(':id', withdrawal.id), olga.token, {})).json().code).toBe(0);
    // Two dispatchers at once (two processes): one claims it, the other finds it claimed.
    const runs = await Promise.all([dispatchPush(t.ctx), dispatchPush(t.ctx)]);
    expect(runs.map((r) => r.sent).sort()).toEqual([0, 1]);
    expect(ivoPhone.received()).toHaveLength(1);
    const type = localeText('en', 'wallet.type.withdraw');
    expect(payloadOf(ivoPhone, 0)).toMatchObject({
      title: localeText('en', 'notifications.transfer_approved.title'),
      body: localeText('en', 'notifications.transfer_approved.text', { type, amount: '10.00', asset: 'AIC' }),
      url: '/#/wallet',
    });

    // The cursors move past what was claimed (no grace here) and the claims go: still nothing twice.
    expect(await advancePushCursors(t.ctx.db, '0 seconds')).toBe(2);
    expect(await t.ctx.db.selectFrom('push_deliveries').selectAll().execute()).toEqual([]);
    expect(await dispatchPush(t.ctx)).toMatchObject({ claimed: 0 });
    expect(ivoPhone.received()).toHaveLength(1);
    expect(hanaPhone.received()).toHaveLength(1);
  });

  it("lets a holder remove only their own subscription; an address subscribed again moves to its new holder", async () => {
    const endpoint = hanaPhone.subscription.endpoint;
    const refused = await unsubscribe(ivo, endpoint);
    expect({ status: refused.statusCode, code: refused.json().code }).toEqual({ status: 404, code: ERRORS.NOT_FOUND.code });
    expect(await subscriptions(hana)).toEqual([endpoint]);
    for (const body of [{}, { endpoint: 'not an address' }, { endpoint, extra: true }]) {
      const res = await post(t.app, PATHS.pushUnsubscribe, ivo.token, body);
      expect({ status: res.statusCode, code: res.json().code }).toEqual({ status: 400, code: ERRORS.PARAM.code });
    }
    expect(await subscriptions(hana)).toEqual([endpoint]);

    // A shared device: Ivo subscribes the address Hana had; her notices stop going there.
    expect((await subscribe(ivo, hanaPhone, 'en')).json().code).toBe(0);
    expect(await subscriptions(hana)).toEqual([]);
    expect((await subscriptions(ivo)).sort()).toEqual([endpoint, `${push.url}/ivo`].sort());

    expect((await unsubscribe(ivo, endpoint)).json()).toMatchObject({ code: 0, data: { subscribed: false } });
    expect(await subscriptions(ivo)).toEqual([`${push.url}/ivo`]);
    expect((await unsubscribe(ivo, endpoint)).json().code).toBe(ERRORS.NOT_FOUND.code);
  });

  /** A withdrawal of `user`'s approved by Olga: one new notice for them. */
  const approvedWithdrawal = async (user: SignedIn) => {
    const withdrawal = (await post(t.app, PATHS.withdraw, user.token, { asset: 'AIC', amount: '10' })).json().data;
    expect((await post(t.app, PATHS.operatorApprove.replace(':id', withdrawal.id), olga.token, {})).json().code).toBe(0);
  };

  it('refuses, on a public server, a name that resolves to loopback when sending: the push service on 127.0.0.1 gets nothing', async () => {
    // Subscribed while the address was public (DNS rebinding), or through a name with no private look.
    const port = new URL(push.url).port;
    const rebinding = { endpoint: `https://rebind.example.net:${port}/rebind`, keys: push.browser('/rebind').subscription.keys, language: 'en' };
    expect((await subscribe(hana, rebinding)).json().code).toBe(0);
    await approvedWithdrawal(hana);
    const before = push.requests.length;
    const asked: string[] = [];
    t.ctx.config.pushLocalEndpoints = false;
    try {
      const report = await dispatchPush(t.ctx, async (host) => {
        asked.push(host);
        return [{ address: '127.0.0.1', family: 4 }];
      });
      expect(report).toEqual({ claimed: 1, sent: 0, failed: 0, removed: 1 });
    } finally {
      t.ctx.config.pushLocalEndpoints = true;
    }
    expect(asked).toEqual(['rebind.example.net']);
    expect(push.requests).toHaveLength(before);
    expect(await subscriptions(hana)).toEqual([]);
  });

  it('does not follow a redirect: the delivery failed, with its 3xx, and the subscription stays', async () => {
    push.answer('/ivo', 307, { location: `${push.url}/followed` });
    await approvedWithdrawal(ivo);
    expect(await dispatchPush(t.ctx)).toEqual({ claimed: 1, sent: 0, failed: 1, removed: 0 });
    const statuses = await t.ctx.db.selectFrom('push_deliveries').select('status').where('user_id', '=', BigInt(ivo.userId)).execute();
    expect(statuses).toEqual([{ status: 307 }]);
    expect(push.requests.filter((r) => r.path === '/followed')).toEqual([]);
    expect(await subscriptions(ivo)).toEqual([`${push.url}/ivo`]);
  });
});
