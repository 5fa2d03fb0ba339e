import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { ERRORS } from '../../contract/errors.ts';
import { PATHS } from '../../contract/paths.ts';
import { createSession } from '../auth/sessions.ts';
import { TcpProxy } from '../reliability/proxy.ts';
import { DATABASES, type DatabaseKind, startTestApp, type TestApp } from '../test/harness.ts';
import { authorPageVia, newKey, post, REDIRECT_URI, signIn } from '../test/signIn.ts';
import { rateLimitState } from './security.ts';

const REDIS = new URL(process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379');

/** A bearer token of the session format that names no session. */
const forged = () => `${1 + Math.floor(Math.random() * 1000)}.${randomBytes(24).toString('base64url')}`;

/**
 * Limits on failure: an address sending bad tokens, one opening the exchange's pages, and a
 * holder's POSTs across sessions; and every limit still enforced while Redis is down.
 */
describe('limits on failure', () => {
  const apps: TestApp[] = [];
  const start = async (config: Parameters<typeof startTestApp>[1], kind: DatabaseKind = 'pglite') => {
    const t = await startTestApp(kind, { seed: false, ...config });
    apps.push(t);
    return t;
  };
  afterAll(async () => {
    for (const t of apps) await t.close();
  });

  it.each(DATABASES)('refuses an address after repeated 401s, then without looking the sessions up, on %s', async (kind) => {
    const t = await start({ config: { rateLimitAuthFailuresPerMinute: 10, trustProxy: ['127.0.0.1'] } }, kind);
    const from = (address: string, token: string) =>
      t.app.inject({ url: PATHS.getAsset, remoteAddress: '127.0.0.1', headers: { 'x-forwarded-for': address, authorization: `Bearer ${token}` } });
    const statuses: number[] = [];
    for (let i = 0; i < 300; i++) statuses.push((await from('198.51.100.7', forged())).statusCode);
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(statuses.slice(10)).toEqual(Array(290).fill(429));
    // Refused before the lookup: a lookup that would fail does not happen (the sessions table is gone).
    await t.ctx.db.schema.alterTable('sessions').renameTo('sessions_away').execute();
    try {
      const refused = await from('198.51.100.7', forged());
      expect({ status: refused.statusCode, code: refused.json().code }).toEqual({ status: 429, code: ERRORS.RATE_LIMITED.code });
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    } finally {
      await t.ctx.db.schema.alterTable('sessions_away').renameTo('sessions').execute();
    }
    // Another address is not held back, and a good token from it passes.
    const { token } = await signIn(t.app, { name: 'Good Gil' });
    expect((await from('198.51.100.8', forged())).statusCode).toBe(401);
    expect((await from('198.51.100.8', token)).statusCode).toBe(200);
  });

  it('limits the embedded exchange’s authorisation page per address, storing nothing past the limit', async () => {
    const t = await start({ config: { rateLimitSignInPerMinute: 10 } });
    const page = (await t.app.inject({ url: PATHS.authorPage, query: { redirectUri: REDIRECT_URI } })).json().data as string;
    const path = `${new URL(page).pathname}${new URL(page).search}`;
    const rows = async () =>
      Number((await t.ctx.db.selectFrom('provider_store').select(t.ctx.db.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()).n);
    const before = await rows();
    const statuses: number[] = [];
    for (let i = 0; i < 100; i++) statuses.push((await t.app.inject({ url: path, remoteAddress: '203.0.113.9' })).statusCode);
    expect(statuses.filter((s) => s !== 429)).toHaveLength(10);
    expect(statuses.slice(10)).toEqual(Array(90).fill(429));
    expect((await rows()) - before).toBeLessThanOrEqual(10);
    // The platform's own calls to it (discovery, here) are not counted.
    expect((await t.app.inject({ url: '/oidc/.well-known/openid-configuration', remoteAddress: '203.0.113.9' })).statusCode).toBe(200);
  });

  describe('while Redis is down', () => {
    let proxy: TcpProxy;
    afterEach(async () => {
      await proxy?.close();
    });

    it('counts each limit in the process instead of skipping it, and says so', async () => {
      proxy = await new TcpProxy({ host: REDIS.hostname, port: Number(REDIS.port || 6379) }).start();
      const t = await start({ config: { redisUrl: `redis://127.0.0.1:${proxy.port}`, rateLimitSignInPerMinute: 5, rateLimitPostsPerMinute: 4, trustProxy: ['127.0.0.1'] } });
      // A session made directly: signing in would spend the shared sign-in counters other runs share.
      const user = await t.ctx.db
        .insertInto('users')
        .values({ subject: `test|${newKey()}`, name: 'Offline Olu', invite_code: newKey().slice(-8).toUpperCase() })
        .returning('id')
        .executeTakeFirstOrThrow();
      const token = await createSession(t.ctx.db, user.id, 1, 'test');
      await proxy.cut('refuse');
      const client = `192.0.2.${1 + Math.floor(Math.random() * 250)}`;
      const signIns: number[] = [];
      for (let i = 0; i < 8; i++) signIns.push(await authorPageVia(t.app, client));
      expect(signIns).toEqual([200, 200, 200, 200, 200, 429, 429, 429]);
      const posts: number[] = [];
      for (let i = 0; i < 6; i++) posts.push((await post(t.app, PATHS.transferIn, token, { asset: 'AIC', amount: '1' }, newKey())).json().code);
      expect(posts.filter((code) => code === ERRORS.RATE_LIMITED.code)).toHaveLength(2);
      expect(rateLimitState.local).toBe(true);
      const metrics = await t.app.metrics.registry.metrics();
      expect(metrics).toMatch(/^aic_rate_limits_local 1$/m);
      // Back: shared again.
      await proxy.restore();
      for (let i = 0; i < 20 && rateLimitState.local; i++) {
        await authorPageVia(t.app, `${client}0`);
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(rateLimitState.local).toBe(false);
    });
  });
});
