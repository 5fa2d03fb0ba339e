import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PATHS } from '../contract/paths.ts';
import { callApi } from './support/api.ts';
import { signInOverHttp } from './support/httpSignIn.ts';
import { freePort, type RunningServer, startServer } from './support/server.ts';

const PG = process.env.TEST_DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/test';

/** Two server processes on one PostgreSQL: sessions, money, the demo clock and settlement work across both. */
describe('two server processes on one PostgreSQL', () => {
  const schema = `mp_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: PG });
  let a: RunningServer;
  let b: RunningServer;

  beforeAll(async () => {
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    const url = `${PG}?options=${encodeURIComponent(`-c search_path=${schema}`)}`;
    const portA = await freePort();
    const shared = {
      DATABASE_URL: url,
      PUBLIC_URL: `http://localhost:${portA}`,
      OAUTH_REDIRECT_URIS: `http://localhost:${portA}/`,
      OPERATOR_USER_IDS: '1',
      SETTLEMENT_INTERVAL_MS: '0',
      CLOCK_START: '2026-11-01T08:00:00Z',
    };
    [a, b] = await Promise.all([startServer({ ...shared, PORT: String(portA) }), startServer(shared)]);
  });
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await admin.query(`drop schema if exists ${schema} cascade`);
    await admin.end();
  });

  it('serves one session on both, moves both clocks at once, settles each day exactly once when both settle at once', async () => {
    const operator = await signInOverHttp(a.baseUrl, { name: 'Olga' });
    const holder = await signInOverHttp(a.baseUrl, { name: 'Hana' });
    const info = await callApi<{ inviteCode: string }>(b.baseUrl, PATHS.userInfo, operator.token);

    // Requests spread over both processes, one session.
    await callApi(b.baseUrl, PATHS.bindInviter, holder.token, { inviteCode: info.inviteCode });
    await callApi(a.baseUrl, PATHS.transferIn, holder.token, { asset: 'AIC', amount: '3000' });
    const buys = await Promise.all([
      callApi<{ id: string }>(a.baseUrl, PATHS.productBuy, holder.token, { product: 'fixed30', amount: '1000' }),
      callApi<{ id: string }>(b.baseUrl, PATHS.productBuy, holder.token, { product: 'fixed30', amount: '1000' }),
      callApi<{ id: string }>(b.baseUrl, PATHS.productBuy, holder.token, { product: 'reinvest360', amount: '500' }),
    ]);
    expect(new Set(buys.map((o) => o.id)).size).toBe(3);

    // A moves the clock 3 days (every process's clock: its offset is kept in the database) while
    // B settles what is due at the same moment.
    type Settled = { now: string; reports: { day: string; status: string }[] };
    const results = await Promise.all([
      callApi<Settled>(a.baseUrl, PATHS.operatorClockAdvance, operator.token, { days: 3 }),
      callApi<Settled>(b.baseUrl, PATHS.operatorSettle, operator.token, {}),
    ]);
    const today = results[0].now.slice(0, 10);
    expect(today).toBe('2026-11-04');
    // B's clock follows within a second: it stamps the same day as A, and settles what is left.
    for (let i = 0; i < 30; i++) {
      const onB = await callApi<Settled>(b.baseUrl, PATHS.operatorSettle, operator.token, {});
      results.push(onB);
      if (onB.now.slice(0, 10) === today) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(results.at(-1)?.now.slice(0, 10)).toBe(today);
    // Which process settles which day is a race (one may find a day already done and report
    // nothing for it); together they report every day, and the rows below show each paid once.
    const reported = new Set(results.flatMap((r) => r.reports.map((report) => report.day)));
    expect([...reported].sort()).toEqual(['2026-11-01', '2026-11-02', '2026-11-03']);
    expect(results.every((r) => r.reports.every((report) => ['done', 'already_done'].includes(report.status)))).toBe(true);

    const days = await admin.query(`select day::text, status from ${schema}.settlement_days order by day`);
    expect(days.rows).toEqual([
      { day: '2026-11-01', status: 'done' },
      { day: '2026-11-02', status: 'done' },
      { day: '2026-11-03', status: 'done' },
    ]);
    // Two 30-day orders accrue on 11-02 and 11-03: four rows of 3 AIC, not eight.
    const fixed = await admin.query(`select count(*)::int as n, sum(amount)::text as total from ${schema}.income where kind = 'fixed'`);
    expect(fixed.rows[0]).toEqual({ n: 4, total: '1200000000' });
    const statics = await admin.query(`select count(*)::int as n from ${schema}.income where kind = 'static'`);
    expect(statics.rows[0].n).toBe(2);

    const check = await callApi<{ ok: boolean; assetSums: Record<string, string> }>(b.baseUrl, PATHS.operatorLedger, operator.token);
    expect(check.ok).toBe(true);
    expect(check.assetSums).toEqual({ AIC: '0', USDT: '0' });
  });

  it('refuses a session on the other process within 1 s of its logout (each keeps a copy at most 1 s old)', async () => {
    const holder = await signInOverHttp(a.baseUrl, { name: 'Ivo' });
    const asset = (server: RunningServer) =>
      fetch(`${server.baseUrl}${PATHS.getAsset}`, { headers: { authorization: `Bearer ${holder.token}` } }).then((r) => r.status);
    expect(await asset(b)).toBe(200);
    const out = await fetch(`${a.baseUrl}${PATHS.logout}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${holder.token}`, 'content-type': 'application/json', 'idempotency-key': `logout-${Date.now()}` },
      body: '{}',
    });
    const revokedAt = performance.now();
    expect(out.status).toBe(200);
    expect(await asset(a)).toBe(401);
    let status = await asset(b);
    while (status === 200 && performance.now() - revokedAt < 3_000) {
      await new Promise((r) => setTimeout(r, 50));
      status = await asset(b);
    }
    expect(status).toBe(401);
    expect(performance.now() - revokedAt).toBeLessThanOrEqual(1_000 + 200);
  });
});
