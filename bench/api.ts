/**
 * API load benchmark: autocannon on loopback against the real server (node --import tsx
 * server/main.ts) on a fresh PostgreSQL database, next to a bare Fastify as the yardstick.
 *   npx tsx bench/api.ts
 * Measures GET /api/home, GET /api/getAsset (signed in) and POST /api/product/buy (1 AIC, a
 * fresh Idempotency-Key each, spread over BENCH_USERS signed-in, funded, bound users) at each
 * of BENCH_CONNECTIONS (default "100 1000") for BENCH_SECONDS (default 10) each, then checks
 * the ledger: no overdraft, postings match balances. BENCH_ROUTES picks routes (default
 * "home asset buy"); BENCH_CPU_PROF=<dir> writes the server's CPU profile there.
 * Uses BENCH_DATABASE_URL (default: the test database's server), in a database of its own.
 * After the server stops, pgbench runs each route's own SQL for the same users at the same
 * concurrency (up to 90 clients: PostgreSQL's 100 connections) as its yardstick.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { loadavg } from 'node:os';
import autocannon, { type Result } from 'autocannon';
import pg from 'pg';
import { PATHS } from '../contract/paths.ts';
import { callApi } from '../e2e/support/api.ts';
import { signInOverHttp } from '../e2e/support/httpSignIn.ts';
import { freePort, type RunningServer, startServer } from '../e2e/support/server.ts';
import { connect } from '../server/db/connect.ts';
import { checkLedger } from '../server/ledger/ledger.ts';
import { benchUserRange, hasBuyFunction, pgbench, YARDSTICKS, type Yardstick } from './pgbench.ts';
import { type Figure, int, report } from './report.ts';

const base = process.env.BENCH_DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/test';
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connectionCounts = (process.env.BENCH_CONNECTIONS ?? '100 1000').split(' ').map(Number);
const userCount = Number(process.env.BENCH_USERS ?? 200);
const routes = new Set((process.env.BENCH_ROUTES ?? 'home asset buy').split(' '));
const HOME_GOAL = { ratio: 0.5, p99: 20, connections: 100 };
const BUY_GOAL = { rps: 3_000, ratio: 0.8, p99: 100 };
const ASSET_GOAL = { rps: 10_000, ratio: 0.25, p99: 20 };
/** PostgreSQL's default 100 connections, less room for the bench's own. */
const PGBENCH_MAX_CLIENTS = 90;

type Load = {
  name: string;
  url: string;
  /** Answers quickly once the server has worked off the previous run's queue. */
  idleUrl: string;
  method?: 'POST';
  headers?: () => Record<string, string>;
  body?: () => string;
};
type Measured = { load: Load; connections: number; result: Result; refused: number; accepted: number };

const OK = /^\{"code":0[,}]/;

/** One autocannon run; counts 2xx answers whose envelope code is not 0 as refused. */
async function measure(load: Load, connections: number, duration: number): Promise<Measured> {
  let refused = 0;
  let accepted = 0;
  const url = new URL(load.url);
  const result = await autocannon({
    url: url.origin,
    connections,
    duration,
    requests: [
      {
        method: load.method ?? 'GET',
        path: url.pathname,
        setupRequest: (request) => ({
          ...request,
          headers: load.headers?.() ?? {},
          ...(load.body ? { body: load.body() } : {}),
        }),
        onResponse: (status, body) => {
          if (status < 200 || status > 299) return;
          if (OK.test(body)) accepted++;
          else refused++;
        },
      },
    ],
  });
  return { load, connections, result, refused, accepted };
}

/** Waits until `url` answers within 50 ms: requests queued by the last run are done. */
async function drained(url: string): Promise<void> {
  for (let i = 0; i < 120; i++) {
    const start = performance.now();
    await fetch(url).then((r) => r.arrayBuffer(), () => undefined);
    if (performance.now() - start < 50) return;
    await new Promise((r) => setTimeout(r, 500));
  }
}

/** Runs `work` for 0..n-1 with at most `limit` at a time. */
async function inPool<T>(n: number, limit: number, work: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = new Array(n);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < n; i = next++) out[i] = await work(i);
  };
  await Promise.all(Array.from({ length: Math.min(limit, n) }, worker));
  return out;
}

