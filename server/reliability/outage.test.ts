import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS } from '../../contract/errors.ts';
import { PATHS } from '../../contract/paths.ts';
import { startTestApp, TEST_DATABASE_URL, type TestApp } from '../test/harness.ts';
import { newKey, signIn } from '../test/signIn.ts';
import { expectBooksExact } from './load.ts';
import { TcpProxy } from './proxy.ts';

type Reply = { status: number; body: { code?: number; msg?: string; data?: unknown; status?: string }; ms: number };

/** What a database outage may show a caller: the envelope of "service unavailable", nothing else. */
const UNAVAILABLE = { code: ERRORS.UNAVAILABLE.code, data: null };
const INTERNALS = /ECONN|ETIMEDOUT|terminated|timeout exceeded|pg|postgres|stack|at \w+ \(/i;

/**
 * The database unreachable for a moment, behind a TCP proxy the test cuts: every request in the
 * outage answers 503 with the UNAVAILABLE envelope within a few seconds (never a 500 with
 * internals, never a hang), /readyz says not ready, and once the proxy is back the same server
 * process answers normally again, without a restart.
 *
 * PostgreSQL only: the embedded PGlite runs inside the server process, with no connection to
 * lose.
 */
describe('database unreachable for a moment (PostgreSQL)', () => {
  const target = new URL(TEST_DATABASE_URL);
  const proxy = new TcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
  let t: TestApp;
  let base: string;
  let token: string;

  beforeAll(async () => {
    await proxy.start();
    const viaProxy = new URL(TEST_DATABASE_URL);
    viaProxy.host = `127.0.0.1:${proxy.port}`;
    t = await startTestApp('postgres', { databaseUrl: viaProxy.href });
    token = (await signIn(t.app, { name: 'outage' })).token;
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await proxy.restore();
    await t?.close();
    await proxy.close();
  });

  const call = async (path: string, init: { body?: object; key?: string } = {}): Promise<Reply> => {
    const started = Date.now();
    const res = await fetch(`${base}${path}`, {
      method: init.body ? 'POST' : 'GET',
      headers: {
        authorization: `Bearer ${token}`,
        'x-lang': 'en',
        ...(init.body ? { 'content-type': 'application/json', 'idempotency-key': init.key ?? newKey() } : {}),
      },
      ...(init.body ? { body: JSON.stringify(init.body) } : {}),
      signal: AbortSignal.timeout(20_000),
    });
    const text = await res.text();
    return { status: res.status, body: JSON.parse(text), ms: Date.now() - started };
  };

  const requests = (key: string) => [
    () => call(PATHS.getAsset),
    () => call(PATHS.home),
    () => call(PATHS.transferIn, { body: { asset: 'AIC', amount: '5' }, key }),
    () => call(PATHS.productInfo),
    () => call('/readyz'),
  ];

  const expectUnavailable = (reply: Reply, within: number) => {
    expect(reply.status).toBe(503);
    expect(reply.ms).toBeLessThan(within);
    if (reply.body.status !== undefined) expect(reply.body.status).toBe('database unreachable'); // /readyz
    else {
      expect(reply.body).toMatchObject(UNAVAILABLE);
      expect(reply.body.msg).not.toMatch(INTERNALS);
    }
  };

  it('answers 503 during an outage and recovers without a restart', async () => {
    const key = newKey();
    for (const send of requests(key)) expect((await send()).status).toBe(200);
    const before = await t.ctx.db.selectFrom('transfers').select('id').execute();

    // Cut while requests are in flight: each ends as it was (200) or as unavailable (503).
    const inFlightKeys = Array.from({ length: 20 }, () => newKey());
    const inFlight = inFlightKeys.map((key, i) => requests(key)[i % 5]?.() as Promise<Reply>);
    await new Promise((r) => setTimeout(r, 20));
    await proxy.cut('refuse');
    const settled = await Promise.all(inFlight);
    for (const reply of settled) {
      if (reply.status !== 200) expectUnavailable(reply, 7_000);
    }

    // The database refuses connections: a quick, clear 503 everywhere.
    const outageKey = newKey();
    for (const send of requests(outageKey)) expectUnavailable(await send(), 3_000);

    // The network swallows packets: the pool's connection timeout answers within seconds.
    await proxy.cut('blackhole');
    const swallowed = await Promise.all(requests(outageKey).map((send) => send()));
    for (const reply of swallowed) expectUnavailable(reply, 8_000);

    // Back: the same process answers again, and the POST retried with its key has one effect.
    await proxy.restore();
    const recovered = await waitFor(async () => (await call('/readyz')).status === 200, 10_000);
    expect(recovered).toBe(true);
    for (const send of requests(outageKey)) expect((await send()).status).toBe(200);
    // Every POST of the outage sent again with its key (a 503 may hide a commit whose answer was
    // lost): each has exactly one effect, whatever happened to its first send.
    const posts = [outageKey, ...inFlightKeys.filter((_, i) => i % 5 === 2)];
    const ids = new Set<string>();
    for (const key of posts) {
      const again = await call(PATHS.transferIn, { body: { asset: 'AIC', amount: '5' }, key });
      expect(again.body.code).toBe(0);
      ids.add((again.body.data as { id: string }).id);
    }
    expect(ids.size).toBe(posts.length);
    const after = await t.ctx.db.selectFrom('transfers').select('id').execute();
    expect(after.length - before.length).toBe(posts.length);
    await expectBooksExact(t.ctx.db);
    console.log(
      `database outage on postgres: ${settled.length} requests in flight at the cut ` +
        `(${settled.filter((r) => r.status === 503).length} answered 503), ${requests('').length * 2} during the outage ` +
        `(all 503, slowest ${Math.max(...swallowed.map((r) => r.ms))} ms when packets were swallowed); recovered without a restart`,
    );
  });
});

async function waitFor(check: () => Promise<boolean>, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}
