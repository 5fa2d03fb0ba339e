import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS } from '../../contract/errors.ts';
import { PATHS } from '../../contract/paths.ts';
import { createSession } from '../auth/sessions.ts';
import { listenMetrics } from '../operator/observability.ts';
import { ledgerSnapshot } from '../reliability/snapshot.ts';
import { DATABASES, startTestApp, type TestApp } from '../test/harness.ts';
import { authorPageVia, bearer, newKey, post, signIn } from '../test/signIn.ts';

/** What a probe found, each answered: limits by session whatever the header spelling, GET and heavy-read limits, strict bodies, 413, closed /metrics. */

const RATE_LIMITED_EN = 'Too many requests, please slow down';
const RATE_LIMITED_ZH = '请求过于频繁，请稍后再试';

/** Spellings of `Authorization` that name no session (the exact one is `Bearer <token>`). */
const misspelled = (token: string) => [
  `Bearer  ${token}`,
  `Bearer   ${token}`,
  `Bearer    ${token}`,
  `Bearer \t${token}`,
  `bearer ${token}`,
  `BEARER ${token}`,
  `Bearer ${token} x`,
  `Bearer ${token}.`,
  `Token ${token}`,
  token,
];

describe.each(DATABASES)('rate limits by session on %s', (kind) => {
  const LIMITS = { rateLimitPostsPerMinute: 5, rateLimitGetsPerMinute: 8, rateLimitHeavyReadsPerMinute: 3 };
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind, { config: LIMITS });
  });
  afterAll(async () => {
    await t?.close();
  });

  const moveIn = (authorization: string, amount = '1') =>
    t.app.inject({
      method: 'POST',
      url: PATHS.transferIn,
      headers: { authorization, 'idempotency-key': newKey(), 'content-type': 'application/json' },
      payload: JSON.stringify({ asset: 'AIC', amount }),
    });
  const get = (url: string, authorization: string, lang = 'en') =>
    t.app.inject({ method: 'GET', url, headers: { authorization, 'x-lang': lang } });

  it('answers 401 to a padded or otherwise misspelled Authorization, on GETs and POSTs', async () => {
    const { token } = await signIn(t.app, { name: 'Padded Pat' });
    expect((await get(PATHS.getAsset, `Bearer ${token}`)).statusCode).toBe(200);
    for (const authorization of misspelled(token)) {
      for (const res of [await get(PATHS.getAsset, authorization), await moveIn(authorization)]) {
        expect({ authorization, status: res.statusCode, body: res.json() }).toEqual({
          authorization,
          status: 401,
          body: { code: ERRORS.UNAUTHORIZED.code, msg: 'Unauthorized, please log in', data: null },
        });
      }
    }
  });

  it('keeps a spent POST bucket spent whatever the header spelling, across the holder’s sessions', async () => {
    const { token, userId } = await signIn(t.app, { name: 'Bucket Bea' });
    const codes: number[] = [];
    for (let i = 0; i < LIMITS.rateLimitPostsPerMinute + 1; i++) codes.push((await moveIn(`Bearer ${token}`)).json().code);
    expect(codes).toEqual([0, 0, 0, 0, 0, ERRORS.RATE_LIMITED.code]);
    const before = await ledgerSnapshot(t.ctx.db);
    const through: string[] = [];
    for (const authorization of [...misspelled(token), `Bearer ${token}`]) {
      const res = await moveIn(authorization);
      if (res.json().code === 0) through.push(authorization);
      expect([ERRORS.UNAUTHORIZED.code, ERRORS.RATE_LIMITED.code]).toContain(res.json().code);
    }
    expect(through).toEqual([]);
    expect(await ledgerSnapshot(t.ctx.db)).toBe(before);
    const refused = await moveIn(`Bearer ${token}`);
    expect({ status: refused.statusCode, code: refused.json().code }).toEqual({ status: 429, code: ERRORS.RATE_LIMITED.code });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);

    // Per holder: the same holder's other session shares the spent budget; another holder goes on.
    const other = await createSession(t.ctx.db, BigInt(userId), 1, 'second device');
    expect((await moveIn(`Bearer ${other}`)).json().code).toBe(ERRORS.RATE_LIMITED.code);
    const someoneElse = await signIn(t.app, { name: 'Bystander Ben' });
    expect((await moveIn(`Bearer ${someoneElse.token}`)).json().code).toBe(0);
  });

  it('limits GETs per session with a translated 429; another session is not affected', async () => {
    const { token, userId } = await signIn(t.app, { name: 'Reader Rae' });
    for (let i = 0; i < LIMITS.rateLimitGetsPerMinute; i++) {
      expect((await get(i % 2 ? PATHS.getAsset : PATHS.userInfo, `Bearer ${token}`)).statusCode).toBe(200);
    }
    const en = await get(PATHS.getAsset, `Bearer ${token}`);
    expect({ status: en.statusCode, body: en.json() }).toEqual({
      status: 429,
      body: { code: ERRORS.RATE_LIMITED.code, msg: RATE_LIMITED_EN, data: null },
    });
    const zh = await get(PATHS.userInfo, `Bearer ${token}`, 'zh-cn');
    expect({ status: zh.statusCode, body: zh.json() }).toEqual({
      status: 429,
      body: { code: ERRORS.RATE_LIMITED.code, msg: RATE_LIMITED_ZH, data: null },
    });
    // No spelling of the header reaches the data again.
    for (const authorization of misspelled(token)) expect((await get(PATHS.getAsset, authorization)).statusCode).toBe(401);
    const other = await createSession(t.ctx.db, BigInt(userId), 1, 'second device');
    expect((await get(PATHS.getAsset, `Bearer ${other}`)).statusCode).toBe(200);
    const someoneElse = await signIn(t.app, { name: 'Reader Ray' });
    expect((await get(PATHS.getAsset, `Bearer ${someoneElse.token}`)).statusCode).toBe(200);
  });

  it('limits heavy reads (CSV export, monthly statement) lower, in the caller’s language', async () => {
    const { token } = await signIn(t.app, { name: 'Exporter Eve' });
    const statuses: number[] = [];
    for (const url of [PATHS.statementCsv, PATHS.statementMonthly, PATHS.statementCsv]) statuses.push((await get(url, `Bearer ${token}`)).statusCode);
    expect(statuses).toEqual([200, 200, 200]);
    const csv = await get(PATHS.statementCsv, `Bearer ${token}`, 'Japan');
    expect({ status: csv.statusCode, type: csv.headers['content-type'], body: csv.json() }).toEqual({
      status: 429,
      type: 'application/json; charset=utf-8',
      body: { code: ERRORS.RATE_LIMITED.code, msg: 'リクエストが多すぎます。しばらくしてからお試しください', data: null },
    });
    const monthly = await get(`${PATHS.statementMonthly}?month=2026-11`, `Bearer ${token}`);
    expect({ status: monthly.statusCode, body: monthly.json() }).toEqual({
      status: 429,
      body: { code: ERRORS.RATE_LIMITED.code, msg: RATE_LIMITED_EN, data: null },
    });
    // The lighter reads of the same session still answer (the GET limit is higher).
    expect((await get(PATHS.getAsset, `Bearer ${token}`)).statusCode).toBe(200);
    const someoneElse = await signIn(t.app, { name: 'Exporter Eli' });
    expect((await get(PATHS.statementCsv, `Bearer ${someoneElse.token}`)).statusCode).toBe(200);
  });

  it('leaves public reads open (the dashboard is not counted)', async () => {
    for (let i = 0; i < LIMITS.rateLimitGetsPerMinute + 2; i++) expect((await t.app.inject({ url: PATHS.home })).statusCode).toBe(200);
  });
});

