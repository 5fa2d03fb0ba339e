import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ERRORS } from '../../contract/errors.ts';
import { PATHS } from '../../contract/paths.ts';
import { balanceOf } from '../ledger/ledger.ts';
import { DAY_MS } from '../platform/clock.ts';
import { DATABASES, startTestApp, type TestApp } from '../test/harness.ts';
import { authorize, bearer, post, REDIRECT_URI, signIn } from '../test/signIn.ts';
import { INVITE_ALPHABET } from './users.ts';

describe.each(DATABASES)('sign-in through the embedded exchange on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(async () => {
    await t.close();
  });

  const login = (query: Record<string, string>) => t.app.inject({ method: 'GET', url: '/api/login', query });

  it('serves real discovery and JWKS', async () => {
    const discovery = (await t.app.inject({ url: '/oidc/.well-known/openid-configuration' })).json();
    expect(discovery.issuer).toBe('http://localhost:3000/oidc');
    expect(discovery.code_challenge_methods_supported).toContain('S256');
    const jwks = (await t.app.inject({ url: new URL(discovery.jwks_uri).pathname })).json();
    expect(jwks.keys[0]).toMatchObject({ kty: 'RSA', use: 'sig' });
    expect(jwks.keys[0].d).toBeUndefined();
  });

  it('builds the authorisation address with state, nonce and an S256 challenge', async () => {
    const res = await t.app.inject({ url: '/api/authorPage', query: { redirectUri: REDIRECT_URI, lang: 'Japan' } });
    const url = new URL(res.json().data);
    expect(url.pathname).toBe('/oidc/auth');
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('state')).toMatch(/^[\w-]{20,}$/);
    expect(url.searchParams.get('nonce')).toMatch(/^[\w-]{20,}$/);
    expect(url.searchParams.get('redirect_uri')).toBe(REDIRECT_URI);
    expect(url.searchParams.get('ui_locales')).toBe('Japan');
  });

  it('signs a new user in, with an own invitation code and demo exchange balances', async () => {
    const { token, userId } = await signIn(t.app, { name: 'Dana' });
    expect(token).toMatch(new RegExp(`^${userId}\\.[\\w-]{32}$`));
    const info = (await t.app.inject({ url: '/api/user/info', headers: bearer(token) })).json();
    expect(info.code).toBe(0);
    expect(info.data).toMatchObject({ userId, name: 'Dana', inviterBound: false, isOperator: false });
    expect(info.data.inviteCode).toMatch(new RegExp(`^[${INVITE_ALPHABET}]{8}$`));
    // The demo balances are the embedded exchange's, read through its API; the platform's books hold nothing of them.
    const asset = (await t.app.inject({ url: PATHS.exchangeBalances, headers: bearer(token) })).json().data;
    expect(asset.balances.map((b: { asset: string; exchange: string }) => [b.asset, b.exchange])).toEqual([
      ['AIC', '20000'],
      ['USDT', '1000'],
    ]);
    expect(await balanceOf(t.ctx.db, { userId: BigInt(userId), asset: 'AIC', kind: 'wallet' })).toBe(0n);
  });

  it('signs the same exchange account in as the same user, funded once', async () => {
    const first = await signIn(t.app, { account: 'demo-bob' });
    const second = await signIn(t.app, { account: 'demo-bob' });
    expect(second.userId).toBe(first.userId);
    expect(second.token).not.toBe(first.token);
    const asset = (await t.app.inject({ url: PATHS.exchangeBalances, headers: bearer(second.token) })).json().data;
    expect(asset.balances[0]).toMatchObject({ asset: 'AIC', exchange: '20000' });
  });

  it('accepts each state once: a replay is refused', async () => {
    const { code, state } = await authorize(t.app, { account: 'demo-alice' });
    expect((await login({ code, state })).json().code).toBe(0);
    const replay = await login({ code, state });
    expect(replay.json()).toMatchObject({ code: ERRORS.LOGIN_FAILED.code, data: null });
  });

  it('refuses an unknown state and an expired one', async () => {
    expect((await login({ code: 'x', state: 'never-issued' })).json().code).toBe(ERRORS.LOGIN_FAILED.code);
    const { code, state } = await authorize(t.app, { account: 'demo-alice' });
    t.ctx.clock.advance(11 * 60_000);
    try {
      expect((await login({ code, state })).json().code).toBe(ERRORS.LOGIN_FAILED.code);
    } finally {
      t.ctx.clock.advance(-11 * 60_000);
    }
  });

  it('refuses a code exchanged with the wrong PKCE verifier', async () => {
    const { code, state } = await authorize(t.app, { account: 'demo-alice' });
    await t.ctx.db
      .updateTable('oauth_states')
      .set({ code_verifier: 'a-different-verifier-that-is-long-enough-to-be-valid-0123' })
      .where('state', '=', state)
      .execute();
    expect((await login({ code, state })).json().code).toBe(ERRORS.LOGIN_FAILED.code);
  });

  it('refuses a code that does not belong to the state', async () => {
    const first = await authorize(t.app, { account: 'demo-alice' });
    const second = await authorize(t.app, { account: 'demo-alice' });
    expect((await login({ code: first.code, state: second.state })).json().code).toBe(ERRORS.LOGIN_FAILED.code);
  });

  it('refuses a redirect URI that is not on the allow-list', async () => {
    for (const redirectUri of ['https://evil.example/', 'http://localhost:3000/evil', 'http://localhost:3000']) {
      const res = await t.app.inject({ url: '/api/authorPage', query: { redirectUri } });
      expect(res.json()).toMatchObject({ code: ERRORS.REDIRECT_NOT_ALLOWED.code, data: null });
    }
  });

  it('stores only a hash of each token', async () => {
    const { token, userId } = await signIn(t.app);
    const secret = token.split('.')[1] as string;
    const rows = await t.ctx.db.selectFrom('sessions').selectAll().where('user_id', '=', BigInt(userId)).execute();
    const dump = JSON.stringify(rows, (_k, v) => (typeof v === 'bigint' ? String(v) : v));
    expect(dump).not.toContain(secret);
    const { rows: anywhere } = await sql<{ n: bigint }>`
      select count(*) as n from sessions where token_hash like ${`%${secret}%`}`.execute(t.ctx.db);
    expect(anywhere[0]?.n).toBe(0n);
  });

  it('answers 401 for an expired token', async () => {
    const { token } = await signIn(t.app);
    const info = () => t.app.inject({ url: '/api/user/info', headers: bearer(token) });
    expect((await info()).json().code).toBe(0);
    // Sessions live on the wall clock: the demo clock's days do not end them, time does.
    t.ctx.clock.advance(30 * DAY_MS + 1000);
    expect((await info()).json().code).toBe(0);
    t.ctx.clock.advance(-(30 * DAY_MS + 1000));
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 30 * DAY_MS + 1000);
    try {
      const res = await info();
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ code: 401, data: null });
    } finally {
      vi.useRealTimers();
    }
  });

  it('revokes the token on logout', async () => {
    const { token } = await signIn(t.app);
    const out = await post(t.app, '/api/logout', token);
    expect(out.json().code).toBe(0);
    const after = await t.app.inject({ url: '/api/user/info', headers: bearer(token) });
    expect(after.json().code).toBe(401);
  });

  it('answers the 401 envelope on every protected route without a live token', async () => {
    const protectedRoutes = t.app.routeTable.filter((r) => r.url.startsWith('/api/') && !r.public && r.method !== 'HEAD');
    expect(protectedRoutes.length).toBeGreaterThan(0);
    const { token } = await signIn(t.app);
    expect((await post(t.app, '/api/logout', token)).json().code).toBe(0);
    const tampered = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
    for (const route of protectedRoutes) {
      const url = route.url.replace(/:\w+/g, '1');
      for (const headers of [{}, bearer('garbage'), bearer(token), bearer(tampered), { authorization: 'Basic x' }]) {
        const res = await t.app.inject({ method: route.method as 'GET', url, headers });
        expect(res.statusCode, `${route.method} ${url}`).toBe(401);
        expect(res.json(), `${route.method} ${url}`).toMatchObject({ code: 401, data: null });
      }
    }
  });
});
