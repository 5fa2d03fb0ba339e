import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { loadConfig } from '../server/config.ts';
import type { AppContext } from '../server/context.ts';
import { connect, type Db } from '../server/db/connect.ts';
import { migrateToLatest } from '../server/db/migrate.ts';
import { fixedClock } from '../server/platform/clock.ts';

/** The app's context for a benchmark: PostgreSQL, no scheduler, the clock frozen at `at`. */
export const benchContext = (db: Db, at: string): AppContext => ({
  config: { ...loadConfig({}), settlementIntervalMs: 0 },
  db,
  dbKind: 'postgres',
  clock: fixedClock(new Date(at)),
});

/**
 * Runs `work` on a schema of its own in `url`'s database, migrated to the latest, with a pool of
 * `poolSize` (two by default); the schema is dropped afterwards, or kept (and named, on stderr so
 * a benchmark's own output stays its figures) with BENCH_KEEP_SCHEMA.
 */
export async function onScratchSchema<T>(url: string, prefix: string, work: (db: Db) => Promise<T>, poolSize = 2): Promise<T> {
  const schema = `${prefix}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  const handle = await connect({ databaseUrl: url, schema, poolSize });
  try {
    await migrateToLatest(handle.db);
    return await work(handle.db);
  } finally {
    await handle.close();
    if (process.env.BENCH_KEEP_SCHEMA) console.error(`kept schema ${schema}`);
    else await admin.query(`drop schema ${schema} cascade`);
    await admin.end();
  }
}