describe.each(DATABASES)('strict bodies and body size on %s', (kind) => {
  let t: TestApp;
  let holder = '';
  let operator = '';
  beforeAll(async () => {
    t = await startTestApp(kind, { config: { operatorUserIds: [1n] } });
    operator = (await signIn(t.app, { name: 'Strict Olga' })).token;
    holder = (await signIn(t.app, { name: 'Strict Hana' })).token;
    const { inviteCode } = (await t.app.inject({ url: PATHS.userInfo, headers: bearer(operator) })).json().data;
    expect((await post(t.app, PATHS.bindInviter, holder, { inviteCode })).json().code).toBe(0);
    expect((await post(t.app, PATHS.transferIn, holder, { asset: 'AIC', amount: '100' })).json().code).toBe(0);
  });
  afterAll(async () => {
    await t?.close();
  });

  const NOT_STRINGS: [string, unknown][] = [
    ['a number', 5],
    ['a fraction', 5.5],
    ['an array', ['5']],
    ['an array of a number', [5]],
    ['an object', { value: '5' }],
    ['a boolean', true],
    ['null', null],
  ];
  const calls = (amount: unknown): [string, string, object][] => [
    ['transfer in', PATHS.transferIn, { asset: 'AIC', amount }],
    ['transfer out', PATHS.transferOut, { asset: 'AIC', amount }],
    ['recharge', PATHS.recharge, { asset: 'AIC', amount }],
    ['withdraw', PATHS.withdraw, { asset: 'AIC', amount }],
    ['buy', PATHS.productBuy, { product: 'current', amount }],
  ];

  it.each(NOT_STRINGS)('refuses an amount sent as %s on every call that moves money, changing nothing', async (_label, amount) => {
    const before = await ledgerSnapshot(t.ctx.db);
    // The platform's figures: the exchange's come from a copy that fills in apart (wallet/exchangeBalances.ts).
    const platformFigures = async () => {
      const { exchangeFresh: _fresh, balances, ...asset } = (await t.app.inject({ url: PATHS.getAsset, headers: bearer(holder) })).json().data;
      return { ...asset, balances: balances.map(({ exchange: _exchange, ...platform }: Record<string, string>) => platform) };
    };
    const balances = await platformFigures();
    for (const [name, url, body] of calls(amount)) {
      const res = await post(t.app, url, holder, body);
      expect({ name, status: res.statusCode, code: res.json().code }).toEqual({ name, status: 400, code: ERRORS.PARAM.code });
    }
    const fund = await post(t.app, PATHS.operatorFund, operator, { account: 'treasury', asset: 'AIC', amount });
    expect({ status: fund.statusCode, code: fund.json().code }).toEqual({ status: 400, code: ERRORS.PARAM.code });
    expect(await ledgerSnapshot(t.ctx.db)).toBe(before);
    expect(await platformFigures()).toEqual(balances);
  });

  it('still takes a decimal string, and still reads numbers from query strings', async () => {
    expect((await post(t.app, PATHS.transferIn, holder, { asset: 'AIC', amount: '5' })).json().code).toBe(0);
    const page = await t.app.inject({ url: `${PATHS.transferRecords}?limit=1`, headers: bearer(holder) });
    expect(page.json()).toMatchObject({ code: 0 });
    expect(page.json().data.items).toHaveLength(1);
  });

  it('answers a body over 64 KB with 413 in the envelope, translated', async () => {
    const before = await ledgerSnapshot(t.ctx.db);
    const payload = JSON.stringify({ asset: 'AIC', amount: '1', pad: 'x'.repeat(64 * 1024) });
    for (const [lang, msg] of [['en', 'The request is too large'], ['zh-cn', '请求内容过大']]) {
      const res = await t.app.inject({
        method: 'POST',
        url: PATHS.transferIn,
        headers: { ...bearer(holder), 'idempotency-key': newKey(), 'content-type': 'application/json', 'x-lang': lang as string },
        payload,
      });
      expect({ status: res.statusCode, body: res.json() }).toEqual({
        status: 413,
        body: { code: ERRORS.PAYLOAD_TOO_LARGE.code, msg, data: null },
      });
    }
    expect(ERRORS.PAYLOAD_TOO_LARGE.code).toBe(413);
    expect(await ledgerSnapshot(t.ctx.db)).toBe(before);
  });

  it('answers a 10 MB body over a real socket with the 413 envelope, not a reset', async () => {
    const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const body = Buffer.alloc(10 * 1024 * 1024, 'x');
    const send = (chunked: boolean) =>
      new Promise<{ status: number | undefined; text: string }>((resolve, reject) => {
        const req = httpRequest(new URL(PATHS.transferIn, base), {
          method: 'POST',
          headers: {
            ...bearer(holder),
            'idempotency-key': newKey(),
            'content-type': 'application/json',
            ...(chunked ? {} : { 'content-length': String(body.length) }),
          },
        });
        req.on('response', (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => {
            text += chunk;
          });
          res.on('end', () => resolve({ status: res.statusCode, text }));
        });
        req.on('error', reject);
        req.end(body);
      });
    for (const chunked of [false, true, false, true]) {
      const { status, text } = await send(chunked);
      expect({ chunked, status, body: JSON.parse(text) }).toEqual({
        chunked,
        status: 413,
        body: { code: 413, msg: 'The request is too large', data: null },
      });
    }
  });
});

