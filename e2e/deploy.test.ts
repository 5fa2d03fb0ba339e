import { randomInt, randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PATHS } from '../contract/paths.ts';
import { callApi } from './support/api.ts';
import { signInOverHttp } from './support/httpSignIn.ts';
import { type Answer, callFrom, NGINX, type RunningNginx, startNginx } from './support/nginx.ts';
import { freePort, type RunningServer, startServer } from './support/server.ts';

const PG = process.env.TEST_DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/test';
const REDIS = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
// npm test installs nginx (scripts/test-needs.mjs); elsewhere the journey says so and skips.
const run = NGINX || process.env.CI ? describe : describe.skip;

/** nginx reaches the app from this address; only it is named in TRUST_PROXY. */
const PROXY = '127.0.0.2';
const SIGN_IN_LIMIT = 20;
/** A client address of its own on the loopback network, new each run (the limits' counters outlive a run in Redis). */
const newClient = () => `127.${randomInt(10, 250)}.${randomInt(0, 250)}.${randomInt(1, 250)}`;

type Envelope = { code: number; data: { id?: string } };

/**
 * The deployment of docs/deploy.md, on loopback: nginx with the deployment's proxy snippet in
 * front of two app processes on one PostgreSQL, TRUST_PROXY naming nginx only, rate limits in
 * Redis. Plain HTTP stands in for TLS.
 */