async function startBare(): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/bare-server.ts'], {
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}/bare`;
  for (let i = 0; i < 120; i++) {
    if (await fetch(url).then((r) => r.ok, () => false)) return { url, child };
    await new Promise((r) => setTimeout(r, 250));
  }
  child.kill('SIGTERM');
  throw new Error('bare server did not start');
}

const BARE = 'bare Fastify';

/** Starts the bare yardstick and the real server on `dbUrl`, and runs every load against them. */
async function runLoads(dbUrl: string): Promise<Measured[]> {
  const runs: Measured[] = [];
  const bare = await startBare();
  let server: RunningServer | undefined;
  try {
    server = await startServer({
      DATABASE_URL: dbUrl,
      SETTLEMENT_INTERVAL_MS: '0',
      LOG_LEVEL: 'warn',
      RATE_LIMIT_POSTS_PER_MINUTE: '100000000',
      RATE_LIMIT_SIGNIN_PER_MINUTE: '100000000',
      RATE_LIMIT_GETS_PER_MINUTE: '100000000',
      ...(process.env.BENCH_CPU_PROF ? { NODE_OPTIONS: `--import=${new URL('cpu-profile.mjs', import.meta.url).pathname}` } : {}),
    });
    const warmup = Math.max(1, Math.round(seconds / 5));
    const series = async (load: Load) => {
      await measure(load, 50, warmup);
      for (const c of connectionCounts) {
        await drained(load.idleUrl);
        const run = await measure(load, c, seconds);
        runs.push(run);
        const { requests, latency, timeouts, statusCodeStats } = run.result;
        const codes = Object.entries(statusCodeStats).map(([code, { count }]) => `${code}: ${count}`).join(', ');
        console.log(`${load.name} @${c}: ${int(requests.average)} req/s, p99 ${latency.p99} ms, sent ${requests.sent}, timeouts ${timeouts}, ${codes}`);
      }
      await drained(load.idleUrl);
    };
    await series({ name: BARE, url: bare.url, idleUrl: bare.url });

    const { baseUrl } = server;
    const started = performance.now();
    const inviter = await signInOverHttp(baseUrl, { name: 'bench inviter' });
    const { inviteCode } = await callApi<{ inviteCode: string }>(baseUrl, PATHS.userInfo, inviter.token);
    const tokens = await inPool(userCount, 8, async (i) => {
      const user = await signInOverHttp(baseUrl, { name: `bench ${i}` });
      await callApi(baseUrl, PATHS.bindInviter, user.token, { inviteCode });
      await callApi(baseUrl, PATHS.transferIn, user.token, { asset: 'AIC', amount: '10000' });
      return user.token;
    });
    console.log(`${userCount} users signed in, bound and funded in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    let turn = 0;
    const signedIn = () => ({ authorization: `Bearer ${tokens[turn++ % tokens.length] ?? ''}` });
    const products = ['current', 'fixed30', 'reinvest360'];

    const api = `http://127.0.0.1:${server.port}`;
    const idleUrl = `${api}/readyz`;
    if (routes.has('home')) await series({ name: `GET ${PATHS.home}`, url: `${api}${PATHS.home}`, idleUrl });
    if (routes.has('asset')) {
      await series({ name: `GET ${PATHS.getAsset}`, url: `${api}${PATHS.getAsset}`, idleUrl, headers: signedIn });
    }
    if (routes.has('buy')) {
      await series({
        name: `POST ${PATHS.productBuy}`,
        url: `${api}${PATHS.productBuy}`,
        idleUrl,
        method: 'POST',
        headers: () => ({ ...signedIn(), 'content-type': 'application/json', 'idempotency-key': randomUUID() }),
        body: () => JSON.stringify({ product: products[turn % products.length], amount: '1' }),
      });
    }
    return runs;
  } finally {
    await server?.stop();
    bare.child.kill('SIGTERM');
  }
}

/** Transactions a second of each yardstick, by name and connections. */
type Yardsticks = Map<string, number>;
const yardstickKey = (which: Yardstick, connections: number) => `${which}@${connections}`;

/** Which yardstick a route's figure is read against. */
const yardstickOf = (load: Load): Yardstick | undefined =>
  load.method === 'POST' ? 'buyStatements' : load.name.endsWith(PATHS.getAsset) ? 'assetReads' : undefined;

async function measureYardsticks(dbUrl: string): Promise<Yardsticks> {
  const measured: Yardsticks = new Map();
  const users = await benchUserRange(dbUrl);
  const wanted: Yardstick[] = [
    ...(routes.has('asset') ? (['assetReads'] as const) : []),
    ...(routes.has('buy') ? (['buyStatements'] as const) : []),
    ...(routes.has('buy') && (await hasBuyFunction(dbUrl)) ? (['buyFunction'] as const) : []),
  ];
  for (const connections of connectionCounts) {
    const clients = Math.min(connections, PGBENCH_MAX_CLIENTS);
    for (const which of wanted) {
      const tps = await pgbench(dbUrl, which, clients, seconds, users);
      measured.set(yardstickKey(which, connections), tps);
      console.log(`${YARDSTICKS[which].name} @${clients} clients: ${int(tps)} tps`);
    }
  }
  return measured;
}

function yardstickFigures(yardsticks: Yardsticks): Figure[] {
  return [...yardsticks].map(([key, tps]) => {
    const [which, connections] = key.split('@') as [Yardstick, string];
    const clients = Math.min(Number(connections), PGBENCH_MAX_CLIENTS);
    return { benchmark: 'api', figure: `${YARDSTICKS[which].name} @${clients} clients: tps`, value: int(tps) };
  });
}

