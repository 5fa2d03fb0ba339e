import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { buildApp } from '../app.ts';
import { type Config, loadConfig } from '../config.ts';
import type { AppContext } from '../context.ts';
import { connect } from '../db/connect.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { withoutReadTimeout } from '../db/statementTimeout.ts';
import { type Clock, fixedClock } from '../platform/clock.ts';
import { seedDemoData } from '../platform/seed.ts';

/** Server tests run against both databases the product supports. */
export const DATABASES = ['pglite', 'postgres'] as const;
export type DatabaseKind = (typeof DATABASES)[number];

export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/test';

export type TestApp = { app: FastifyInstance; ctx: AppContext; close: () => Promise<void> };

export type TestAppOptions = {
  clock?: Clock;
  seed?: boolean;
  config?: Partial<Config>;
  /** PostgreSQL only: reach the test database at this address (a proxy in front of it). */
  databaseUrl?: string;
  /** PostgreSQL only: connections in the app's pool (default 10). */
  poolSize?: number;
};

/**
 * Boots the whole app on a fresh database: an in-memory PGlite, or its own schema on the
 * PostgreSQL server (dropped at close), migrated and optionally seeded.
 */
export async function startTestApp(kind: DatabaseKind, options: TestAppOptions = {}): Promise<TestApp> {
  const schema = kind === 'postgres' ? `t_${randomBytes(6).toString('hex')}` : undefined;
  if (schema) await withPgClient((c) => c.query(`create schema ${schema}`));
  // The pool's read limit is the server's (main.ts) and off here unless a test sets it.
  const readStatementTimeoutMs = options.config?.readStatementTimeoutMs ?? 0;
  const handle = await connect(
    kind === 'postgres'
      ? { databaseUrl: options.databaseUrl ?? TEST_DATABASE_URL, schema, poolSize: options.poolSize ?? 10, readStatementTimeoutMs }
      : {},
  );
  await withoutReadTimeout(async () => {
    await migrateToLatest(handle.db);
    if (options.seed !== false) await seedDemoData(handle.db);
  });
  const config: Config = { ...loadConfig({}), webDir: '/nonexistent', settlementIntervalMs: 0,
    readStatementTimeoutMs,
    // No load shedding unless a test sets it: tests fire bursts and block the loop on purpose.
    shedEventLoopDelayMs: 0,
    shedPoolWaitMs: 0,
    shedInFlight: 0,
    rateLimitSignInPerMinute: 100_000,
    rateLimitPostsPerMinute: 100_000,
    rateLimitAuthFailuresPerMinute: 100_000,
    rateLimitGetsPerMinute: 100_000,
    rateLimitHeavyReadsPerMinute: 100_000,
    // Tests read the dashboard right after changing what it shows.
    dashboardCacheMs: 0,
    paramsCacheMs: 0,
    sessionCacheMs: 0,
    ...options.config,
  };
  const ctx: AppContext = {
    config,
    db: handle.db,
    dbKind: handle.kind,
    clock: options.clock ?? fixedClock(new Date('2026-11-01T08:00:00Z')),
  };
  const app = await buildApp(ctx, { logger: process.env.TEST_LOG_ERRORS ? { level: 'error' } : false });
  await app.ready();
  return {
    app,
    ctx,
    close: async () => {
      await app.close();
      await handle.close();
      if (schema) await withPgClient((c) => c.query(`drop schema ${schema} cascade`));
    },
  };
}

async function withPgClient<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}
