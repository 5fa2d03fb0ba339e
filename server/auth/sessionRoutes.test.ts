import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sql } from 'kysely';
import { buildApp } from '../app.ts';
import { connect } from '../db/connect.ts';
import { ERRORS } from '../../contract/errors.ts';
import { PATHS } from '../../contract/paths.ts';
import type { SessionItem } from '../../contract/sessions.ts';
import { fixedClock } from '../platform/clock.ts';
import { DATABASES, startTestApp, TEST_DATABASE_URL, type TestApp } from '../test/harness.ts';
import { bearer, newKey, post, signIn } from '../test/signIn.ts';
import { parseUserAgent } from './device.ts';
import { createSession } from './sessions.ts';

const ANDROID_CHROME =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36';
const IPHONE_SAFARI =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

describe('device names from user agents', () => {
  it.each([
    [ANDROID_CHROME, 'Chrome on Android'],
    [IPHONE_SAFARI, 'Safari on iPhone'],
    ['Mozilla/5.0 (iPad; CPU OS 16_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/120.0 Mobile/15E148 Safari/604.1', 'Chrome on iPad'],
    ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 Edg/126.0.0.0', 'Edge on Windows'],
    ['Mozilla/5.0 (Macintosh; Intel Mac OS X 14.5; rv:127.0) Gecko/20100101 Firefox/127.0', 'Firefox on macOS'],
    ['Mozilla/5.0 (Linux; Android 13; SM-S911B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/24.0 Chrome/115.0.0.0 Mobile Safari/537.36', 'Samsung Internet on Android'],
    ['Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36', 'Chrome on Linux'],
    ['Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36', 'Chrome on ChromeOS'],
    ['curl/8.5.0', 'Unknown device'],
    [null, 'Unknown device'],
  ])('%s', (agent, label) => {
    expect(parseUserAgent(agent).label).toBe(label);
  });
});

describe.each(DATABASES)('sessions on %s', (kind) => {
  let t: TestApp;
  let alice: { token: string; userId: string };
  let bob: { token: string; userId: string };
  let phone: string;
  let tablet: string;

  const list = async (token: string) => {
    const response = await t.app.inject({ url: PATHS.sessions, headers: bearer(token) });
    return { status: response.statusCode, items: response.json().data?.items as SessionItem[] };
  };
  const status = async (token: string) => (await t.app.inject({ url: PATHS.userInfo, headers: bearer(token) })).statusCode;

  // Sessions live on the wall clock (sessions.ts, sessionNow): Date is frozen here and moved by hand.
  const moveOn = (ms: number) => vi.setSystemTime(Date.now() + ms);
  beforeAll(async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-01T08:00:00Z'));
    t = await startTestApp(kind, { clock: fixedClock(new Date('2026-11-01T08:00:00Z')) });
    alice = await signIn(t.app, { name: 'Alice S' });
    bob = await signIn(t.app, { name: 'Bob S' });
    moveOn(60_000);
    phone = await createSession(t.ctx.db, BigInt(alice.userId), 30, ANDROID_CHROME);
    moveOn(60_000);
    tablet = await createSession(t.ctx.db, BigInt(alice.userId), 30, IPHONE_SAFARI);
  });
  afterAll(async () => {
    vi.useRealTimers();
    await t?.close();
  });

  it('lists the holder’s live sessions with a device, times, and which one is this', async () => {
    const { status: code, items } = await list(alice.token);
    expect(code).toBe(200);
    expect(items).toHaveLength(3);
    expect(items.map((s) => s.device)).toEqual(['Safari on iPhone', 'Chrome on Android', 'Unknown device']);
    expect(items.filter((s) => s.current)).toHaveLength(1);
    expect(items[2]).toMatchObject({ current: true, firstSeen: '2026-11-01T08:00:00.000Z' });
    expect(items[0]).toMatchObject({ browser: 'Safari', os: 'iPhone', firstSeen: '2026-11-01T08:02:00.000Z' });
    for (const item of items) {
      expect(item.id).toMatch(/^[0-9a-f]{16}$/);
      for (const token of [alice.token, phone, tablet]) expect(token).not.toContain(item.id);
    }
    const fromPhone = await list(phone);
    expect(fromPhone.items.find((s) => s.current)?.device).toBe('Chrome on Android');
    expect((await list(bob.token)).items).toHaveLength(1);
  });

  it('revokes one session: it answers 401 at once, the others go on', async () => {
    const { items } = await list(alice.token);
    const target = items.find((s) => s.device === 'Chrome on Android') as SessionItem;
    expect(await status(phone)).toBe(200);
    const key = newKey();
    const revoked = await post(t.app, PATHS.sessionsRevoke, alice.token, { id: target.id }, key);
    expect(revoked.json()).toEqual({ code: 0, msg: 'success', data: { revoked: 1 } });
    expect(await status(phone)).toBe(401);
    expect((await list(phone)).status).toBe(401);
    expect(await status(alice.token)).toBe(200);
    expect(await status(tablet)).toBe(200);
    // The same action again gets the same answer; a new one finds nothing left to revoke.
    expect((await post(t.app, PATHS.sessionsRevoke, alice.token, { id: target.id }, key)).json().data).toEqual({ revoked: 1 });
    const again = await post(t.app, PATHS.sessionsRevoke, alice.token, { id: target.id });
    expect(again.statusCode).toBe(404);
    expect((await list(alice.token)).items.map((s) => s.device)).toEqual(['Safari on iPhone', 'Unknown device']);
  });

  it('refuses to revoke another holder’s session', async () => {
    const target = (await list(alice.token)).items.find((s) => s.device === 'Safari on iPhone') as SessionItem;
    const refused = await post(t.app, PATHS.sessionsRevoke, bob.token, { id: target.id });
    expect(refused.statusCode).toBe(404);
    expect(refused.json()).toMatchObject({ code: ERRORS.NOT_FOUND.code, data: null });
    expect(await status(tablet)).toBe(200);
    const malformed = await post(t.app, PATHS.sessionsRevoke, bob.token, { id: 'not-an-id' });
    expect(malformed.statusCode).toBe(400);
  });

  it('signs out every other device, keeping this one', async () => {
    const extra = await createSession(t.ctx.db, BigInt(alice.userId), 30, ANDROID_CHROME);
    const answer = await post(t.app, PATHS.sessionsRevokeOthers, alice.token);
    expect(answer.json().data).toEqual({ revoked: 2 });
    expect(await status(alice.token)).toBe(200);
    expect(await status(tablet)).toBe(401);
    expect(await status(extra)).toBe(401);
    const { items } = await list(alice.token);
    expect(items).toHaveLength(1);
    expect(items[0]?.current).toBe(true);
    expect(await status(bob.token)).toBe(200);
    expect((await post(t.app, PATHS.sessionsRevokeOthers, alice.token)).json().data).toEqual({ revoked: 0 });
  });

  it('needs a session, and leaves expired ones out', async () => {
    expect((await t.app.inject({ url: PATHS.sessions })).statusCode).toBe(401);
    const refused = await t.app.inject({
      method: 'POST',
      url: PATHS.sessionsRevokeOthers,
      headers: { 'idempotency-key': newKey(), 'content-type': 'application/json' },
      payload: '{}',
    });
    expect(refused.statusCode).toBe(401);
    // A session made 31 days ago, of 30.
    moveOn(-31 * 86_400_000);
    await createSession(t.ctx.db, BigInt(bob.userId), 30, undefined);
    moveOn(31 * 86_400_000);
    expect((await list(bob.token)).items).toHaveLength(1);
  });
});

