/**
 * API load benchmark: autocannon on loopback against the real server (node --import tsx
 * server/main.ts) on PostgreSQL. Three modes.
 *
 *   npx tsx bench/api.ts
 * On a fresh database, next to a bare Fastify as the yardstick: GET /api/home, GET /api/getAsset
 * (signed in) and POST /api/product/buy (1 AIC, a fresh Idempotency-Key each, spread over
 * BENCH_USERS users, each signed in over HTTP through the server's embedded exchange, so holding
 * a grant there as a real sign-in leaves it, bound and funded by a transfer in from the
 * exchange) at each of BENCH_CONNECTIONS (default "100 1000") for BENCH_SECONDS (default 10)
 * each, then checks the ledger: no overdraft, postings match balances. It prints how many users
 * hold a grant and for how many getAsset shows the exchange's balance. BENCH_ROUTES picks routes
 * (default "home asset buy"); BENCH_CPU_PROF=<dir> writes the server's CPU profile there. After
 * the server stops, pgbench runs each route's own SQL for the same users at the same concurrency
 * (up to 90 clients: PostgreSQL's 100 connections) as its yardstick.
 *
 *   BENCH_HOLDERS=1000000 [BENCH_REUSE=1] [BENCH_DURING_DAY=1] npx tsx bench/api.ts
 * Every holder-facing route on a platform of BENCH_HOLDERS holders against the same on 200
 * holders: two databases populated as bench/day.ts populates its schema (the tree, one order
 * each, proof nonces; bench/population.ts) with three settled days, income notices included, the
 * 200-holder one first (built and measured before the large one is built). BENCH_REUSE=1 keeps
 * each populated database (bench_api_pop_<holders>, drop it by hand), reuses it when complete and
 * built by today's migrations, and runs on a copy of it. On each, 200 session holders spread
 * evenly over the ids (i * N / 200 + 1), with the chain holders 1, 11, 21, 31, 41 and 51 (the
 * deepest teams) in place of the first spread ids past the chain, each given 10,000 AIC and
 * signed in over HTTP through the embedded exchange as the account of theirs it is made to know
 * (bench/holderSessions.ts): a session and a grant each, as a real sign-in leaves them, so the
 * routes that ask the exchange do. The routes are read from the server's OpenAPI document
 * (/docs/json; bench/holderRoutes.ts): every GET that asks for the bearer and is not under
 * /api/operator/, with the query a small table gives by path (an order of the holder's, an
 * invitation code not theirs, the page size; the monthly statement twice: this month and the
 * settled days' month); a route needing a parameter the table lacks stops the bench, named.
 * Then getAsset first, the buy (round the holders with an inviter; holder 1, the root, has none)
 * second, getAsset again on the orders the buys left, the other GETs in the document's order, each round the sessions at each of
 * BENCH_CONNECTIONS (default "100") for BENCH_SECONDS: req/s, p50 / p99, errors and CPU
 * milliseconds a request (the server process, and every PostgreSQL process on the machine), then
 * N / 200 of req/s (goal >= 0.8x) and of CPU a request, and each read's CPU a request over
 * getAsset's last run before it (<= 3x); no errors. Before each route's runs, with autovacuum off (as this machine's
 * CI has it), the tables it would have analysed by then are (`analyzeAsAutovacuumWould`), and a
 * checkpoint writes the pages the runs before dirtied.
 * BENCH_DURING_DAY=1 then, on the N-holder database, settles one more day without traffic, and
 * the next under a mixed load (every route at once, the first of BENCH_CONNECTIONS shared
 * between them, BENCH_DAY_RATE requests a second in all, default 500) from the day's start to its
 * end, against the same load just before it; then the income verifier on that day and the ledger
 * check. BENCH_DURING_DAY=only runs that day alone, without the routes' runs before it.
 *
 *   BENCH_OVERLOAD=1 [BENCH_HOLDERS=...] npx tsx bench/api.ts
 * Instead of the runs above, far more load than the machine serves (bench/overload.ts):
 * BENCH_OVERLOAD_CONNECTIONS (1,000) split between GET product/info and POST product/buy at once
 * for BENCH_SECONDS, on the fresh database's signed-in users, or with BENCH_HOLDERS on the
 * session holders of a platform of that many holders (bench/day's population). Per route: the
 * admitted answers (2xx) and their p99 (< 1000 ms), 503s and how many carried Retry-After, other
 * non-2xx (no 5xx but 503), the client's timeouts (set above the server's REQUEST_TIMEOUT_MS:
 * none) and socket errors; the server's peak RSS (VmRSS every 200 ms); orders written against the
 * buys answered as done, plus those whose answer the load's end cut off (none lost), and the
 * ledger check.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import pg from 'pg';
import { PATHS } from '../contract/paths.ts';
import { callApi } from '../e2e/support/api.ts';
import { signInOverHttp } from '../e2e/support/httpSignIn.ts';
import { freePort, type RunningServer } from '../e2e/support/server.ts';
import type { AppContext } from '../server/context.ts';
import { connect } from '../server/db/connect.ts';
import { checkLedger, type LedgerCheck } from '../server/ledger/ledger.ts';
import { addDays } from '../server/platform/clock.ts';
import { verifyDay } from '../server/settlement/verify.ts';
import {
  buyLoad,
  type Cpu,
  cpuNow,
  cpuSince,
  drained,
  errorsOf,
  errorText,
  inPool,
  type Load,
  type Measured,
  measure,
  readLoad,
  runLine,
  startBenchServer,
} from './apiLoad.ts';
import { benchContext } from './context.ts';
import { type HolderGet, holderGets } from './holderRoutes.ts';
import { type Grants, grantsFigure, grantsInPlace, grantsLine, openSessions, SESSIONS, type Sessions, teamsAmong } from './holderSessions.ts';
import { OVERLOAD_CONNECTIONS, overloadFigures } from './overload.ts';
import { benchUserRange, hasBuyFunction, pgbench, YARDSTICKS, type Yardstick } from './pgbench.ts';
import {
  analyzeAsAutovacuumWould,
  FIRST_DAY,
  type Platform,
  databaseCpuS,
  populatedDatabase,
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
const overload = process.env.BENCH_OVERLOAD === '1';
const reuse = process.env.BENCH_REUSE === '1';
const connectionCounts = (process.env.BENCH_CONNECTIONS ?? (holders ? '100' : '100 1000')).split(' ').map(Number);
const userCount = Number(process.env.BENCH_USERS ?? 200);
const routes = new Set((process.env.BENCH_ROUTES ?? 'home asset buy').split(' '));
const HOME_GOAL = { ratio: 0.5, p99: 20, connections: 100 };
const BUY_GOAL = { rps: 3_000, ratio: 0.8, p99: 100 };
const ASSET_GOAL = { rps: 10_000, ratio: 0.25, p99: 20 };
/** PostgreSQL's default 100 connections, less room for the bench's own. */
const PGBENCH_MAX_CLIENTS = 90;