describe('/metrics', () => {
  const TOKEN = 'metrics-test-token-5b1c';
  let closed: TestApp;
  let guarded: TestApp;
  let portOnly: TestApp;
  beforeAll(async () => {
    closed = await startTestApp('pglite');
    guarded = await startTestApp('pglite', { config: { metricsToken: TOKEN } });
    portOnly = await startTestApp('pglite', { config: { metricsToken: TOKEN, metricsPort: 0 } });
  });
  afterAll(async () => {
    await Promise.all([closed?.close(), guarded?.close(), portOnly?.close()]);
  });

  it('is closed by default: 404 on the main port without METRICS_TOKEN or METRICS_PORT', async () => {
    for (const headers of [{}, { authorization: `Bearer ${TOKEN}` }]) {
      const res = await closed.app.inject({ url: '/metrics', headers });
      expect({ status: res.statusCode, code: res.json().code }).toEqual({ status: 404, code: ERRORS.NOT_FOUND.code });
    }
  });

  it('with METRICS_TOKEN answers only its bearer, with Prometheus text', async () => {
    for (const authorization of [undefined, 'Bearer wrong', `Bearer  ${TOKEN}`, `Bearer ${TOKEN}x`, TOKEN, `Basic ${TOKEN}`]) {
      const res = await guarded.app.inject({ url: '/metrics', headers: authorization ? { authorization } : {} });
      expect({ authorization, status: res.statusCode, code: res.json().code }).toEqual({ authorization, status: 401, code: ERRORS.UNAUTHORIZED.code });
    }
    await guarded.app.inject({ url: PATHS.home });
    const res = await guarded.app.inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/plain');
    expect(res.body).toMatch(/aic_http_requests_total\{route="\/api\/home",method="GET",status="200"\} \d+/);
  });

  it('with METRICS_PORT is served only there, on 127.0.0.1, and not on the main port', async () => {
    const main = await portOnly.app.inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(main.statusCode).toBe(404);
    const listener = await listenMetrics(portOnly.app.metrics, { port: 0, token: TOKEN });
    try {
      const base = `http://127.0.0.1:${listener.port}`;
      expect(listener.host).toBe('127.0.0.1');
      const ok = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
      expect(ok.status).toBe(200);
      expect(await ok.text()).toContain('aic_ledger_check_ok');
      expect((await fetch(`${base}/metrics`)).status).toBe(401);
      expect((await fetch(`${base}/api/home`, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(404);
    } finally {
      await listener.close();
    }
    const open = await listenMetrics(portOnly.app.metrics, { port: 0, token: undefined });
    try {
      expect((await fetch(`http://127.0.0.1:${open.port}/metrics`)).status).toBe(200);
    } finally {
      await open.close();
    }
  });
});

describe('the client address behind a proxy (TRUST_PROXY)', () => {
  const apps: TestApp[] = [];
  afterAll(async () => {
    await Promise.all(apps.map((app) => app.close()));
  });

  /** Three sign-in calls from three forwarded addresses, each through the same proxy at 127.0.0.1. */
  async function signInStatuses(trustProxy: false | string[]): Promise<number[]> {
    const t = await startTestApp('pglite', { config: { trustProxy, rateLimitSignInPerMinute: 2 } });
    apps.push(t);
    const statuses: number[] = [];
    for (const client of ['203.0.113.1', '203.0.113.2', '203.0.113.3']) statuses.push(await authorPageVia(t.app, client));
    return statuses;
  }

  it('unset, ignores X-Forwarded-For: every client behind the proxy shares its limit', async () => {
    expect(await signInStatuses(false)).toEqual([200, 200, 429]);
  });

  it('names the proxy: each client has a limit of its own', async () => {
    expect(await signInStatuses(['127.0.0.1'])).toEqual([200, 200, 200]);
  });

  it('ignores the header from anyone not named, so a client cannot forge its way past the limit', async () => {
    expect(await signInStatuses(['10.0.0.1'])).toEqual([200, 200, 429]);
  });
});
