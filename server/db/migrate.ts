import { type Migration, type MigrationProvider, Migrator, sql } from 'kysely';
import type { Db } from './connect.ts';
import * as m0001 from './migrations/0001_ledger_and_params.ts';
import * as m0002 from './migrations/0002_users_and_sessions.ts';
import * as m0003 from './migrations/0003_wallet_and_idempotency.ts';
import * as m0004 from './migrations/0004_provider_store.ts';
import * as m0005 from './migrations/0005_earn.ts';
import * as m0006 from './migrations/0006_fillfactor.ts';
import * as m0007 from './migrations/0007_team.ts';
import * as m0008 from './migrations/0008_audit.ts';
import * as m0009 from './migrations/0009_proofs.ts';
import * as m0011 from './migrations/0011_income_inputs.ts';
import * as m0012 from './migrations/0012_activity.ts';

/** Migrations in order. Each is plain SQL that runs on PGlite and PostgreSQL alike. */
const MIGRATIONS: Record<string, Migration> = {
  '0001_ledger_and_params': m0001,
  '0002_users_and_sessions': m0002,
  '0003_wallet_and_idempotency': m0003,
  '0004_provider_store': m0004,
  '0005_earn': m0005,
  '0006_fillfactor': m0006,
  '0007_team': m0007,
  '0008_audit': m0008,
  '0009_proofs': m0009,
  '0011_income_inputs': m0011,
  '0012_activity': m0012,
};

const provider: MigrationProvider = { getMigrations: async () => MIGRATIONS };

export const LATEST_MIGRATION = Object.keys(MIGRATIONS).at(-1) as string;

export async function migrateToLatest(db: Db): Promise<void> {
  // Kysely would otherwise find its bookkeeping tables in any schema of the database, and
  // skip creating them in ours (several schemas share one database in tests and benchmarks).
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
  // Unordered: migrations written side by side (0009 landing after 0011 ran somewhere) still apply.
  const migrator = new Migrator({
    db,
    provider,
    migrationTableSchema: rows[0]?.schema ?? 'public',
    allowUnorderedMigrations: true,
  });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`migration ${failed?.migrationName ?? ''} failed: ${String(error)}`);
  }
}