async function startBare(): Promise<{ origin: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/bare-server.ts'], {
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const origin = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 120; i++) {
    if (await fetch(`${origin}/bare`).then((r) => r.ok, () => false)) return { origin, child };
    await new Promise((r) => setTimeout(r, 250));
  }
  child.kill('SIGTERM');
  throw new Error('bare server did not start');
}

const BARE = 'bare Fastify';

const warmup = Math.max(1, Math.round(seconds / 5));

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

/**
 * BENCH_USERS users signed in over HTTP through the embedded exchange (each with a grant there),
 * bound under one inviter and funded by a transfer in from the exchange: their tokens, and
 * whether their grants are in place.
 */
async function signInUsers(server: RunningServer, dbUrl: string): Promise<{ tokens: string[]; grants: Grants }> {
  const { baseUrl } = server;
  const started = performance.now();
  const inviter = await signInOverHttp(baseUrl, { name: 'bench inviter' });
  const { inviteCode } = await callApi<{ inviteCode: string }>(baseUrl, PATHS.userInfo, inviter.token);
  const users = await inPool(userCount, 8, async (i) => {
    const user = await signInOverHttp(baseUrl, { name: `bench ${i}` });
    await callApi(baseUrl, PATHS.bindInviter, user.token, { inviteCode });
    await callApi(baseUrl, PATHS.transferIn, user.token, { asset: 'AIC', amount: '10000' });
    return user;
  });
  console.log(`${userCount} users signed in, bound and funded in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  const tokens = users.map((u) => u.token);
  const handle = await connect({ databaseUrl: dbUrl, poolSize: 2 });
  try {
    const grants = await grantsInPlace(handle.db, baseUrl, users.map((u) => u.userId), tokens);
    console.log(`grants: ${grantsLine(grants)}`);
    return { tokens, grants };
  } finally {
    await handle.close();
  }
}

/** Starts the bare yardstick and the real server on `dbUrl`, and runs every load against them. */
async function runLoads(dbUrl: string): Promise<{ runs: Measured[]; grants: Grants }> {
  const runs: Measured[] = [];
  const bare = await startBare();
  let server: RunningServer | undefined;
  try {
    server = await startBenchServer(dbUrl);
    await series({ name: BARE, origin: bare.origin, idleUrl: `${bare.origin}/bare`, next: () => ({ path: '/bare' }) }, runs);
    const { tokens, grants } = await signInUsers(server, dbUrl);
    const api = `http://127.0.0.1:${server.port}`;
    const idleUrl = `${api}/readyz`;
    if (routes.has('home')) await series({ name: `GET ${PATHS.home}`, origin: api, idleUrl, next: () => ({ path: PATHS.home }) }, runs);
    if (routes.has('asset')) await series(readLoad(api, PATHS.getAsset, tokens), runs);
    if (routes.has('buy')) await series(buyLoad(api, tokens), runs);
    return { runs, grants };
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

const load1 = () => loadavg()[0]?.toFixed(2) ?? '?';
const loadAtStart = load1();
const loadFigure = (): Figure => ({ benchmark: 'api', figure: 'load average (1 min) at start / end', value: `${loadAtStart} / ${load1()}` });

/** `work` on a fresh database of its own (its URL), dropped afterwards. */
async function onFreshDatabase<T>(work: (dbUrl: string) => Promise<T>): Promise<T> {
  const name = `bench_api_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const dbUrl = new URL(base);
  dbUrl.pathname = `/${name}`;
  try {
    return await work(dbUrl.href);
  } finally {
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}

/** The run without BENCH_HOLDERS: a fresh database of its own, dropped afterwards. */
async function freshDatabaseBench(): Promise<void> {
  await onFreshDatabase(async (dbUrl) => {
    const { runs, grants } = await runLoads(dbUrl);
    // The ledger is read before pgbench adds orders of its own.
    const ledger = routes.has('buy') ? await ledgerFigures(dbUrl, runs) : [];
    const yardsticks = await measureYardsticks(dbUrl);
    const figures = [grantsFigure(`${userCount} users`, grants), ...runFigures(runs, yardsticks), ...yardstickFigures(yardsticks), ...ledger, loadFigure()];
    report(`API on loopback, ${seconds} s a run, ${userCount} users (connections: ${connectionCounts.join(', ')})`, figures);
  });
}

/** The platform the BENCH_HOLDERS one is held against. */
const SMALL_PLATFORM = 200;
const HOLDER_GOALS = { rpsRatio: 0.8, overAsset: 3 };
/** The traffic while a day settles stops when the day is done, or after this many seconds. */
const DAY_TRAFFIC_MAX_S = 3_600;

/** A holder GET's load round the sessions, each holder with its own query. */
const getLoad = (origin: string, sessions: Sessions, get: HolderGet): Load => readLoad(origin, get.path, sessions.tokens, get.query, get.label);

/** getAsset again once the buys have given each session holder their orders: the reads after it are held against it. */
const AFTER_BUYS = 'after the buys';

/**
 * The holder-facing loads on the server at `origin`: getAsset first (each read's CPU is held
 * against it), the buy (round those who may buy), getAsset again on the holders the buys left,
 * then every other holder GET of its document.
 */
async function holderLoads(origin: string, sessions: Sessions): Promise<{ loads: Load[]; gets: HolderGet[] }> {
  const gets = await holderGets(origin, sessions.values);
  const asset = gets.find((g) => g.path === PATHS.getAsset);
  if (!asset) throw new Error(`${PATHS.getAsset} is not among the holder GETs of the document: the CPU ratios are held against it`);
  const buys = [buyLoad(origin, sessions.buyers), getLoad(origin, sessions, { ...asset, label: AFTER_BUYS })];
  // BENCH_HOLDER_ROUTES: only the loads whose name holds one of these words (getAsset always runs:
  // the CPU ratios are held against it; "buy" brings getAsset after the buys too), to measure a few routes again.
  const only = process.env.BENCH_HOLDER_ROUTES?.split(' ').filter(Boolean);
  const picked = (name: string) => !only || only.some((word) => name.includes(word));
  const others = gets.filter((g) => g !== asset).map((g) => getLoad(origin, sessions, g));
  return { loads: [getLoad(origin, sessions, asset), ...(picked('buy') ? buys : []), ...others.filter((l) => picked(l.name))], gets };
}

/** The routes found, one a line, each with its query as the first session holder sends it. */
const getsText = (gets: HolderGet[]) => gets.map((g) => `  GET ${g.path}${g.example ? `?${g.example}` : ''}${g.label ? ` (${g.label})` : ''}`).join('\n');
const getsCount = (gets: HolderGet[]) => `${new Set(gets.map((g) => g.path)).size} routes, ${gets.length} loads`;

/** The export's yardstick: the same CSV by one statement, its calls a second and database CPU a call. */
type CsvYardstick = { clients: number; tps: number; databaseMs: number | null };
type PlatformRuns = { platform: Platform; sessions: Sessions; gets: HolderGet[]; runs: Measured[]; csv: CsvYardstick | null };

const isCsv = (load: Load) => load.name === `GET ${PATHS.statementCsv}`;

/**
 * When the export ran: the same CSV by one hand-written statement (bench/pgbench.ts), for the
 * same session holders at the export's connections (up to 90 of PostgreSQL's 100), with the
 * database's CPU over the run: what the rows cost with nothing of Node in between.
 */
async function csvYardstick(platform: Platform, runs: Measured[]): Promise<CsvYardstick | null> {
  const run = runs.find((r) => isCsv(r.load));
  if (!run) return null;
  const clients = Math.min(run.connections, 90);
  const before = databaseCpuS();
  const tps = await pgbench(platform.url, 'statementCsv', clients, seconds, { holders: platform.holders });
  const after = databaseCpuS();
  return { clients, tps, databaseMs: before === null || after === null ? null : ((after - before) * 1000) / (tps * seconds) };
}

/** The export's CPU a request over its yardstick's database CPU a call. */
function csvFigures(label: string, runs: Measured[], csv: CsvYardstick | null): Figure[] {
  const run = runs.find((r) => isCsv(r.load));
  if (!csv || !run) return [];
  const at = `${label}: ${YARDSTICKS.statementCsv.name} @${csv.clients}`;
  return [
    { benchmark: 'api', figure: `${at}: calls/s, database CPU ms a call`, value: `${int(csv.tps)}, ${ms(csv.databaseMs)}` },
    { benchmark: 'api', figure: `${label}: ${run.load.name}: CPU a request over it`, value: ratioText(ratioOf(cpuPerRequest(run).totalMs, csv.databaseMs)) },
  ];
}

/** The session holders signed in on a server of `platform`'s own, then every holder-facing load in turn, with the CPU each run took. */
async function runHolderLoads(platform: Platform): Promise<PlatformRuns> {
  const server = await startBenchServer(platform.url);
  let done: Omit<PlatformRuns, 'csv'>;
  try {
    done = await holderRuns(platform, server);
  } finally {
    await server.stop();
  }
  // After the server: its pool's connections and pgbench's would pass PostgreSQL's 100.
  return { ...done, csv: await csvYardstick(platform, done.runs) };
}

/** The session holders signed in on `server`, then every holder-facing load in turn, with the CPU each run took. */
async function holderRuns(platform: Platform, server: RunningServer): Promise<Omit<PlatformRuns, 'csv'>> {
  const runs: Measured[] = [];
  const sessions = await openSessions(platform, server);
  const label = platformLabel(platform.holders);
  console.log(`\n${label}: ${SESSIONS} sessions, chain holders ${teamsAmong(sessions).join(', ')} among them; ${grantsLine(sessions.grants)}`);
  const { loads, gets } = await holderLoads(`http://127.0.0.1:${server.port}`, sessions);
  console.log(`${label}: the holder GETs of the OpenAPI document (${getsCount(gets)}), the first session holder's queries:\n${getsText(gets)}`);
  for (const load of loads) {
    const analysed = await analyzeAsAutovacuumWould(platform.url);
    if (analysed.length) console.log(`analysed as autovacuum would have: ${analysed.join(', ')}`);
    // The pages an earlier run dirtied (the buys' most) written now, not by a checkpoint
    // during this run, whose database CPU would count it.
    await checkpoint(platform.url);
    await series(load, runs, server.pid);
  }
  return { platform, sessions, gets, runs };
}

/** A checkpoint of the platform's database server. */
async function checkpoint(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('checkpoint');
  } finally {
    await client.end();
  }
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
const isAsset = (load: Load) => load.name === `GET ${PATHS.getAsset}` || load.name === `GET ${PATHS.getAsset} (${AFTER_BUYS})`;
const platformLabel = (platformHolders: number) => `${int(platformHolders)} holders`;

/**
 * Each run's req/s, latency, errors and CPU a request; each read's CPU a request over getAsset's
 * last run before it, on the holders as that read finds them (after the buys, with their orders).
 */
function holderRunFigures(label: string, runs: Measured[]): Figure[] {
  return runs.flatMap((run, i) => {
    const { load, connections, result } = run;
    const at = `${label}: ${load.name} @${connections}`;
    const cpu = cpuPerRequest(run);
    const asset = runs.slice(0, i).findLast((r) => isAsset(r.load) && r.connections === connections);
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

/** Each route on the large platform over the same route on the small one: req/s (held to its goal), and CPU a request. */
function ratioFigures(small: Measured[], large: Measured[]): Figure[] {
  return large.flatMap((run) => {
    const same = small.find((r) => r.load.name === run.load.name && r.connections === run.connections);
    if (!same) return [];
    const at = `${run.load.name} @${run.connections}: ${int(holders)} / ${SMALL_PLATFORM} holders`;
    const rps = run.result.requests.average / same.result.requests.average;
    const cpu = ratioOf(cpuPerRequest(run).totalMs, cpuPerRequest(same).totalMs);
    return [
      { benchmark: 'api', figure: `${at}, req/s`, value: ratioText(rps), goal: `>= ${HOLDER_GOALS.rpsRatio}x`, met: rps >= HOLDER_GOALS.rpsRatio },
      { benchmark: 'api', figure: `${at}, CPU a request`, value: ratioText(cpu) },
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
 * On the large platform: one more day settled without traffic, the next under the mixed load of
 * every holder route (settled here, on a pool of its own, as bench/day.ts settles), then that
 * day's income verified. `given`: the session holders the routes' runs signed in.
 */
async function duringDay(platform: Platform, given?: Sessions): Promise<Figure[]> {
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
      // BENCH_DURING_DAY=only: the session holders sign in on this server.
      const sessions = given ?? (await openSessions(platform, server));
      const { loads } = await holderLoads(api, sessions);
      underLoad = await settleUnderLoad(ctx, busyDay, loads, `${api}/readyz`, server.pid);
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

/** The run with BENCH_HOLDERS: the holder-facing routes on SMALL_PLATFORM's platform, then on that many holders'. */
async function holdersBench(): Promise<void> {
  if (!Number.isInteger(holders) || holders < SESSIONS) throw new Error(`BENCH_HOLDERS: a whole number, at least ${SESSIONS}`);
  const platforms: Platform[] = [];
  try {
    const figures: Figure[] = [];
    const built = (p: Platform): Figure => ({
      benchmark: 'api',
      figure: `${platformLabel(p.holders)}: population, ${SETTLED_DAYS} settled days s`,
      value: p.builtS === null ? 'reused (BENCH_REUSE)' : p.builtS.toFixed(1),
    });
    if (DURING_DAY === 'only') {
      const large = await populatedDatabase(base, holders, reuse);
      platforms.push(large);
      figures.push(built(large), ...(await duringDay(large)));
      return finish(figures);
    }
    const measured: PlatformRuns[] = [];
    // The small platform first: a holder route the bench cannot call stops it before a large build.
    for (const size of [SMALL_PLATFORM, holders]) {
      const platform = await populatedDatabase(base, size, reuse);
      platforms.push(platform);
      const done = await runHolderLoads(platform);
      measured.push(done);
      const label = platformLabel(platform.holders);
      figures.push(
        built(platform),
        { benchmark: 'api', figure: `${label}: holder GETs in the OpenAPI document (each measured below)`, value: getsCount(done.gets) },
        grantsFigure(`${label}, ${SESSIONS} session holders`, done.sessions.grants),
        ...holderRunFigures(label, done.runs),
        ...csvFigures(label, done.runs, done.csv),
        await ledgerFigure(label, platform.url),
      );
    }
    const [small, large] = measured as [PlatformRuns, PlatformRuns];
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
  figures.push(loadFigure());
  report(`Holder-facing API, ${int(holders)} holders against ${SMALL_PLATFORM}, ${seconds} s a run (connections: ${connectionCounts.join(', ')})`, figures);
}

/**
 * BENCH_OVERLOAD=1: the overload alone (bench/overload.ts), on a fresh database's signed-in users
 * or, with BENCH_HOLDERS, on the session holders of a platform of that many holders.
 */
async function overloadBench(): Promise<void> {
  const title = `Overload: ${int(OVERLOAD_CONNECTIONS)} connections on GET ${PATHS.productInfo} and POST ${PATHS.productBuy}, ${seconds} s`;
  if (!holders) {
    await onFreshDatabase(async (dbUrl) => {
      const server = await startBenchServer(dbUrl);
      try {
        const { tokens, grants } = await signInUsers(server, dbUrl);
        const figures = await overloadFigures(server, dbUrl, tokens, tokens, seconds);
        report(`${title}, ${userCount} users`, [grantsFigure(`${userCount} users`, grants), ...figures, loadFigure()]);
      } finally {
        await server.stop();
      }
    });
    return;
  }
  const platform = await populatedDatabase(base, holders, reuse);
  try {
    const server = await startBenchServer(platform.url);
    try {
      const sessions = await openSessions(platform, server);
      const figures = await overloadFigures(server, platform.url, sessions.tokens, sessions.buyers, seconds);
      const label = `${platformLabel(holders)}, ${SESSIONS} session holders`;
      report(`${title}, ${label}`, [grantsFigure(label, sessions.grants), ...figures, loadFigure()]);
    } finally {
      await server.stop();
    }
  } finally {
    await platform.release();
  }
}

if (overload) await overloadBench();
else if (holders) await holdersBench();
else await freshDatabaseBench();