run('deployed behind nginx: two processes, one PostgreSQL, limits in Redis', () => {
  const schema = `deploy_${randomUUID().slice(0, 8)}`;
  const admin = new pg.Client({ connectionString: PG });
  let a: RunningServer;
  let b: RunningServer;
  let nginx: RunningNginx;
  let operator: { token: string; userId: string };
  let holder: { token: string; userId: string };

  beforeAll(async () => {
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    const [portA, portB, portNginx] = [await freePort(), await freePort(), await freePort()];
    // nginx's address is known before it starts: the app's PUBLIC_URL.
    const publicUrl = `http://127.0.0.1:${portNginx}`;
    const shared = {
      DATABASE_URL: `${PG}?options=${encodeURIComponent(`-c search_path=${schema}`)}`,
      PUBLIC_URL: publicUrl,
      OAUTH_REDIRECT_URIS: `${publicUrl}/`,
      TRUST_PROXY: PROXY,
      REDIS_URL: REDIS,
      RATE_LIMIT_SIGNIN_PER_MINUTE: String(SIGN_IN_LIMIT),
      OPERATOR_USER_IDS: '1',
      SETTLEMENT_INTERVAL_MS: '0',
      LOG_LEVEL: 'info',
    };
    a = await startServer({ ...shared, PORT: String(portA) });
    b = await startServer({ ...shared, PORT: String(portB) });
    nginx = await startNginx([portA, portB], PROXY, portNginx);
    operator = await signInOverHttp(nginx.baseUrl, { name: 'Olga' });
    holder = await signInOverHttp(nginx.baseUrl, { name: 'Hana' });
    // A holder buys once bound to an inviter.
    const { inviteCode } = await callApi<{ inviteCode: string }>(nginx.baseUrl, PATHS.userInfo, operator.token);
    await callApi(nginx.baseUrl, PATHS.bindInviter, holder.token, { inviteCode });
    await callApi(nginx.baseUrl, PATHS.transferIn, holder.token, { asset: 'AIC', amount: '500' });
  });
  afterAll(async () => {
    await nginx?.stop();
    await Promise.all([a?.stop(), b?.stop()]);
    await admin.query(`drop schema if exists ${schema} cascade`);
    await admin.end();
  });

  it('signs in and buys through nginx; the logs name the client, and a forged X-Forwarded-For is not believed', async () => {
    const order = await callApi<{ id: string }>(nginx.baseUrl, PATHS.productBuy, holder.token, { product: 'fixed30', amount: '10' });
    expect(order.id).toMatch(/^\d+$/);

    const client = newClient();
    const forged = '198.51.100.9';
    for (let i = 0; i < 2; i++) {
      const answer = await callFrom(client, `${nginx.baseUrl}${PATHS.getAsset}`, {
        headers: { authorization: `Bearer ${holder.token}`, 'x-forwarded-for': forged },
      });
      expect(answer.status).toBe(200);
    }
    // Round robin: each process served one of the two calls, and logged the client's own address.
    const logged = (server: RunningServer) => server.logs().includes(`"url":"${PATHS.getAsset}","ip":"${client}"`);
    expect([logged(a), logged(b)]).toEqual([true, true]);
    const everything = a.logs() + b.logs();
    expect(everything).not.toContain(`"ip":"${forged}"`);
    expect(everything).not.toContain(`"ip":"${PROXY}"`);
  });

  it('keeps the API docs off the site, and sends the service worker with one Cache-Control whatever the encoding', async () => {
    // Swagger UI stays on each process's own port, for the operators (docs/deploy.md, nginx).
    for (const path of ['/docs', '/docs/', '/docs/json']) expect((await callFrom('127.0.0.1', `${nginx.baseUrl}${path}`)).status).toBe(404);
    expect((await fetch(`${a.baseUrl}/docs/json`)).status).toBe(200);
    const worker = await Promise.all(
      ['identity', 'gzip', 'br'].map(async (encoding) => {
        const res = await fetch(`${nginx.baseUrl}/sw.js`, { headers: { 'accept-encoding': encoding } });
        await res.arrayBuffer();
        return [res.status, res.headers.get('content-encoding'), res.headers.get('cache-control')];
      }),
    );
    expect(worker).toEqual([
      [200, null, 'no-cache'],
      [200, 'gzip', 'no-cache'],
      [200, 'br', 'no-cache'],
    ]);
  });

  it("one client's sign-in limit, shared by both processes, does not hold back another, and forging the header does not escape it", async () => {
    const authorPage = (from: string, headers: Record<string, string> = {}) =>
      callFrom(from, `${nginx.baseUrl}/api/authorPage?redirectUri=${encodeURIComponent(`${nginx.baseUrl}/`)}`, { headers });
    const busy = newClient();
    const statuses: number[] = [];
    for (let i = 0; i <= SIGN_IN_LIMIT; i++) statuses.push((await authorPage(busy)).status);
    expect(statuses).toEqual([...Array(SIGN_IN_LIMIT).fill(200), 429]);
    expect((await authorPage(busy, { 'x-forwarded-for': '198.51.100.10' })).status).toBe(429);
    expect((await authorPage(newClient())).status).toBe(200);
  });

  it('a session revoked through one process is refused by the other within a second', async () => {
    const rita = await signInOverHttp(nginx.baseUrl, { name: 'Rita' });
    const asset = () =>
      fetch(`${b.baseUrl}${PATHS.getAsset}`, { headers: { authorization: `Bearer ${rita.token}` } }).then((r) => r.status);
    // b has the session in its per-process copy.
    expect(await asset()).toBe(200);
    const logout = await fetch(`${a.baseUrl}${PATHS.logout}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${rita.token}`, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
      body: '{}',
    });
    expect(logout.status).toBe(200);
    const revoked = Date.now();
    let status = await asset();
    while (status === 200 && Date.now() - revoked < 3_000) {
      await new Promise((r) => setTimeout(r, 50));
      status = await asset();
    }
    const refusedAfter = Date.now() - revoked;
    console.log(`deploy: a session revoked on one process was refused by the other after ${refusedAfter} ms`);
    expect(status).toBe(401);
    // The copy lives at most 1 s; the rest is the polling's step and a request's time.
    expect(refusedAfter).toBeLessThanOrEqual(1_200);
  });

  it('a process killed during a burst of buys loses no acknowledged buy, and none is carried out twice', async () => {
    const before = await admin.query<{ id: string }>(`select id::text from ${schema}.orders where user_id = $1`, [holder.userId]);
    const buys = 60;
    const keys = Array.from({ length: buys }, () => randomUUID());
    const acknowledged = new Map<string, string>();
    let retried = 0;
    let killed: Promise<void> | undefined;
    // The client sends the same key again until it has an answer: nginx passes a POST on to the
    // other process only if it never reached the first, so a lost answer is the client's to ask again.
    const buy = async (key: string) => {
      for (let attempt = 0; attempt < 10; attempt++) {
        let answer: Answer | undefined;
        try {
          answer = await callFrom('127.0.0.1', `${nginx.baseUrl}${PATHS.productBuy}`, {
            method: 'POST',
            headers: { authorization: `Bearer ${holder.token}`, 'content-type': 'application/json', 'idempotency-key': key },
            body: JSON.stringify({ product: 'fixed30', amount: '1' }),
          });
        } catch {
          answer = undefined;
        }
        if (answer?.status === 200) {
          const envelope = JSON.parse(answer.body) as Envelope;
          expect(envelope.code).toBe(0);
          acknowledged.set(key, envelope.data.id as string);
          if (acknowledged.size === 15) killed = a.kill();
          return;
        }
        retried++;
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error(`buy ${key} never answered`);
    };
    let next = 0;
    await Promise.all(
      Array.from({ length: 6 }, async () => {
        while (next < keys.length) await buy(keys[next++] as string);
      }),
    );
    await killed;
    console.log(`deploy: ${buys} buys acknowledged, ${retried} sent again after the kill`);
    expect(acknowledged.size).toBe(buys);
    const ids = [...acknowledged.values()];
    expect(new Set(ids).size).toBe(buys);
    const { rows } = await admin.query<{ id: string }>(`select id::text from ${schema}.orders where user_id = $1 order by id`, [holder.userId]);
    const mine = new Set(before.rows.map((r) => r.id));
    expect(rows.map((r) => r.id).filter((id) => !mine.has(id)).sort()).toEqual([...ids].sort());
    const check = await callApi<{ ok: boolean }>(nginx.baseUrl, PATHS.operatorLedger, operator.token);
    expect(check.ok).toBe(true);
  });
});
