/**
 * BENCH_OVERLOAD=1 for bench/api.ts: far more load than the machine can serve, at once on
 * GET product/info and POST product/buy (BENCH_OVERLOAD_CONNECTIONS, 1,000, split between them).
 * What a server under it should still do: answer what it admits in time, turn away the rest
 * quickly (503 with Retry-After where it sheds load), leave no request waiting past its timeout,
 * and lose nothing: every buy answered as done is an order, every order written was answered
 * (or its answer was cut off by the load stopping), and the ledger still checks.
 */
import { readFileSync } from 'node:fs';
import autocannon, { type Result } from 'autocannon';
import { sql } from 'kysely';
import { PATHS } from '../contract/paths.ts';
import type { RunningServer } from '../e2e/support/server.ts';
import { connect } from '../server/db/connect.ts';
import { checkLedger } from '../server/ledger/ledger.ts';
import { buyLoad, drained, type Load, REFUSED, readLoad, type Running, runLine } from './apiLoad.ts';
import { type Figure, int } from './report.ts';

export const OVERLOAD_CONNECTIONS = Number(process.env.BENCH_OVERLOAD_CONNECTIONS ?? 1000);
/** The goals: what is admitted is answered within this; nothing waits past the client's timeout. */
const ADMITTED_P99_MS = 1000;
/**
 * The client's timeout, above the server's own (REQUEST_TIMEOUT_MS, 30 s by default): a request
 * the server neither answers nor times out shows as a timeout.
 */
const TIMEOUT_S = Math.ceil(Number(process.env.REQUEST_TIMEOUT_MS ?? 30_000) / 1000) + 10;

/** What one route's clients saw, answer by answer. */
type Tally = {
  load: Load;
  connections: number;
  /** Milliseconds each 2xx answer took. */
  admittedMs: number[];
  accepted: number;
  refused: number;
  unavailable: number;
  withRetryAfter: number;
  /** Orders the accepted buys answered with. */
  orderIds: Set<string>;
  /** Idempotency keys of buys sent and not answered (yet). */
  unanswered: Set<string>;
  result?: Result;
};

/** What autocannon hands setupClient (autocannon.d.ts types what the other runs use). */
type Client = { on(event: 'response', listener: (status: number, bytes: number, ms: number) => void): void };

const is2xx = (status: number) => status >= 200 && status <= 299;

/** The load on `connections` connections for `seconds`, each answer into `tally`. */
function run(tally: Tally, seconds: number): Running {
  const { load } = tally;
  const options = {
    url: load.origin,
    connections: tally.connections,
    duration: seconds,
    timeout: TIMEOUT_S,
    setupClient: (client: Client) =>
      client.on('response', (status, _bytes, ms) => {
        if (is2xx(status)) tally.admittedMs.push(ms);
      }),
    requests: [
      {
        method: load.method ?? 'GET',
        setupRequest: (request: object, context: Record<string, unknown>) => {
          const call = load.next();
          // One request at a time a connection: the context holds the one in flight.
          const key = call.headers?.['idempotency-key'];
          context.key = key;
          if (key) tally.unanswered.add(key);
          return { ...request, ...call };
        },
        onResponse: (status: number, body: string, context: Record<string, unknown>, headers?: Record<string, unknown>) => {
          if (typeof context.key === 'string') tally.unanswered.delete(context.key);
          if (is2xx(status)) {
            if (REFUSED.test(body)) tally.refused++;
            else {
              tally.accepted++;
              if (load.method === 'POST') tally.orderIds.add((JSON.parse(body) as { data: { id: string } }).data.id);
            }
          } else if (status === 503) {
            tally.unavailable++;
            if (headers?.['retry-after'] !== undefined) tally.withRetryAfter++;
          }
        },
      },
    ],
  };
  return autocannon(options) as Running;
}

/** The server's resident memory now, in bytes (VmRSS), null once it is gone. */
function rssOf(pid: number): number | null {
  try {
    const line = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return line ? Number(line[1]) * 1024 : null;
  } catch {
    return null;
  }
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? (sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0) : 0;
};

/**
 * The overload on `server` (its database `dbUrl`): the read round `tokens`, the buy round
 * `buyers`, for `seconds`; then the orders written against the buys answered, and the ledger.
 */