/** Requests a second, p50 / p99 and errors of each run, API runs as a ratio to the bare one and to pgbench. */
function runFigures(runs: Measured[], yardsticks: Yardsticks): Figure[] {
  return runs.flatMap(({ load, connections, result, refused }) => {
    const isBare = load.name === BARE;
    const yardstick = runs.find((r) => r.load.name === BARE && r.connections === connections);
    const rps = result.requests.average;
    const ratio = yardstick ? rps / yardstick.result.requests.average : 0;
    const which = yardstickOf(load);
    const sql = which ? yardsticks.get(yardstickKey(which, connections)) : undefined;
    const sqlRatio = sql ? rps / sql : undefined;
    const errors = result.non2xx + result.errors + refused;
    const at100 = connections === HOME_GOAL.connections;
    const isHome = load.name.endsWith(PATHS.home) && at100;
    const isBuy = load.method === 'POST' && at100;
    const isAsset = load.name.endsWith(PATHS.getAsset) && at100;
    const label = `${load.name} @${connections}`;
    const p99 = result.latency.p99;
    const goal = isHome
      ? { goal: `>= ${HOME_GOAL.ratio}x bare`, met: ratio >= HOME_GOAL.ratio }
      : isBuy
        ? { goal: `>= ${int(BUY_GOAL.rps)}/s and >= ${BUY_GOAL.ratio}x pgbench`, met: rps >= BUY_GOAL.rps && (sqlRatio ?? 0) >= BUY_GOAL.ratio }
        : isAsset
          ? { goal: `>= ${int(ASSET_GOAL.rps)}/s and >= ${ASSET_GOAL.ratio}x bare`, met: rps >= ASSET_GOAL.rps && ratio >= ASSET_GOAL.ratio }
          : {};
    const p99Goal = isHome ? HOME_GOAL.p99 : isBuy ? BUY_GOAL.p99 : isAsset ? ASSET_GOAL.p99 : connections >= 1000 && !isBare ? 1000 : undefined;
    return [
      {
        benchmark: 'api',
        figure: `${label}: req/s`,
        value: isBare ? int(rps) : `${int(rps)} (${ratio.toFixed(2)}x bare${sqlRatio === undefined ? '' : `, ${sqlRatio.toFixed(2)}x pgbench`})`,
        ...goal,
      },
      {
        benchmark: 'api',
        figure: `${label}: p50 / p99 ms`,
        value: `${result.latency.p50} / ${p99}`,
        ...(p99Goal === undefined ? {} : { goal: `p99 < ${p99Goal}`, met: p99 < p99Goal }),
      },
      {
        benchmark: 'api',
        figure: `${label}: errors`,
        value: `${int(errors)}${errors ? ` (non-2xx ${result.non2xx}, socket ${result.errors}, timeouts ${result.timeouts}, refused ${refused})` : ''}`,
        ...(load.method === 'POST' ? { goal: '0', met: errors === 0 } : {}),
      },
    ];
  });
}

/** After the buys: no overdraft, the ledger balances, and how many orders were written. */
async function ledgerFigures(dbUrl: string, runs: Measured[]): Promise<Figure[]> {
  const handle = await connect({ databaseUrl: dbUrl, poolSize: 2 });
  try {
    const check = await checkLedger(handle.db);
    const orders = await handle.db.selectFrom('orders').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
    const accepted = runs.filter((r) => r.load.method === 'POST').reduce((n, r) => n + r.accepted, 0);
    return [
      { benchmark: 'api', figure: 'buy: orders written (buys accepted in measured runs)', value: `${int(Number(orders.n))} (${int(accepted)})` },
      { benchmark: 'api', figure: 'buy: overdrawn accounts', value: String(check.negativeUserAccounts), goal: '0', met: check.negativeUserAccounts === 0 },
      {
        benchmark: 'api',
        figure: 'buy: ledger check (sums zero, balances = postings)',
        value: check.ok ? 'ok' : `FAILED ${JSON.stringify(check)}`,
        goal: 'ok',
        met: check.ok,
      },
    ];
  } finally {
    await handle.close();
  }
}

const load1 = () => loadavg()[0]?.toFixed(2) ?? '?';
const loadAtStart = load1();
const name = `bench_api_${randomBytes(4).toString('hex')}`;
const admin = new pg.Client({ connectionString: base });
await admin.connect();
await admin.query(`create database ${name}`);
const dbUrl = new URL(base);
dbUrl.pathname = `/${name}`;
try {
  const runs = await runLoads(dbUrl.href);
  // The ledger is read before pgbench adds orders of its own.
  const ledger = routes.has('buy') ? await ledgerFigures(dbUrl.href, runs) : [];
  const yardsticks = await measureYardsticks(dbUrl.href);
  const figures = [...runFigures(runs, yardsticks), ...yardstickFigures(yardsticks), ...ledger];
  figures.push({ benchmark: 'api', figure: 'load average (1 min) at start / end', value: `${loadAtStart} / ${load1()}` });
  report(`API on loopback, ${seconds} s a run, ${userCount} users (connections: ${connectionCounts.join(', ')})`, figures);
} finally {
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.end();
}
