import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PATHS } from '../contract/paths.ts';
import { callApi } from './support/api.ts';
import { signInOverHttp } from './support/httpSignIn.ts';
import { PGBOUNCER, type RunningPgBouncer, startPgBouncer } from './support/pgbouncer.ts';
import { freePort, type RunningServer, startServer } from './support/server.ts';

const PG = new URL(process.env.TEST_DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/test');
// CI installs PgBouncer (.ci/run); elsewhere the test says so and skips rather than failing.
const run = PGBOUNCER || process.env.CI ? describe : describe.skip;

/**
 * Two server processes through PgBouncer in transaction pooling mode: nothing may rely on a
 * server connection outliving a transaction (session advisory locks, SET, named prepared
 * statements, LISTEN).
 */
run('two server processes through PgBouncer in transaction mode', () => {
  const database = `pgb_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: PG.href });
  let bouncer: RunningPgBouncer;
  let a: RunningServer;
  let b: RunningServer;

  beforeAll(async () => {
    await admin.connect();
    await admin.query(`create database ${database}`);
    bouncer = await startPgBouncer(PG, database);
    const portA = await freePort();
    const shared = {
      DATABASE_URL: bouncer.url,
      PUBLIC_URL: `http://localhost:${portA}`,
      OAUTH_REDIRECT_URIS: `http://localhost:${portA}/`,
      OPERATOR_USER_IDS: '1',
      SETTLEMENT_INTERVAL_MS: '0',
      CLOCK_START: '2026-11-01T08:00:00Z',
    };
    // One migrates first; the second then finds the schema current.
    // `a` as deploy/env.example sets it up; `b` with prepared statements on, which this
    // PgBouncer (1.18) loses between its server connections: each read is sent again unnamed;
    // and with the read limit on, whose startup option PgBouncer refuses: b opens without it.
    a = await startServer({ ...shared, PORT: String(portA), DATABASE_PREPARED_STATEMENTS: 'false', READ_STATEMENT_TIMEOUT_MS: '0' });
    b = await startServer(shared);
  });
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await bouncer?.remove();
    await admin.query(`drop database if exists ${database} with (force)`);
    await admin.end();
  });

  it('signs in, binds, buys, settles, revokes a session and keeps the ledger check green', async () => {
    const operator = await signInOverHttp(a.baseUrl, { name: 'Olga' });
    const holders = [await signInOverHttp(a.baseUrl, { name: 'Hana' }), await signInOverHttp(a.baseUrl, { name: 'Ivo' })];
    const { inviteCode } = await callApi<{ inviteCode: string }>(b.baseUrl, PATHS.userInfo, operator.token);
    await Promise.all(holders.map((h, i) => callApi([a, b][i % 2]?.baseUrl as string, PATHS.bindInviter, h.token, { inviteCode })));
    for (const h of holders) await callApi(a.baseUrl, PATHS.transferIn, h.token, { asset: 'AIC', amount: '3000' });
    const buys = await Promise.all(
      holders.flatMap((h) => [
        callApi<{ id: string }>(a.baseUrl, PATHS.productBuy, h.token, { product: 'fixed30', amount: '1000' }),
        callApi<{ id: string }>(b.baseUrl, PATHS.productBuy, h.token, { product: 'reinvest360', amount: '500' }),
      ]),
    );
    expect(buys.every((o) => typeof o.id === 'string')).toBe(true);

    const settled = await callApi<{ reports: { day: string; status: string }[] }>(a.baseUrl, PATHS.operatorClockAdvance, operator.token, { days: 2 });
    expect(settled.reports.map((r) => r.status)).toContain('done');
    const income = new pg.Client({ connectionString: bouncer.url });
    await income.connect();
    const rows = await income.query(`select kind, count(*)::int as n from income where kind in ('fixed', 'static') group by kind order by kind`);
    await income.end();
    // Two 30-day orders accrue on 11-02, two 360-day orders share its pool output: once each.
    expect(rows.rows).toEqual([
      { kind: 'fixed', n: 2 },
      { kind: 'static', n: 2 },
    ]);

    const holder = holders[0] as { token: string };
    const logout = await fetch(`${a.baseUrl}${PATHS.logout}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${holder.token}`, 'content-type': 'application/json', 'idempotency-key': `out-${Date.now()}` },
      body: '{}',
    });
    expect(logout.status).toBe(200);
    await new Promise((r) => setTimeout(r, 1_100));
    for (const server of [a, b]) {
      const res = await fetch(`${server.baseUrl}${PATHS.getAsset}`, { headers: { authorization: `Bearer ${holder.token}` } });
      expect(res.status).toBe(401);
    }

    // Reads repeated on both processes at once answer alike, whichever server connection each lands on.
    const other = holders[1] as { token: string };
    const reads = await Promise.all(
      Array.from({ length: 40 }, (_, i) => callApi<{ inviteCode: string }>([a, b][i % 2]?.baseUrl as string, PATHS.userInfo, other.token)),
    );
    expect(new Set(reads.map((r) => r.inviteCode)).size).toBe(1);

    const check = await callApi<{ ok: boolean; tree: { ok: boolean } }>(b.baseUrl, PATHS.operatorLedger, operator.token);
    expect(check.ok).toBe(true);
    expect(check.tree.ok).toBe(true);

    // b said at start that the read limit does not reach PostgreSQL through this pooler.
    expect(b.logs()).toContain('READ_STATEMENT_TIMEOUT_MS is not applied');
    expect(a.logs()).not.toContain('READ_STATEMENT_TIMEOUT_MS');
  });
});