describe.each(DATABASES)('the per-process copy of live sessions on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind, { config: { sessionCacheMs: 1_000 } });
  });
  afterAll(() => t?.close());

  const asset = (token: string) => t.app.inject({ url: PATHS.getAsset, headers: bearer(token) }).then((r) => r.statusCode);

  it('answers from the copy until it is 1 s old, so a revocation by another process is honoured within 1 s', async () => {
    // The copy's age is read from Date: frozen here and moved by hand, so a busy machine's slow
    // requests cannot age it.
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const { token } = await signIn(t.app, { name: 'Copy' });
      expect(await asset(token)).toBe(200);
      // Another process revokes it: this one does not hear of it, and answers from its copy...
      await sql`update sessions set revoked_at = now() where user_id = ${BigInt(token.split('.')[0] as string)}`.execute(t.ctx.db);
      vi.setSystemTime(Date.now() + 999);
      expect(await asset(token)).toBe(200);
      // ...until it is 1 s old.
      vi.setSystemTime(Date.now() + 1);
      expect(await asset(token)).toBe(401);
    } finally {
      vi.useRealTimers();
    }
  });

  it('forgets its copy at once when the revocation is its own', async () => {
    const { token } = await signIn(t.app, { name: 'Local' });
    expect(await asset(token)).toBe(200);
    expect((await post(t.app, PATHS.logout, token)).json().code).toBe(0);
    expect(await asset(token)).toBe(401);
  });
});

describe('a revocation reaching every process through Redis, on postgres', () => {
  const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
  let a: TestApp;
  let b: { app: FastifyInstance; close: () => Promise<void> };
  beforeAll(async () => {
    const config = { sessionCacheMs: 1_000, redisUrl: REDIS_URL };
    a = await startTestApp('postgres', { config });
    // A second process on the same database: its own connections, its own copy of the sessions.
    const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(a.ctx.db);
    const handle = await connect({ databaseUrl: TEST_DATABASE_URL, schema: rows[0]?.schema, poolSize: 2 });
    const app = await buildApp({ ...a.ctx, db: handle.db }, { logger: false });
    await app.ready();
    b = {
      app,
      close: async () => {
        await app.close();
        await handle.close();
      },
    };
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it('is refused by the other process on its next request, not a second later', async () => {
    const { token } = await signIn(a.app, { name: 'Everywhere' });
    const asset = (app: FastifyInstance) => app.inject({ url: PATHS.getAsset, headers: bearer(token) }).then((r) => r.statusCode);
    expect(await asset(b.app)).toBe(200);
    expect((await post(a.app, PATHS.logout, token)).json().code).toBe(0);
    // Published before the logout answered; delivered to the other process's subscriber within moments.
    let status = 200;
    for (let i = 0; i < 50 && status === 200; i++) {
      status = await asset(b.app);
      if (status === 200) await new Promise((r) => setTimeout(r, 10));
    }
    expect(status).toBe(401);
  });
});