export async function overloadFigures(server: RunningServer, dbUrl: string, tokens: string[], buyers: string[], seconds: number): Promise<Figure[]> {
  const origin = `http://127.0.0.1:${server.port}`;
  const half = Math.max(1, Math.floor(OVERLOAD_CONNECTIONS / 2));
  const tallies: Tally[] = [readLoad(origin, PATHS.productInfo, tokens), buyLoad(origin, buyers)].map((load, i) => ({
    load,
    connections: i === 0 ? half : Math.max(1, OVERLOAD_CONNECTIONS - half),
    admittedMs: [],
    accepted: 0,
    refused: 0,
    unavailable: 0,
    withRetryAfter: 0,
    orderIds: new Set(),
    unanswered: new Set(),
  }));
  const handle = await connect({ databaseUrl: dbUrl, poolSize: 2 });
  try {
    const before = await sql<{ id: string }>`select coalesce(max(id), 0)::text as id from orders`.execute(handle.db);
    const lastBefore = before.rows[0]?.id ?? '0';
    // The pages the database's copy and the sign-ins dirtied written now, as before each route's
    // runs (bench/api.ts): a checkpoint during the load stalled the buys' commits for seconds.
    await sql`checkpoint`.execute(handle.db);
    let peakRss = rssOf(server.pid) ?? 0;
    const sampler = setInterval(() => (peakRss = Math.max(peakRss, rssOf(server.pid) ?? 0)), 200);
    try {
      await Promise.all(tallies.map(async (tally) => (tally.result = await run(tally, seconds))));
      // Queued requests the server still works off once the clients hang up count too.
      await drained(`${origin}/readyz`);
    } finally {
      clearInterval(sampler);
    }
    for (const t of tallies) if (t.result) console.log(`overload ${t.load.name} @${t.connections}: ${runLine(t.result)}`);

    const buys = tallies[1] as Tally;
    const { rows: written } = await sql<{ id: string }>`select id::text from orders where id > ${lastBefore}::bigint`.execute(handle.db);
    const { rows: cutOff } = await sql<{ id: string | null }>`
      select response_body->'data'->>'id' as id from idempotency_keys
      where key = any(${[...buys.unanswered]}::text[]) and response_status between 200 and 299
        and response_body->>'code' = '0'`.execute(handle.db);
    const writtenIds = new Set(written.map((r) => r.id));
    const cutOffIds = new Set(cutOff.flatMap((r) => (r.id ? [r.id] : [])));
    const answeredMissing = [...buys.orderIds].filter((id) => !writtenIds.has(id)).length;
    const unexplained = [...writtenIds].filter((id) => !buys.orderIds.has(id) && !cutOffIds.has(id)).length;
    const ledger = await checkLedger(handle.db);

    const connections = `${OVERLOAD_CONNECTIONS} connections, ${seconds} s`;
    return [
      ...tallies.flatMap((t) => routeFigures(t, seconds)),
      { benchmark: 'api', figure: `overload (${connections}): server's peak RSS MB (VmRSS every 200 ms)`, value: (peakRss / 2 ** 20).toFixed(0) },
      {
        benchmark: 'api',
        figure: `overload: orders written = buys accepted + buys finished after the load cut their answer off`,
        value:
          `${int(writtenIds.size)} = ${int(buys.orderIds.size)} + ${int(cutOffIds.size)}` +
          (answeredMissing || unexplained ? ` (LOST: ${answeredMissing} accepted without an order, ${unexplained} orders no buy answered)` : ''),
        goal: 'equal, none lost',
        met: answeredMissing === 0 && unexplained === 0,
      },
      {
        benchmark: 'api',
        figure: 'overload: ledger check (sums zero, balances = postings)',
        value: ledger.ok ? 'ok' : `FAILED ${JSON.stringify(ledger)}`,
        goal: 'ok',
        met: ledger.ok,
      },
    ];
  } finally {
    await handle.close();
  }
}

/** A route's admitted answers and their p99, what it turned away and how, what failed. */
function routeFigures(t: Tally, seconds: number): Figure[] {
  const result = t.result as Result;
  const at = `overload: ${t.load.name} @${t.connections}`;
  const codes = Object.entries(result.statusCodeStats).filter(([code]) => !code.startsWith('2') && code !== '503');
  const otherNon2xx = codes.map(([code, { count }]) => `${code}: ${int(count)}`).join(', ') || '0';
  const other5xx = codes.filter(([code]) => code.startsWith('5')).reduce((n, [, { count }]) => n + count, 0);
  const p99 = percentile(t.admittedMs, 99);
  return [
    {
      benchmark: 'api',
      figure: `${at}: admitted (2xx)`,
      value: `${int(t.admittedMs.length)} (${int(t.admittedMs.length / seconds)}/s; ${int(t.accepted)} done, ${int(t.refused)} refused)`,
    },
    {
      benchmark: 'api',
      figure: `${at}: admitted p50 / p99 ms`,
      value: `${percentile(t.admittedMs, 50).toFixed(0)} / ${p99.toFixed(0)}`,
      goal: `p99 < ${ADMITTED_P99_MS}`,
      met: t.admittedMs.length > 0 && p99 < ADMITTED_P99_MS,
    },
    { benchmark: 'api', figure: `${at}: 503 (with Retry-After)`, value: `${int(t.unavailable)} (${int(t.withRetryAfter)})` },
    { benchmark: 'api', figure: `${at}: other non-2xx`, value: otherNon2xx, goal: 'no 5xx but 503', met: other5xx === 0 },
    {
      benchmark: 'api',
      figure: `${at}: timeouts (client's, ${TIMEOUT_S} s) / other socket errors`,
      value: `${int(result.timeouts)} / ${int(result.errors - result.timeouts)}`,
      goal: 'no timeout',
      met: result.timeouts === 0,
    },
    ...(t.load.method === 'POST'
      ? [{ benchmark: 'api', figure: `${at}: unanswered when the load stopped`, value: int(t.unanswered.size) }]
      : []),
  ];
}
