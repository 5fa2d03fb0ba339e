import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { ERRORS } from '../../contract/errors.ts';
import { EXCHANGE_PREFIX } from '../../contract/exchange.ts';
import { LANGUAGES } from '../../contract/languages.ts';
import { PATHS } from '../../contract/paths.ts';
import { poolOf } from '../db/pool.ts';
import { withoutReadTimeout } from '../db/statementTimeout.ts';
import { transact } from '../db/transact.ts';
import { DATABASES, type DatabaseKind, startTestApp, type TestApp, type TestAppOptions } from '../test/harness.ts';
import { bearer, operatorAndHolder } from '../test/signIn.ts';

const TOKEN = 'pressure-token';
const localesDir = fileURLToPath(new URL('../../web/src/i18n/locales/', import.meta.url));
const busyText = (file: string) => (JSON.parse(readFileSync(`${localesDir}${file}.json`, 'utf8')) as { err: { serverBusy: string } }).err.serverBusy;

type Inject = Awaited<ReturnType<TestApp['app']['inject']>>;

/** A 503 SERVER_BUSY in the caller's language, with the wait it asks for. */
function expectBusy(answer: Inject, language: (typeof LANGUAGES)[number] = LANGUAGES[1]) {
  expect(answer.statusCode).toBe(503);
  expect(answer.headers['retry-after']).toBe('2');
  expect(answer.json()).toEqual({ code: ERRORS.SERVER_BUSY.code, msg: busyText(language.messages), data: null });
}

/** The value of one series in the exposition text (undefined when it has no sample). */
const sample = (text: string, series: string) => {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
};

