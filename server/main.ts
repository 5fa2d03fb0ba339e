import { buildApp } from './app.ts';
import { listenMetrics } from './operator/observability.ts';
import { loadConfig } from './config.ts';
import { connect } from './db/connect.ts';
import { DataDirNotPrivate } from './db/privateDir.ts';
import { migrateToLatest } from './db/migrate.ts';
import { startPushDispatcher } from './notify/push.ts';
import { systemClock } from './platform/clock.ts';
import { sharedClock } from './platform/sharedClock.ts';
import { seedDemoData } from './platform/seed.ts';
import { startScheduler } from './settlement/scheduler.ts';
import { startTransferWorker } from './wallet/worker.ts';

/** Starts the server: database (embedded PGlite unless DATABASE_URL), migrations, demo data. */
async function main(): Promise<void> {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    // One line naming the variable, not a stack: it is the operator's to fix, not the code's.
    console.error(`configuration: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
  const handle = await connect({ databaseUrl: config.databaseUrl, dataDir: config.dataDir }).catch((error: unknown) => {
    if (!(error instanceof DataDirNotPrivate)) throw error;
    // Like a bad variable: one line with the command that fixes it.
    console.error(`configuration: ${error.message}`);
    process.exit(1);
  });
  await migrateToLatest(handle.db);
  if (config.seedDemo) await seedDemoData(handle.db);
  // The demo clock (an operator may move it, or it starts at CLOCK_START) is one for every process.
  const demoClock = config.clockAdjustable || config.clockStart !== undefined;
  const shared = demoClock ? await sharedClock(handle.db, { start: config.clockStart }) : undefined;
  const clock = shared ?? systemClock();
  const ctx = { config, db: handle.db, dbKind: handle.kind, clock };
  const app = await buildApp(ctx);

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

  await app.listen({ port: config.port, host: config.host });
  if (config.metricsPort !== undefined) {
    const metricsServer = await listenMetrics(app.metrics, { port: config.metricsPort, token: config.metricsToken });
    closeMetrics = metricsServer.close;
    app.log.info(`metrics on http://127.0.0.1:${metricsServer.port}/metrics`);
  }
  stopScheduler = startScheduler(ctx, app.log, app.metrics);
  stopTransfers = startTransferWorker(ctx, app.exchange, app.log, { reconcile: config.settlementIntervalMs > 0 });
  // Web Push goes out where the scheduled work runs (the scheduler's process in a deployment).
  if (config.settlementIntervalMs > 0) stopPush = startPushDispatcher(ctx, app.log);
  app.log.info(
    { database: handle.kind === 'pglite' ? `pglite:${config.dataDir}` : 'postgres' },
    `${config.appName} listening on http://localhost:${config.port}`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
