/**
 * API load benchmark: autocannon on loopback against the real server (node --import tsx
 * server/main.ts) on PostgreSQL.
 *   npx tsx bench/api.ts
 * On a fresh database, next to a bare Fastify as the yardstick: GET /api/home, GET /api/getAsset
 * (signed in) and POST /api/product/buy (1 AIC, a fresh Idempotency-Key each, spread over
 * BENCH_USERS signed-in, funded, bound users) at each of BENCH_CONNECTIONS (default "100 1000")
 * for BENCH_SECONDS (default 10) each, then checks the ledger: no overdraft, postings match
 * balances. BENCH_ROUTES picks routes (default "home asset buy"); BENCH_CPU_PROF=<dir> writes the
 * server's CPU profile there. After the server stops, pgbench runs each route's own SQL for the
 * same users at the same concurrency (up to 90 clients: PostgreSQL's 100 connections) as its
 * yardstick.
 *
 *   BENCH_HOLDERS=1000000 [BENCH_REUSE=1] [BENCH_DURING_DAY=1] npx tsx bench/api.ts
 * The holder-facing routes on a platform of BENCH_HOLDERS holders against the same routes on 200
 * holders, in one run: two databases populated as bench/day.ts populates its schema (the tree,
 * one order each, proof nonces; bench/population.ts) with three settled days, income notices
 * included. BENCH_REUSE=1 keeps each populated database (bench_api_pop_<holders>, drop it by
 * hand), reuses it when complete and built by today's migrations, and runs on a copy of it.
 * On each, sessions for 200 holders spread evenly over the ids (i * N / 200 + 1), with the chain
 * holders 1, 11, 21, 31, 41 and 51 (the deepest teams) in place of the first spread ids past the
 * chain, each given 10,000 AIC; buys rotate over those with an inviter (holder 1, the root, has
 * none). At each of BENCH_CONNECTIONS (default "100") for BENCH_SECONDS: GET getAsset, POST
 * product/buy, GET statement/monthly (this month's and the settled days' month, limit 50), user/info,
 * invite-records, reward-log and notifications (limit 20). Each prints req/s, p50 / p99, errors
 * and CPU milliseconds a request (the server process, and every PostgreSQL process on the
 * machine), then N / 200 of req/s (goal >= 0.8x) and of CPU a request (<= 1.25x), and each
 * read's CPU a request over getAsset's (<= 3x); no errors. Before each route's runs, with
 * autovacuum off (as this machine's CI has it), the tables it would have analysed by then are
 * (`analyzeAsAutovacuumWould`). BENCH_DURING_DAY=1 then, on the
 * N-holder database, settles one more day without traffic, and the next under a mixed load (the
 * routes at once, the first of BENCH_CONNECTIONS shared between them, BENCH_DAY_RATE
 * requests a second in all, default 500) from the day's start to its end, against the same load
 * just before it; then the income verifier on that day and the ledger check.
 * BENCH_DURING_DAY=only runs that day alone, without the routes' runs before it.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { loadavg } from 'node:os';
import autocannon, { type Result } from 'autocannon';
import pg from 'pg';
import { UNIT } from '../contract/money.ts';
import { PATHS } from '../contract/paths.ts';
import { callApi } from '../e2e/support/api.ts';
import { signInOverHttp } from '../e2e/support/httpSignIn.ts';
import { freePort, type RunningServer, startServer } from '../e2e/support/server.ts';
import { createSession } from '../server/auth/sessions.ts';
import type { AppContext } from '../server/context.ts';
import { connect } from '../server/db/connect.ts';
import { checkLedger, type LedgerCheck, postEntry, SYSTEM } from '../server/ledger/ledger.ts';
import { addDays } from '../server/platform/clock.ts';
import { verifyDay } from '../server/settlement/verify.ts';
import { benchContext } from './context.ts';
import { benchUserRange, hasBuyFunction, pgbench, YARDSTICKS, type Yardstick } from './pgbench.ts';
import {
  analyzeAsAutovacuumWould,
  CHAIN,
  databaseCpuS,
  FIRST_DAY,
  type Platform,
  populatedDatabase,
  processCpuS,
  SETTLED_DAYS,
  type Settled,
  settleOne,
  settleVacuumed,
  stepsText,
  vacuumBefore,
} from './population.ts';
import { type Figure, int, report } from './report.ts';

const base = process.env.BENCH_DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/test';
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const holders = Number(process.env.BENCH_HOLDERS ?? 0);
const connectionCounts = (process.env.BENCH_CONNECTIONS ?? (holders ? '100' : '100 1000')).split(' ').map(Number);
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
/**
 * CPU seconds a run took: the server's process, every PostgreSQL process (null: not on this
 * machine), and this process, which sends the load (and, while a day settles, drives the day).
 */