/** Keeps the process's only thread busy, as a slow synchronous route would. */
function blockLoop(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    // Busy on purpose.
  }
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('one slow route cannot starve the rest', () => {
  const apps: TestApp[] = [];
  const start = async (kind: DatabaseKind, options: TestAppOptions) => {
    const t = await startTestApp(kind, { ...options, config: { metricsToken: TOKEN, ...options.config } });
    apps.push(t);
    return t;
  };
  afterAll(async () => {
    for (const t of apps) await t.close();
  });
  const scrape = async (t: TestApp) => (await t.app.inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } })).body;

  it.each(DATABASES)('sheds requests while the event loop lags, never /healthz, /readyz, /metrics or the web app, on %s', async (kind) => {
    // A bound of 1 ms: a loop blocked for 300 ms in a second of samples is past it.
    const t = await start(kind, { config: { shedEventLoopDelayMs: 1 } });
    const send = () =>
      Promise.all([
        t.app.inject({ url: PATHS.home, headers: { 'x-lang': 'Japan' } }),
        t.app.inject({ url: '/healthz' }),
        t.app.inject({ url: '/readyz' }),
        t.app.inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } }),
        t.app.inject({ url: '/' }),
      ]);
    let answers: Inject[] | undefined;
    // The delay is sampled once a second: block, wait for the sample that saw it, and send while
    // the process says it is under pressure before and after (the answers all saw that state).
    for (let attempt = 0; attempt < 10 && !answers; attempt++) {
      blockLoop(300);
      for (let i = 0; i < 40 && !t.app.isUnderPressure(); i++) await pause(50);
      if (!t.app.isUnderPressure()) continue;
      const sent = await send();
      if (t.app.isUnderPressure()) answers = sent;
    }
    const [home, healthz, readyz, metrics, page] = answers as Inject[];
    // The web app's page is never shed (a test app may have no built page: then its 404).
    expect((page as Inject).statusCode).not.toBe(503);
    expectBusy(home as Inject, LANGUAGES.find((l) => l.key === 'Japan'));
    expect((healthz as Inject).statusCode).toBe(200);
    expect((readyz as Inject).json()).toEqual({ status: 'ready' });
    expect((metrics as Inject).statusCode).toBe(200);
    expect(sample(await scrape(t), 'aic_requests_shed_total{reason="event_loop"}')).toBeGreaterThanOrEqual(1);
  });

  /** Every connection of the app's pool (of `size`) held by an open transaction until `release`. */
  async function holdEveryConnection(t: TestApp, size: number) {
    const pool = poolOf(t.ctx.db);
    if (!pool) throw new Error('postgres has a pool');
    let open = () => {};
    const released = new Promise<void>((resolve) => {
      open = resolve;
    });
    const holders = Array.from({ length: size }, () =>
      transact(t.ctx.db, async (trx) => {
        await sql`select 1`.execute(trx);
        await released;
      }),
    );
    await expect.poll(() => pool.total() === size && pool.idle() === 0).toBe(true);
    const release = async () => {
      open();
      await Promise.all(holders);
    };
    return { pool, release };
  }

  it('sheds a request at once while a request has waited past the bound for a database connection, on postgres', async () => {
    const t = await start('postgres', { poolSize: 2, config: { shedPoolWaitMs: 50 } });
    // Both connections held by open transactions, as two slow requests would hold them.
    const { pool, release } = await holdEveryConnection(t, 2);
    // Readiness is never shed: each waits for a connection (one read at a time), two in the queue.
    const ready = [t.app.inject({ url: '/readyz' }), t.app.inject({ url: '/readyz' })];
    await expect.poll(() => pool.waiting()).toBe(2);
    // The connections stay held: past the bound's time, the head of the queue has waited past it.
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(pool.oldestWaitMs()).toBeGreaterThan(50);

    expectBusy(await t.app.inject({ url: PATHS.home }));
    expect((await t.app.inject({ url: '/healthz' })).statusCode).toBe(200);
    expect(pool.waiting()).toBe(2);

    await release();
    expect(pool.oldestWaitMs()).toBe(0);
    for (const answer of await Promise.all(ready)) expect(answer.json()).toEqual({ status: 'ready' });
    expect((await t.app.inject({ url: PATHS.home })).statusCode).toBe(200);
    const text = await scrape(t);
    expect(sample(text, 'aic_requests_shed_total{reason="pool"}')).toBe(1);
    // Read at the scrape, which itself waits for connections (its gauges read the database).
    expect(sample(text, 'aic_db_pool_waiting')).toBeGreaterThanOrEqual(0);
    expect(sample(text, 'aic_db_pool_total')).toBeLessThanOrEqual(2);
    // The two that waited, at least, are in the histogram of waits.
    expect(sample(text, 'aic_db_pool_wait_seconds_count')).toBeGreaterThanOrEqual(2);
    expect(sample(text, 'aic_db_pool_wait_seconds_bucket{le="+Inf"}')).toBe(sample(text, 'aic_db_pool_wait_seconds_count'));
  });

  it('sheds a request at once while the bound of requests in flight are admitted, and admits again as they end, on postgres', async () => {
    const t = await start('postgres', { poolSize: 1, config: { shedInFlight: 2 } });
    // The one connection held: the admitted requests wait for it, in flight.
    const { pool, release } = await holdEveryConnection(t, 1);
    const admitted = [t.app.inject({ url: PATHS.home }), t.app.inject({ url: PATHS.home })];
    await expect.poll(() => pool.waiting()).toBeGreaterThanOrEqual(1);

    expectBusy(await t.app.inject({ url: PATHS.home }));
    // Health and readiness are neither counted nor shed, nor the embedded exchange.
    expect((await t.app.inject({ url: '/healthz' })).statusCode).toBe(200);
    expect((await t.app.inject({ url: `${EXCHANGE_PREFIX}/openapi.json` })).statusCode).toBe(200);

    await release();
    for (const answer of await Promise.all(admitted)) expect(answer.statusCode).toBe(200);
    expect((await t.app.inject({ url: PATHS.home })).statusCode).toBe(200);
    expect(sample(await scrape(t), 'aic_requests_shed_total{reason="in_flight"}')).toBe(1);
  });

  describe('a read over READ_STATEMENT_TIMEOUT_MS on postgres', () => {
    let t: TestApp;
    let operator = '';
    let holder = '';

    /** Holds `table` locked in a transaction of the app's pool (not limited) until `release`. */
    const lock = async (table: string) => {
      let release = () => {};
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      let locked = () => {};
      const taken = new Promise<void>((resolve) => {
        locked = resolve;
      });
      const done = transact(t.ctx.db, async (trx) => {
        await sql`lock table ${sql.table(table)} in access exclusive mode`.execute(trx);
        locked();
        await released;
      });
      await taken;
      return async () => {
        release();
        await done;
      };
    };

    it('answers 503 SERVER_BUSY with a Retry-After in the caller’s language, and the connection serves on', async () => {
      t = await start('postgres', { config: { readStatementTimeoutMs: 200, operatorUserIds: [1n] } });
      // Sign-in, a bind, a transfer and a buy pass under the limit (transactions are not limited).
      ({ operator, holder } = await operatorAndHolder(t.app));
      // The session lookup of every signed-in call waits behind the lock, past the limit.
      const unlock = await lock('sessions');
      try {
        for (const language of LANGUAGES) {
          expectBusy(await t.app.inject({ url: PATHS.userInfo, headers: { ...bearer(holder), 'x-lang': language.key } }), language);
        }
      } finally {
        await unlock();
      }
      expect((await t.app.inject({ url: PATHS.userInfo, headers: bearer(holder) })).statusCode).toBe(200);
    });

    it('does not limit transactions, background work or the operators’ calls', async () => {
      await expect(sql`select pg_sleep(0.5)`.execute(t.ctx.db)).rejects.toMatchObject({ code: '57014' });
      await transact(t.ctx.db, (trx) => sql`select pg_sleep(0.5)`.execute(trx));
      await withoutReadTimeout(() => sql`select pg_sleep(0.5)`.execute(t.ctx.db));
      // The operator's ledger check waits behind a lock on the accounts for twice the limit, and answers.
      const unlock = await lock('accounts');
      let check: Promise<Inject> | undefined;
      try {
        check = t.app.inject({ url: PATHS.operatorLedger, headers: bearer(operator) });
        await expect
          .poll(async () => {
            const { rows } = await sql<{ waited: boolean }>`
              select coalesce(bool_or(now() - a.query_start > interval '400 milliseconds'), false) as waited
              from pg_locks l join pg_stat_activity a using (pid)
              where not l.granted and l.relation = 'accounts'::regclass`.execute(t.ctx.db);
            return rows[0]?.waited;
          })
          .toBe(true);
      } finally {
        await unlock();
      }
      const answer = await check;
      expect({ status: answer?.statusCode, ok: answer?.json().data.ok }).toEqual({ status: 200, ok: true });
    });
  });
});
