import { buildApp } from './app.ts';
import { listenMetrics } from './operator/observability.ts';
import { installDiscoveryReadiness } from './auth/discovery.ts';
import { ConfigError, loadConfig, StartupError } from './config.ts';
import { checkRedisAtStart } from './http/security.ts';
import { openDatabase } from './db/open.ts';
import { DataDirNotPrivate } from './db/privateDir.ts';
import { migrateToLatest } from './db/migrate.ts';
import { withoutReadTimeout } from './db/statementTimeout.ts';
import { startPushDispatcher } from './notify/push.ts';
import { systemClock } from './platform/clock.ts';
import { sharedClock } from './platform/sharedClock.ts';
import { seedDemoData } from './platform/seed.ts';
import { startScheduler } from './settlement/scheduler.ts';
import { warnTeamRulesNotApplied } from './team/rules.ts';
import { startTransferWorker } from './wallet/worker.ts';

/** Starts the server: database (embedded PGlite unless DATABASE_URL), migrations, demo data. */
async function main(): Promise<void> {
  const config = loadConfig(process.env, { refusePlaceholders: true });
  // Before anything else connects to Redis (and logs about it when it cannot).
  if (config.redisUrl) await checkRedisAtStart(config.redisUrl);
  const handle = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    prepare: config.databasePrepare,
    readStatementTimeoutMs: config.readStatementTimeoutMs,
  });
  // Work of the process's own, not a request's: READ_STATEMENT_TIMEOUT_MS does not limit it.
  await withoutReadTimeout(async () => {
    await migrateToLatest(handle.db);
    if (config.seedDemo) await seedDemoData(handle.db);
  });
  // The demo clock (an operator may move it, or it starts at CLOCK_START) is one for every process.
  const demoClock = config.clockAdjustable || config.clockStart !== undefined;
  const shared = demoClock ? await sharedClock(handle.db, { start: config.clockStart }) : undefined;
  const clock = shared ?? systemClock();
  const ctx = { config, db: handle.db, dbKind: handle.kind, clock };
  const app = await buildApp(ctx);
  installDiscoveryReadiness(app, config);
  await warnTeamRulesNotApplied(ctx, app.log);

  // Read each second: a write refused at once beats one hanging for the standby (db/standby.ts).
  const stopStandby = app.standby.start(1_000);
  let stopScheduler = () => {};
  let stopPush = () => {};
  let stopTransfers = () => {};
  let closeMetrics = async () => {};
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down: finishing in-flight requests');
    stopScheduler();
    stopStandby();
    shared?.stop();
    stopPush();
    stopTransfers();
    await closeMetrics();
    await app.close();
    await handle.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ port: config.port, host: config.host }).catch((error: unknown) => {
    throw listenProblem(error, 'PORT', config.port, config.host);
  });
  if (config.metricsPort !== undefined) {
    const metricsServer = await listenMetrics(app.metrics, { port: config.metricsPort, token: config.metricsToken }).catch((error: unknown) => {
      throw listenProblem(error, 'METRICS_PORT', config.metricsPort as number, '127.0.0.1');
    });
    closeMetrics = metricsServer.close;
    app.log.info(`metrics on http://127.0.0.1:${metricsServer.port}/metrics`);
  }
  // The background loops, and all they start, run without the read limit (db/statementTimeout.ts).
  withoutReadTimeout(() => {
    stopScheduler = startScheduler(ctx, app.log, app.metrics);
    stopTransfers = startTransferWorker(ctx, app.exchange, app.log, { reconcile: config.settlementIntervalMs > 0 });
    // Web Push goes out where the scheduled work runs (the scheduler's process in a deployment).
    if (config.settlementIntervalMs > 0) stopPush = startPushDispatcher(ctx, app.log);
  });
  app.log.info(
    { database: handle.kind === 'pglite' ? `pglite:${config.dataDir}` : 'postgres' },
    `${config.appName} listening on http://localhost:${config.port}`,
  );
}

/** A port the server cannot listen on, as one line naming the variable; other failures as they are. */
function listenProblem(error: unknown, name: string, port: number, host: string): unknown {
  const code = (error as { code?: unknown }).code;
  if (code === 'EADDRINUSE') {
    return new StartupError(`${name} ${port}: another process already listens on ${host}:${port}: stop it, or set ${name} to a free port (each process its own)`);
  }
  if (code === 'EACCES') {
    return new StartupError(`${name} ${port}: this user may not listen on ${host}:${port} (ports under 1024 need privileges): set ${name} to 1024 or above`);
  }
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
    return new StartupError(`HOST ${host} is not an address of this machine: set HOST to one of its addresses, or 0.0.0.0 for all`);
  }
  return error;
}

/**
 * The line a start-up failure is told in: the operator's to fix (a setting, the database, Redis,
 * a port, the data folder), so one line naming the variable and what to do rather than a stack;
 * anything else is a fault of the code and keeps its stack.
 */
function startupLine(error: unknown): string | undefined {
  if (error instanceof ConfigError || error instanceof DataDirNotPrivate) return `configuration: ${error.message}`;
  if (error instanceof StartupError) return `cannot start: ${error.message}`;
  return undefined;
}

main().catch((error: unknown) => {
  console.error(startupLine(error) ?? error);
  process.exit(1);
});
