/**
 * What bench/api.ts and its modes share: a load (a route called round the holders' sessions),
 * one autocannon run of it, the bench's server, and the CPU a run took.
 */
import { randomUUID } from 'node:crypto';
import autocannon, { type Result } from 'autocannon';
import { PATHS } from '../contract/paths.ts';
import { type RunningServer, startServer } from '../e2e/support/server.ts';
import { databaseCpuS, processCpuS } from './population.ts';
import { int } from './report.ts';

/** One request of a load: its path with the query, its headers and body. */
type Call = { path: string; headers?: Record<string, string>; body?: string };

export type Load = {
  name: string;
  /** The server's origin (http://127.0.0.1:port). */
  origin: string;
  /** The next request, each call the next holder's. */
  next: () => Call;
  /** Answers quickly once the server has worked off the previous run's queue. */
  idleUrl: string;
  method?: 'POST';
};

/**
 * CPU seconds a run took: the server's process, every PostgreSQL process (null: not on this
 * machine), and this process, which sends the load (and, while a day settles, drives the day).
 */
export type Cpu = { serverS: number | null; databaseS: number | null; benchS: number };
export type Measured = { load: Load; connections: number; result: Result; refused: number; accepted: number; cpu?: Cpu };
/** autocannon's promise is its run, which stop() ends early (autocannon.d.ts leaves it out). */
export type Running = Promise<Result> & { stop: () => void };

/** A JSON envelope whose code is not 0: the route answered 2xx but refused. A CSV is no envelope. */
export const REFUSED = /^\{"code":(?!0[,}])/;

/**
 * One autocannon run; counts 2xx answers whose envelope code is not 0 as refused. With `until`,
 * the run ends when it settles, or after `duration` if sooner.
 */
export async function measure(load: Load, connections: number, duration: number, until?: Promise<unknown>, rate?: number): Promise<Measured> {
  let refused = 0;
  let accepted = 0;
  const running = autocannon({
    url: load.origin,
    connections,
    duration,
    ...(rate ? { overallRate: rate } : {}),
    requests: [
      {
        method: load.method ?? 'GET',
        setupRequest: (request) => ({ ...request, ...load.next() }),
        onResponse: (status, body) => {
          if (status < 200 || status > 299) return;
          if (REFUSED.test(body)) refused++;
          else accepted++;
        },
      },
    ],
  }) as Running;
  until?.then(running.stop, running.stop);
  const result = await running;
  return { load, connections, result, refused, accepted };
}

/** Waits until `url` answers within 50 ms: requests queued by the last run are done. */
export async function drained(url: string): Promise<void> {
  for (let i = 0; i < 120; i++) {
    const start = performance.now();
    await fetch(url).then((r) => r.arrayBuffer(), () => undefined);
    if (performance.now() - start < 50) return;
    await new Promise((r) => setTimeout(r, 500));
  }
}

/** Runs `work` for 0..n-1 with at most `limit` at a time. */
export async function inPool<T>(n: number, limit: number, work: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = new Array(n);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < n; i = next++) out[i] = await work(i);
  };
  await Promise.all(Array.from({ length: Math.min(limit, n) }, worker));
  return out;
}

/** Limits no load reaches: the bench measures the routes, not the per-session limits. */
const UNLIMITED = '100000000';

/** The real server on `dbUrl`, its scheduler off and the limits out of the load's way. */
export const startBenchServer = (dbUrl: string): Promise<RunningServer> =>
  startServer({
    DATABASE_URL: dbUrl,
    SETTLEMENT_INTERVAL_MS: '0',
    LOG_LEVEL: 'warn',
    RATE_LIMIT_POSTS_PER_MINUTE: UNLIMITED,
    RATE_LIMIT_SIGNIN_PER_MINUTE: UNLIMITED,
    RATE_LIMIT_GETS_PER_MINUTE: UNLIMITED,
    RATE_LIMIT_HEAVY_READS_PER_MINUTE: UNLIMITED,
    ...(process.env.BENCH_CPU_PROF ? { NODE_OPTIONS: `--import=${new URL('cpu-profile.mjs', import.meta.url).pathname}` } : {}),
  });

/** What the server's process, the database's and this one have used so far (serverPid: the server's). */
export const cpuNow = (serverPid: number): Cpu => {
  const own = process.cpuUsage();
  return { serverS: processCpuS(serverPid), databaseS: databaseCpuS(), benchS: (own.user + own.system) / 1e6 };
};
export const cpuSince = (before: Cpu, after: Cpu): Cpu => ({
  serverS: before.serverS === null || after.serverS === null ? null : after.serverS - before.serverS,
  databaseS: before.databaseS === null || after.databaseS === null ? null : after.databaseS - before.databaseS,
  benchS: after.benchS - before.benchS,
});

export const runLine = ({ requests, latency, timeouts, statusCodeStats }: Result) => {
  const codes = Object.entries(statusCodeStats).map(([code, { count }]) => `${code}: ${count}`).join(', ');
  return `${int(requests.average)} req/s, p99 ${latency.p99} ms, sent ${requests.sent}, timeouts ${timeouts}, ${codes}`;
};

/** Each call the next holder's index, round `count` holders. */
function rotation(count: number): () => number {
  let turn = 0;
  return () => turn++ % count;
}

const bearer = (token: string | undefined) => ({ authorization: `Bearer ${token ?? ''}` });

/** A signed-in GET of `path`, round the tokens; `query` gives each holder's query string (by index). */
export function readLoad(origin: string, path: string, tokens: string[], query?: (holder: number) => string, label = ''): Load {
  const holder = rotation(tokens.length);
  return {
    name: `GET ${path}${label ? ` (${label})` : ''}`,
    origin,
    idleUrl: `${origin}/readyz`,
    next: () => {
      const i = holder();
      const search = query?.(i) ?? '';
      return { path: `${path}${search ? `?${search}` : ''}`, headers: bearer(tokens[i]) };
    },
  };
}

const PRODUCTS = ['current', 'fixed30', 'reinvest360'];

/** 1 AIC bought with a fresh Idempotency-Key, round the tokens and the products. */
export function buyLoad(origin: string, tokens: string[]): Load {
  const holder = rotation(tokens.length);
  let turn = 0;
  return {
    name: `POST ${PATHS.productBuy}`,
    origin,
    idleUrl: `${origin}/readyz`,
    method: 'POST',
    next: () => ({
      path: PATHS.productBuy,
      headers: { ...bearer(tokens[holder()]), 'content-type': 'application/json', 'idempotency-key': randomUUID() },
      body: JSON.stringify({ product: PRODUCTS[turn++ % PRODUCTS.length], amount: '1' }),
    }),
  };
}

/** Answers that were not a success: non-2xx, socket errors (timeouts among them), and 2xx refusals. */
export const errorsOf = ({ result, refused }: Measured) => result.non2xx + result.errors + refused;

export function errorText(run: Measured): string {
  const errors = errorsOf(run);
  const { non2xx, errors: socket, timeouts } = run.result;
  return `${int(errors)}${errors ? ` (non-2xx ${non2xx}, socket ${socket}, timeouts ${timeouts}, refused ${run.refused})` : ''}`;
}
