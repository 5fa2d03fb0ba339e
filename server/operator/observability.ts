import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { AppContext } from '../context.ts';
import { LATEST_MIGRATION } from '../db/migrate.ts';
import { type PoolWatch, poolOf } from '../db/pool.ts';
import type { StandbyWatch } from '../db/standby.ts';
import { AppError } from '../http/errors.ts';
import { installHealthGauges } from './healthGauges.ts';

/** One registry per app, so tests with several apps in a process do not mix figures. */
export type Metrics = {
  registry: Registry;
  settlementSeconds: Histogram<'step'>;
  /** Requests answered 503 at once by the load shedding (http/pressure.ts), by its reason. */
  requestsShed: Counter<'reason'>;
};

export function createMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  return {
    registry,
    settlementSeconds: new Histogram({
      name: 'aic_settlement_duration_seconds',
      help: 'Time to settle a day or the due current cycles',
      labelNames: ['step'],
      buckets: [0.05, 0.25, 1, 5, 15, 60, 300],
      registers: [registry],
    }),
    requestsShed: new Counter({
      name: 'aic_requests_shed_total',
      help: 'Requests answered 503 at once because the event loop lagged (event_loop) or too many waited for a database connection (pool)',
      labelNames: ['reason'],
      registers: [registry],
    }),
  };
}

/**
 * The PostgreSQL pool's figures at each scrape, and the time each checkout waited for its
 * connection. On PGlite, which has no pool, they stay 0.
 */
function installPoolMetrics(registry: Registry, pool: PoolWatch | undefined): void {
  const gauge = (name: string, help: string, read: (pool: PoolWatch) => number) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        this.set(pool ? read(pool) : 0);
      },
    });
  gauge('aic_db_pool_waiting', 'Requests waiting for a database connection', (p) => p.waiting());
  gauge('aic_db_pool_total', 'Database connections open in the pool', (p) => p.total());
  gauge('aic_db_pool_idle', 'Database connections open and idle in the pool', (p) => p.idle());
  const waits = new Histogram({
    name: 'aic_db_pool_wait_seconds',
    help: 'Time a checkout waited for a database connection (those that timed out too)',
    buckets: [0.001, 0.005, 0.02, 0.1, 0.5, 1, 5],
    registers: [registry],
  });
  pool?.onWait((seconds) => waits.observe(seconds));
}

const digest = (text: string) => createHash('sha256').update(text).digest();

/** Whether the request carries `Authorization: Bearer <token>`, compared in constant time. */
function hasMetricsToken(headers: IncomingHttpHeaders, token: string): boolean {
  const header = headers.authorization;
  if (typeof header !== 'string') return false;
  // Digests of both sides: equal lengths, so the comparison time tells nothing about the token.
  return timingSafeEqual(digest(header), digest(`Bearer ${token}`));
}

/**
 * /metrics, closed by default. With METRICS_PORT it is served only there, on 127.0.0.1 (see
 * listenMetrics), and the main port answers 404; otherwise with METRICS_TOKEN the main port
 * serves it to `Authorization: Bearer <METRICS_TOKEN>` (401 without); with neither, 404.
 */
function mainPortServesMetrics(ctx: AppContext): boolean {
  return ctx.config.metricsPort === undefined && ctx.config.metricsToken !== undefined;
}

/**
 * /healthz (the process answers), /readyz (database reachable, migrations current) and
 * /metrics (Prometheus: requests and latency by route, settlement time, the ledger check;
 * closed unless configured, see mainPortServesMetrics).
 */
export function installObservability(app: FastifyInstance, ctx: AppContext, metrics: Metrics, standby: StandbyWatch): void {
  installHealthGauges(metrics.registry, ctx);
  installPoolMetrics(metrics.registry, poolOf(ctx.db));
  new Gauge({
    name: 'aic_db_synchronous_standbys',
    help: 'Synchronous standbys streaming to the primary (-1: not known, or none asked for)',
    registers: [metrics.registry],
    collect() {
      this.set(standby.synchronousStandbys());
    },
  });
  const requests = new Counter({
    name: 'aic_http_requests_total',
    help: 'Requests by route, method and status',
    labelNames: ['route', 'method', 'status'],
    registers: [metrics.registry],
  });
  const latency = new Histogram({
    name: 'aic_http_request_duration_seconds',
    help: 'Request latency by route',
    labelNames: ['route', 'method'],
    buckets: [0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 1, 5],
    registers: [metrics.registry],
  });

  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    requests.inc({ route, method: request.method, status: String(reply.statusCode) });
    latency.observe({ route, method: request.method }, reply.elapsedTime / 1000);
  });

  const hidden = { schema: { hide: true } };
  app.get('/healthz', hidden, async () => ({ status: 'ok' }));
  app.get('/readyz', hidden, async (_request, reply) => {
    try {
      await sql`select 1`.execute(ctx.db);
      const latest = await sql<{ name: string }>`
        select name from kysely_migration order by name desc limit 1`.execute(ctx.db);
      const current = latest.rows[0]?.name === LATEST_MIGRATION;
      if (!current) return reply.code(503).send({ status: 'migrations pending' });
      if (standby.synchronousStandbys() === 0) return reply.code(503).send({ status: 'no synchronous standby: writes wait for one' });
      return reply.code(200).send({ status: 'ready' });
    } catch {
      return reply.code(503).send({ status: 'database unreachable' });
    }
  });
  if (!mainPortServesMetrics(ctx)) return;
  const token = ctx.config.metricsToken as string;
  app.get('/metrics', hidden, async (request, reply) => {
    if (!hasMetricsToken(request.headers, token)) throw new AppError('UNAUTHORIZED');
    return reply.type(metrics.registry.contentType).send(await metrics.registry.metrics());
  });
}

/**
 * METRICS_PORT: a listener on 127.0.0.1 that serves GET /metrics and nothing else (404), for a
 * Prometheus on the same host. With METRICS_TOKEN set it asks for the bearer there too.
 */
export async function listenMetrics(
  metrics: Metrics,
  options: { port: number; token: string | undefined },
): Promise<{ host: string; port: number; close: () => Promise<void> }> {
  const server: Server = createServer((request, response) => {
    const path = (request.url ?? '').split('?')[0];
    const found = path === '/metrics' && (request.method === 'GET' || request.method === 'HEAD');
    const allowed = found && (options.token === undefined || hasMetricsToken(request.headers, options.token));
    if (!allowed) {
      response.writeHead(found ? 401 : 404, { 'content-type': 'text/plain; charset=utf-8' }).end(found ? 'unauthorized\n' : 'not found\n');
      return;
    }
    metrics.registry.metrics().then(
      (text) => response.writeHead(200, { 'content-type': metrics.registry.contentType }).end(request.method === 'HEAD' ? undefined : text),
      () => response.writeHead(500).end(),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  return {
    host: address.address,
    port: address.port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
