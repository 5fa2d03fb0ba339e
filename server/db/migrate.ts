import { sql } from 'kysely';
import type { Migration } from 'kysely/migration';
import { SQL_FUNCTIONS } from '../sqlFunctions.ts';
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
import * as m0013 from './migrations/0013_tree_repair.ts';
import * as m0014 from './migrations/0014_buy_function.ts';
import * as m0015 from './migrations/0015_buy_batch.ts';
import * as m0016 from './migrations/0016_proof_leaves_by_day.ts';
import * as m0017 from './migrations/0017_notifications.ts';
import * as m0018 from './migrations/0018_income_by_day.ts';
import * as m0019 from './migrations/0019_push.ts';
import * as m0020 from './migrations/0020_auto_renew.ts';
import * as m0021 from './migrations/0021_rebate_uplines.ts';
import * as m0022 from './migrations/0022_team_roll.ts';
import * as m0023 from './migrations/0023_rebate_uplines_own.ts';
import * as m0024 from './migrations/0024_income_by_week.ts';
import * as m0025 from './migrations/0025_postings_by_week.ts';
import * as m0026 from './migrations/0026_income_notices_derived.ts';
import * as m0027 from './migrations/0027_income_typed_inputs.ts';
import * as m0028 from './migrations/0028_income_rate_columns.ts';
import * as m0029 from './migrations/0029_proof_leaves_in_parts.ts';
import * as m0030 from './migrations/0030_team_roll_earners.ts';
import * as m0031 from './migrations/0031_orders_last_income.ts';
import * as m0032 from './migrations/0032_income_postings.ts';
import * as m0033 from './migrations/0033_users_tree_columns.ts';
import * as m0034 from './migrations/0034_exchange_boundary.ts';
import * as m0035 from './migrations/0035_shared_clock_and_checks.ts';
import * as m0036 from './migrations/0036_products_open.ts';
import * as m0037 from './migrations/0037_income_totals.ts';
import * as m0038 from './migrations/0038_account_months.ts';
import * as m0039 from './migrations/0039_orders_by_holder.ts';
import * as m0040 from './migrations/0040_kept_platform_figures.ts';
import * as m0041 from './migrations/0041_holdings_of_many.ts';
import * as m0042 from './migrations/0042_proof_chunk_bits.ts';
import * as m0043 from './migrations/0043_proof_path.ts';
import * as m0044 from './migrations/0044_proof_leaf_hash.ts';
import * as m0045 from './migrations/0045_account_months.ts';
import * as m0046 from './migrations/0046_pool_day_rate.ts';
import * as m0047 from './migrations/0047_reviewed_transfers.ts';
import * as m0048 from './migrations/0048_released_lockups.ts';
import * as m0049 from './migrations/0049_claim_lease.ts';
import { LOCKS } from './locks.ts';

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
  '0013_tree_repair': m0013,
  '0014_buy_function': m0014,
  '0015_buy_batch': m0015,
  '0016_proof_leaves_by_day': m0016,
  '0017_notifications': m0017,
  '0018_income_by_day': m0018,
  '0019_push': m0019,
  '0020_auto_renew': m0020,
  '0021_rebate_uplines': m0021,
  '0022_team_roll': m0022,
  '0023_rebate_uplines_own': m0023,
  '0024_income_by_week': m0024,
  '0025_postings_by_week': m0025,
  '0026_income_notices_derived': m0026,
  '0027_income_typed_inputs': m0027,
  '0028_income_rate_columns': m0028,
  '0029_proof_leaves_in_parts': m0029,
  '0030_team_roll_earners': m0030,
  '0031_orders_last_income': m0031,
  '0032_income_postings': m0032,
  '0033_users_tree_columns': m0033,
  '0034_exchange_boundary': m0034,
  '0035_shared_clock_and_checks': m0035,
  '0036_products_open': m0036,
  '0037_income_totals': m0037,
  '0038_account_months': m0038,
  '0039_orders_by_holder': m0039,
  '0040_kept_platform_figures': m0040,
  '0041_holdings_of_many': m0041,
  '0042_proof_chunk_bits': m0042,
  '0043_proof_path': m0043,
  '0044_proof_leaf_hash': m0044,
  '0045_account_months': m0045,
  '0046_pool_day_rate': m0046,
  '0047_reviewed_transfers': m0047,
  '0048_released_lockups': m0048,
  '0049_claim_lease': m0049,
};

export const LATEST_MIGRATION = Object.keys(MIGRATIONS).at(-1) as string;

/**
 * Applies the migrations not yet recorded in `kysely_migration`, then (re)defines the SQL
 * functions, all in one transaction under an advisory lock, so two processes starting at once
 * migrate once. Unordered: a migration written side by side with a later one (0009 landing
 * after 0011 ran somewhere) still applies.
 *
 * Kysely's own Migrator asks whether its tables exist by introspecting every table of the
 * database, which fails ("schema … does not exist") when another process drops a schema
 * during that scan; the tests and benchmarks do so all the time. This one only reads its own
 * table, in the connection's schema.
 */
export async function migrateToLatest(db: Db): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(${LOCKS.migration})`.execute(trx);
    // The table and its shape are Kysely's: databases migrated before keep their history.
    await sql`create table if not exists kysely_migration (
      name varchar(255) primary key, timestamp varchar(255) not null)`.execute(trx);
    const { rows } = await sql<{ name: string }>`select name from kysely_migration`.execute(trx);
    const applied = new Set(rows.map((r) => r.name));
    for (const [name, migration] of Object.entries(MIGRATIONS)) {
      if (applied.has(name)) continue;
      try {
        await migration.up(trx);
      } catch (error) {
        throw new Error(`migration ${name} failed: ${String(error)}`, { cause: error });
      }
      await sql`insert into kysely_migration (name, timestamp) values (${name}, ${new Date().toISOString()})`.execute(trx);
    }
    await defineFunctions(trx);
  });
}

/**
 * SQL functions are code, not schema: every start replaces them with the text in the folders
 * that own them (server/sqlFunctions.ts lists them), after the migrations they rely on.
 */
async function defineFunctions(trx: Db): Promise<void> {
  for (const definition of SQL_FUNCTIONS) await definition.execute(trx);
}