type Cpu = { serverS: number | null; databaseS: number | null; benchS: number };
type Measured = { load: Load; connections: number; result: Result; refused: number; accepted: number; cpu?: Cpu };
/** autocannon's promise is its run, which stop() ends early (autocannon.d.ts leaves it out). */
type Running = Promise<Result> & { stop: () => void };

const OK = /^\{"code":0[,}]/;

/**
 * One autocannon run; counts 2xx answers whose envelope code is not 0 as refused. With `until`,
 * the run ends when it settles, or after `duration` if sooner.
 */
async function measure(load: Load, connections: number, duration: number, until?: Promise<unknown>, rate?: number): Promise<Measured> {
  let refused = 0;
  let accepted = 0;
  const url = new URL(load.url);
  const running = autocannon({
    url: url.origin,
    connections,
    duration,
    ...(rate ? { overallRate: rate } : {}),
    requests: [
      {
        method: load.method ?? 'GET',
        path: url.pathname + url.search,
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
  }) as Running;
  until?.then(running.stop, running.stop);
  const result = await running;
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

/** The real server on `dbUrl`, its scheduler off and the limits out of the load's way. */
const startBenchServer = (dbUrl: string): Promise<RunningServer> =>
  startServer({
    DATABASE_URL: dbUrl,
    SETTLEMENT_INTERVAL_MS: '0',
    LOG_LEVEL: 'warn',
    RATE_LIMIT_POSTS_PER_MINUTE: '100000000',
    RATE_LIMIT_SIGNIN_PER_MINUTE: '100000000',
    RATE_LIMIT_GETS_PER_MINUTE: '100000000',
    RATE_LIMIT_HEAVY_READS_PER_MINUTE: '100000000',
    ...(process.env.BENCH_CPU_PROF ? { NODE_OPTIONS: `--import=${new URL('cpu-profile.mjs', import.meta.url).pathname}` } : {}),
  });

const warmup = Math.max(1, Math.round(seconds / 5));

/** What the server's process, the database's and this one have used so far (serverPid: the server's). */
const cpuNow = (serverPid: number): Cpu => {
  const own = process.cpuUsage();
  return { serverS: processCpuS(serverPid), databaseS: databaseCpuS(), benchS: (own.user + own.system) / 1e6 };
};
const cpuSince = (before: Cpu, after: Cpu): Cpu => ({
  serverS: before.serverS === null || after.serverS === null ? null : after.serverS - before.serverS,
  databaseS: before.databaseS === null || after.databaseS === null ? null : after.databaseS - before.databaseS,
  benchS: after.benchS - before.benchS,
});

/**
 * A warm-up at 50 connections, then `load` at each of BENCH_CONNECTIONS into `runs`, each when the
 * server is idle again; with `serverPid`, the CPU of each run too.
 */
async function series(load: Load, runs: Measured[], serverPid?: number): Promise<void> {
  await measure(load, 50, warmup);
  for (const c of connectionCounts) {
    await drained(load.idleUrl);
    const before = serverPid === undefined ? undefined : cpuNow(serverPid);
    const run = await measure(load, c, seconds);
    if (before && serverPid !== undefined) run.cpu = cpuSince(before, cpuNow(serverPid));
    runs.push(run);
    console.log(`${load.name} @${c}: ${runLine(run.result)}`);
  }
  await drained(load.idleUrl);
}

const runLine = ({ requests, latency, timeouts, statusCodeStats }: Result) => {
  const codes = Object.entries(statusCodeStats).map(([code, { count }]) => `${code}: ${count}`).join(', ');
  return `${int(requests.average)} req/s, p99 ${latency.p99} ms, sent ${requests.sent}, timeouts ${timeouts}, ${codes}`;
};

/** Each call, the next holder's bearer header, round the tokens; `turn` counts the calls. */
function rotation(tokens: string[]) {
  let turn = 0;
  return { next: () => ({ authorization: `Bearer ${tokens[turn++ % tokens.length] ?? ''}` }), turn: () => turn };
}

const PRODUCTS = ['current', 'fixed30', 'reinvest360'];

/** A signed-in GET of `path` (with its query), round the tokens. */
const readLoad = (api: string, idleUrl: string, path: string, tokens: string[], query = '', label = ''): Load => ({
  name: `GET ${path}${label ? ` (${label})` : ''}`,
  url: `${api}${path}${query ? `?${query}` : ''}`,
  idleUrl,
  headers: rotation(tokens).next,
});

/** 1 AIC bought with a fresh Idempotency-Key, round the tokens and the products. */
function buyLoad(api: string, idleUrl: string, tokens: string[]): Load {
  const holder = rotation(tokens);
  return {
    name: `POST ${PATHS.productBuy}`,
    url: `${api}${PATHS.productBuy}`,
    idleUrl,
    method: 'POST',
    headers: () => ({ ...holder.next(), 'content-type': 'application/json', 'idempotency-key': randomUUID() }),
    body: () => JSON.stringify({ product: PRODUCTS[holder.turn() % PRODUCTS.length], amount: '1' }),
  };
}

/** Starts the bare yardstick and the real server on `dbUrl`, and runs every load against them. */
async function runLoads(dbUrl: string): Promise<Measured[]> {
  const runs: Measured[] = [];
  const bare = await startBare();
  let server: RunningServer | undefined;
  try {
    server = await startBenchServer(dbUrl);
    await series({ name: BARE, url: bare.url, idleUrl: bare.url }, runs);

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

    const api = `http://127.0.0.1:${server.port}`;
    const idleUrl = `${api}/readyz`;
    if (routes.has('home')) await series({ name: `GET ${PATHS.home}`, url: `${api}${PATHS.home}`, idleUrl }, runs);
    if (routes.has('asset')) await series(readLoad(api, idleUrl, PATHS.getAsset, tokens), runs);
    if (routes.has('buy')) await series(buyLoad(api, idleUrl, tokens), runs);
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
  return runs.flatMap((run) => {
    const { load, connections, result } = run;
    const isBare = load.name === BARE;
    const yardstick = runs.find((r) => r.load.name === BARE && r.connections === connections);
    const rps = result.requests.average;
    const ratio = yardstick ? rps / yardstick.result.requests.average : 0;
    const which = yardstickOf(load);
    const sql = which ? yardsticks.get(yardstickKey(which, connections)) : undefined;
    const sqlRatio = sql ? rps / sql : undefined;
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
        value: errorText(run),
        ...(load.method === 'POST' ? { goal: '0', met: errorsOf(run) === 0 } : {}),
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
      ledgerCheckFigure('buy', check),
    ];
  } finally {
    await handle.close();
  }
}

const ledgerCheckFigure = (label: string, check: LedgerCheck): Figure => ({
  benchmark: 'api',
  figure: `${label}: ledger check (sums zero, balances = postings)`,
  value: check.ok ? 'ok' : `FAILED ${JSON.stringify(check)}`,
  goal: 'ok',
  met: check.ok,
});

/** Answers that were not a success: non-2xx, socket errors (timeouts among them), and 2xx refusals. */
const errorsOf = ({ result, refused }: Measured) => result.non2xx + result.errors + refused;

function errorText(run: Measured): string {
  const errors = errorsOf(run);
  const { non2xx, errors: socket, timeouts } = run.result;
  return `${int(errors)}${errors ? ` (non-2xx ${non2xx}, socket ${socket}, timeouts ${timeouts}, refused ${run.refused})` : ''}`;
}

const load1 = () => loadavg()[0]?.toFixed(2) ?? '?';
const loadAtStart = load1();

/** The run without BENCH_HOLDERS: a fresh database of its own, dropped afterwards. */
async function freshDatabaseBench(): Promise<void> {
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
}

/** The platform the BENCH_HOLDERS one is held against. */
const SMALL_PLATFORM = 200;
/** Holders with a session on each platform. */
const SESSIONS = 200;
/** Chain holders among them: teams from the whole platform (holder 1) down to a branch. */
const TEAM_HOLDERS = [1, 11, 21, 31, 41, CHAIN + 1];
/** Each session holder's wallet: far more than the runs' 1-AIC buys take. */
const FUNDING = 10_000n * UNIT;
const HOLDER_GOALS = { rpsRatio: 0.8, cpuRatio: 1.25, overAsset: 3 };
/** The traffic while a day settles stops when the day is done, or after this many seconds. */
const DAY_TRAFFIC_MAX_S = 3_600;
const MONTH = FIRST_DAY.slice(0, 7);

/**
 * SESSIONS ids spread evenly over the platform's, the TEAM_HOLDERS not among them put in place of
 * the first ids past the chain (the rest stay evenly spread).
 */
function sessionHolders(platformHolders: number): number[] {
  const ids = Array.from({ length: SESSIONS }, (_, i) => Math.floor((i * platformHolders) / SESSIONS) + 1);
  const missing = TEAM_HOLDERS.filter((id) => !ids.includes(id));
  let at = ids.findIndex((id) => id > CHAIN + 1);
  for (const id of missing) ids[at++] = id;
  return ids;
}

type Sessions = { ids: number[]; tokens: string[]; buyers: string[] };

const teamsAmong = (sessions: Sessions) => sessions.ids.filter((id) => TEAM_HOLDERS.includes(id)).sort((a, b) => a - b);

/** A session each for the session holders, as a sign-in makes it, and FUNDING in each one's wallet. */
async function openSessions(dbUrl: string, platformHolders: number): Promise<Sessions> {
  const ids = sessionHolders(platformHolders);
  const handle = await connect({ databaseUrl: dbUrl, poolSize: 8 });
  try {
    const now = new Date();
    await handle.db.transaction().execute((trx) =>
      postEntry(trx, {
        kind: 'bench',
        ref: 'bench:sessions',
        at: now,
        postings: [
          { userId: SYSTEM, asset: 'AIC', kind: 'exchange', amount: -FUNDING * BigInt(ids.length) },
          ...ids.map((id) => ({ userId: BigInt(id), asset: 'AIC' as const, kind: 'wallet' as const, amount: FUNDING })),
        ],
      }),
    );
    const tokens = await inPool(ids.length, 8, (i) => createSession(handle.db, BigInt(ids[i] ?? 0), now, 30, 'bench'));
    // Holder 1, the tree's root, has no inviter, and a buy needs one.
    return { ids, tokens, buyers: tokens.filter((_, i) => ids[i] !== 1) };
  } finally {
    await handle.close();
  }
}

/** The holder-facing routes, each round the sessions (the buy round those who may buy). */
function holderLoads(api: string, sessions: Sessions): Load[] {
  const idleUrl = `${api}/readyz`;
  const read = (path: string, query?: string, label?: string) => readLoad(api, idleUrl, path, sessions.tokens, query, label);
  return [
    read(PATHS.getAsset),
    buyLoad(api, idleUrl, sessions.buyers),
    // The month a holder opens (the server's, with the buys above) and the settled days' month.
    read(PATHS.statementMonthly, 'limit=50', 'this month'),
    read(PATHS.statementMonthly, `month=${MONTH}&limit=50`, 'settled month'),
    read(PATHS.userInfo),
    read(PATHS.inviteRecords, 'limit=20'),
    read(PATHS.rewardLog, 'limit=20'),
    read(PATHS.notifications, 'limit=20'),
  ];
}

/** Every holder-facing load in turn on a server of `platform`'s own, with the CPU each run took. */
async function runHolderLoads(platform: Platform, sessions: Sessions): Promise<Measured[]> {
  const runs: Measured[] = [];
  const server = await startBenchServer(platform.url);
  try {
    for (const load of holderLoads(`http://127.0.0.1:${server.port}`, sessions)) {
      const analysed = await analyzeAsAutovacuumWould(platform.url);
      if (analysed.length) console.log(`analysed as autovacuum would have: ${analysed.join(', ')}`);
      await series(load, runs, server.pid);
    }
  } finally {
    await server.stop();
  }
  return runs;
}

type PerRequest = { serverMs: number | null; databaseMs: number | null; totalMs: number | null };

/** A run's CPU milliseconds over the requests it completed. */
function cpuPerRequest(run: Measured): PerRequest {
  const completed = run.result.requests.total;
  const per = (s: number | null | undefined) => (s === null || s === undefined || completed === 0 ? null : (s * 1000) / completed);
  const serverMs = per(run.cpu?.serverS);
  const databaseMs = per(run.cpu?.databaseS);
  return { serverMs, databaseMs, totalMs: serverMs === null || databaseMs === null ? null : serverMs + databaseMs };
}

const ratioOf = (a: number | null, b: number | null) => (a === null || b === null || b === 0 ? null : a / b);
const ratioText = (ratio: number | null) => (ratio === null ? 'n/a' : `${ratio.toFixed(2)}x`);
const ms = (value: number | null) => (value === null ? 'n/a' : value.toFixed(3));
const isAsset = (load: Load) => load.name === `GET ${PATHS.getAsset}`;
const platformLabel = (platformHolders: number) => `${int(platformHolders)} holders`;

/** Each run's req/s, latency, errors and CPU a request; each read's CPU a request over getAsset's. */
function holderRunFigures(label: string, runs: Measured[]): Figure[] {
  return runs.flatMap((run) => {
    const { load, connections, result } = run;
    const at = `${label}: ${load.name} @${connections}`;
    const cpu = cpuPerRequest(run);
    const asset = runs.find((r) => isAsset(r.load) && r.connections === connections);
    const overAsset = asset && load.method !== 'POST' && !isAsset(load) ? ratioOf(cpu.totalMs, cpuPerRequest(asset).totalMs) : undefined;
    const figures: Figure[] = [
      { benchmark: 'api', figure: `${at}: req/s`, value: int(result.requests.average) },
      { benchmark: 'api', figure: `${at}: p50 / p99 ms`, value: `${result.latency.p50} / ${result.latency.p99}` },
      { benchmark: 'api', figure: `${at}: errors`, value: errorText(run), goal: '0', met: errorsOf(run) === 0 },
      {
        benchmark: 'api',
        figure: `${at}: CPU ms a request (server + database)`,
        value: `${ms(cpu.totalMs)} (${ms(cpu.serverMs)} + ${ms(cpu.databaseMs)})`,
      },
    ];
    if (overAsset !== undefined) {
      figures.push({
        benchmark: 'api',
        figure: `${at}: CPU a request over getAsset's`,
        value: ratioText(overAsset),
        goal: `<= ${HOLDER_GOALS.overAsset}x`,
        met: overAsset !== null && overAsset <= HOLDER_GOALS.overAsset,
      });
    }
    return figures;
  });
}

/** Each route on the large platform over the same route on the small one: req/s, and CPU a request. */
function ratioFigures(small: Measured[], large: Measured[]): Figure[] {
  return large.flatMap((run) => {
    const same = small.find((r) => r.load.name === run.load.name && r.connections === run.connections);
    if (!same) return [];
    const at = `${run.load.name} @${run.connections}: ${int(holders)} / ${SMALL_PLATFORM} holders`;
    const rps = run.result.requests.average / same.result.requests.average;
    const cpu = ratioOf(cpuPerRequest(run).totalMs, cpuPerRequest(same).totalMs);
    return [
      { benchmark: 'api', figure: `${at}, req/s`, value: ratioText(rps), goal: `>= ${HOLDER_GOALS.rpsRatio}x`, met: rps >= HOLDER_GOALS.rpsRatio },
      {
        benchmark: 'api',
        figure: `${at}, CPU a request`,
        value: ratioText(cpu),
        goal: `<= ${HOLDER_GOALS.cpuRatio}x`,
        met: cpu !== null && cpu <= HOLDER_GOALS.cpuRatio,
      },
    ];
  });
}

async function ledgerFigure(label: string, dbUrl: string): Promise<Figure> {
  const handle = await connect({ databaseUrl: dbUrl, poolSize: 2 });
  try {
    return ledgerCheckFigure(label, await checkLedger(handle.db));
  } finally {
    await handle.close();
  }
}

/**
 * Requests a second of the whole mixed load around the day (BENCH_DAY_RATE, 0: as fast as the
 * server answers). A platform's traffic comes at its own rate rather than as fast as it can be
 * answered; flat out, two cores shared with the settlement leave the day a fraction of them.
 */
const DAY_RATE = Number(process.env.BENCH_DAY_RATE ?? 500);
/** BENCH_DURING_DAY: 1 adds the day under traffic to the routes' runs; only: the day alone. */
const DURING_DAY = process.env.BENCH_DURING_DAY;

/**
 * The loads at once, the first of BENCH_CONNECTIONS shared between them, at DAY_RATE in all, for
 * `duration` or until `until` settles.
 */
function mixed(loads: Load[], duration: number, until?: Promise<unknown>): Promise<Measured[]> {
  const total = connectionCounts[0] ?? 100;
  const share = (i: number) => Math.max(1, Math.floor(total / loads.length) + (i < total % loads.length ? 1 : 0));
  const rate = DAY_RATE > 0 ? Math.max(1, Math.round(DAY_RATE / loads.length)) : undefined;
  return Promise.all(loads.map((load, i) => measure(load, share(i), duration, until, rate)));
}

type UnderLoad = { before: Measured[]; during: Measured[]; settled: Omit<Settled, 'vacuumS'>; cpu: { before: Cpu; during: Cpu } };

/**
 * The mixed load just before `day` settles, then from the moment it starts settling until it is
 * done; with the CPU of each window (the server's process and the database's).
 */
async function settleUnderLoad(ctx: AppContext, day: string, loads: Load[], idleUrl: string, serverPid: number): Promise<UnderLoad> {
  await mixed(loads, warmup);
  await drained(idleUrl);
  const beforeStart = cpuNow(serverPid);
  const before = await mixed(loads, seconds);
  const beforeCpu = cpuSince(beforeStart, cpuNow(serverPid));
  await drained(idleUrl);
  const duringStart = cpuNow(serverPid);
  const settling = settleVacuumed(ctx, day, true);
  const during = await mixed(loads, DAY_TRAFFIC_MAX_S, settling);
  const settled = await settling;
  return { before, during, settled, cpu: { before: beforeCpu, during: cpuSince(duringStart, cpuNow(serverPid)) } };
}

/**
 * The traffic's CPU a request before the day (server / database / the load generator, this
 * process), and during it, the database's less what the day alone used: what the traffic costs
 * the cores the day shares. During the day this process also drives the day.
 */
function trafficCpuText(runs: Measured[], cpu: Cpu, during?: { dayAloneS: number | null }): string {
  const requests = runs.reduce((sum, run) => sum + run.result.requests.total, 0);
  const perRequest = (s: number | null) => (s === null || requests === 0 ? 'n/a' : `${((s * 1000) / requests).toFixed(2)} ms`);
  const dayAloneS = during ? during.dayAloneS : 0;
  const database = cpu.databaseS === null || dayAloneS === null ? null : cpu.databaseS - dayAloneS;
  const bench = during ? "the load generator and the day's driver" : 'the load generator';
  return `${int(requests)} requests; server ${perRequest(cpu.serverS)}, database ${perRequest(database)}, ${bench} ${perRequest(cpu.benchS)} a request`;
}

/**
 * On the large platform: one more day settled without traffic, the next under the mixed load
 * (settled here, on a pool of its own, as bench/day.ts settles), then that day's income verified.
 */
async function duringDay(platform: Platform, sessions: Sessions): Promise<Figure[]> {
  const quietDay = addDays(FIRST_DAY, SETTLED_DAYS);
  const busyDay = addDays(quietDay, 1);
  // Four connections: the rebates and the proof run parts side by side on connections of their own.
  const handle = await connect({ databaseUrl: platform.url, poolSize: 4 });
  try {
    const ctx = benchContext(handle.db, `${quietDay}T23:00:00Z`);
    const quiet = await settleOne(ctx, quietDay, true);
    console.log(`\nday ${quietDay} settled without traffic in ${quiet.totalS.toFixed(1)} s; day ${busyDay} under the mixed load:`);
    await vacuumBefore(ctx, busyDay);
    const server = await startBenchServer(platform.url);
    let underLoad: UnderLoad;
    try {
      const api = `http://127.0.0.1:${server.port}`;
      underLoad = await settleUnderLoad(ctx, busyDay, holderLoads(api, sessions), `${api}/readyz`, server.pid);
    } finally {
      await server.stop();
    }
    for (const run of underLoad.during) console.log(`${run.load.name} @${run.connections}: ${runLine(run.result)}`);
    const verified = await verifyDay(handle.db, ctx.config, busyDay);
    const label = platformLabel(platform.holders);
    const slower = underLoad.settled.totalS / quiet.totalS;
    return [
      { benchmark: 'api', figure: `${label}: day ${quietDay} settled without traffic s`, value: quiet.totalS.toFixed(1) },
      {
        benchmark: 'api',
        figure: `${label}: day ${busyDay} settled under the mixed load s`,
        value: `${underLoad.settled.totalS.toFixed(1)} (${slower.toFixed(2)}x the day without)`,
      },
      // Which steps the traffic slows, and the database's CPU for each day: its share of the cores.
      { benchmark: 'api', figure: `${label}: day ${quietDay} steps s`, value: stepsText(quiet.steps) },
      { benchmark: 'api', figure: `${label}: day ${busyDay} steps s, under the load`, value: stepsText(underLoad.settled.steps) },
      {
        benchmark: 'api',
        figure: `${label}: database CPU s while the day settles, without / under the load`,
        value: `${quiet.databaseCpuS?.toFixed(1) ?? 'n/a'} / ${underLoad.settled.databaseCpuS?.toFixed(1) ?? 'n/a'}`,
      },
      { benchmark: 'api', figure: `${label}: the load's CPU before the day`, value: trafficCpuText(underLoad.before, underLoad.cpu.before) },
      {
        benchmark: 'api',
        figure: `${label}: the load's CPU while the day settles (database: less the day alone's)`,
        value: trafficCpuText(underLoad.during, underLoad.cpu.during, { dayAloneS: quiet.databaseCpuS }),
      },
      ...underLoad.during.flatMap((run, i) => dayRouteFigures(`${label} while day ${busyDay} settles`, run, underLoad.before[i])),
      {
        benchmark: 'api',
        figure: `${label}: income verifier, day ${busyDay}`,
        value: verified.problemCount ? `FAILED: ${verified.problemCount} problems (${verified.problems.slice(0, 3).join('; ')})` : `ok (${int(verified.lines)} lines)`,
        goal: 'ok',
        met: verified.problemCount === 0,
      },
      await ledgerFigure(`${label} after day ${busyDay}`, platform.url),
    ];
  } finally {
    await handle.close();
  }
}

/** A route's req/s, p99 and errors while the day settles, beside the same just before it. */
function dayRouteFigures(label: string, during: Measured, before: Measured | undefined): Figure[] {
  const at = `${label}: ${during.load.name} @${during.connections}`;
  const rps = during.result.requests.average;
  const beforeRps = before?.result.requests.average ?? 0;
  return [
    { benchmark: 'api', figure: `${at}: req/s (before the day)`, value: `${int(rps)} (${int(beforeRps)}: ${ratioText(beforeRps ? rps / beforeRps : null)})` },
    { benchmark: 'api', figure: `${at}: p99 ms (before the day)`, value: `${during.result.latency.p99} (${before?.result.latency.p99 ?? 'n/a'})` },
    {
      benchmark: 'api',
      figure: `${at}: errors (before the day)`,
      value: `${errorText(during)} (${before ? errorText(before) : 'n/a'})`,
      goal: '0',
      met: errorsOf(during) === 0,
    },
  ];
}

/** The run with BENCH_HOLDERS: the holder-facing routes on that platform and on SMALL_PLATFORM's. */
async function holdersBench(): Promise<void> {
  if (!Number.isInteger(holders) || holders < SESSIONS) throw new Error(`BENCH_HOLDERS: a whole number, at least ${SESSIONS}`);
  const platforms: Platform[] = [];
  try {
    for (const size of [SMALL_PLATFORM, holders]) {
      platforms.push(await populatedDatabase(base, size, process.env.BENCH_REUSE === '1'));
    }
    const figures: Figure[] = platforms.map((p) => ({
      benchmark: 'api',
      figure: `${platformLabel(p.holders)}: population, ${SETTLED_DAYS} settled days s`,
      value: p.builtS === null ? 'reused (BENCH_REUSE)' : p.builtS.toFixed(1),
    }));
    const measured: { platform: Platform; sessions: Sessions; runs: Measured[] }[] = [];
    if (DURING_DAY === 'only') {
      const large = platforms[1] as Platform;
      figures.push(...(await duringDay(large, await openSessions(large.url, large.holders))));
      return finish(figures);
    }
    for (const platform of platforms) {
      const sessions = await openSessions(platform.url, platform.holders);
      console.log(`\n${platformLabel(platform.holders)}: ${SESSIONS} sessions, chain holders ${teamsAmong(sessions).join(', ')} among them`);
      const runs = await runHolderLoads(platform, sessions);
      measured.push({ platform, sessions, runs });
      figures.push(...holderRunFigures(platformLabel(platform.holders), runs), await ledgerFigure(platformLabel(platform.holders), platform.url));
    }
    const [small, large] = measured as [(typeof measured)[0], (typeof measured)[0]];
    figures.push(...ratioFigures(small.runs, large.runs));
    figures.push({
      benchmark: 'api',
      figure: 'session holders (every route, both platforms)',
      value: `${SESSIONS} spread over the ids, chain holders ${teamsAmong(large.sessions).join(', ')} (deep teams) among them; buys by the ${large.sessions.buyers.length} with an inviter`,
    });
    if (DURING_DAY === '1') figures.push(...(await duringDay(large.platform, large.sessions)));
    finish(figures);
  } finally {
    for (const platform of platforms) await platform.release();
  }
}

function finish(figures: Figure[]): void {
  figures.push({ benchmark: 'api', figure: 'load average (1 min) at start / end', value: `${loadAtStart} / ${load1()}` });
  report(`Holder-facing API, ${int(holders)} holders against ${SMALL_PLATFORM}, ${seconds} s a run (connections: ${connectionCounts.join(', ')})`, figures);
}

if (holders) await holdersBench();
else await freshDatabaseBench();
