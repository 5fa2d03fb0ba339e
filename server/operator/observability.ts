import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { AppContext } from '../context.ts';
import { LATEST_MIGRATION } from '../db/migrate.ts';

/** One registry per app, so tests with several apps in a process do not mix figures. */
export type Metrics = {
  registry: Registry;
  settlementSeconds: Histogram<'step'>;
  ledgerOk: Gauge;
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
    ledgerOk: new Gauge({
      name: 'aic_ledger_check_ok',
      help: '1 when every asset sums to zero and no user balance is negative, else 0',
      registers: [registry],
    }),
  };
}

/**
 * /healthz (the process answers), /readyz (database reachable, migrations current) and
 * /metrics (Prometheus: requests and latency by route, settlement time, the ledger check).
 */
export function installObservability(app: FastifyInstance, ctx: AppContext, metrics: Metrics): void {
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
      return reply.code(current ? 200 : 503).send({ status: current ? 'ready' : 'migrations pending' });
    } catch {
      return reply.code(503).send({ status: 'database unreachable' });
    }
  });
  app.get('/metrics', hidden, async (_request, reply) =>
    reply.type(metrics.registry.contentType).send(await metrics.registry.metrics()),
  );
}
