import { type Kysely, sql } from 'kysely';
import type { Database } from './schema.ts';

/**
 * `analyze_on_sample(table)`: analyses a table on a sample of 3,000 rows, a tenth of the
 * default: for a table a day's step has just filled, whose plans need its row count and the
 * shares of a few values, not fine histograms, and a sample that size costs the same whatever
 * the day's rows, where the default's grows with them on the day's path. The setting is the
 * function's own, so the caller's is left as it was. A function so that the day's SQL functions
 * (team/functions.ts) analyse their tables as the TypeScript steps do.
 *
 * Code, not schema: `migrateToLatest` defines it on every start (server/sqlFunctions.ts).
 */
export const ANALYZE_ON_SAMPLE = sql`
  create or replace function analyze_on_sample(p_table text) returns void
  language plpgsql set default_statistics_target = 10 as $fn$
  begin
    execute format('analyze %s', p_table::regclass);
  end
  $fn$`;

/** Analyses `table` on a sample (`analyze_on_sample`), in the caller's transaction or one of its own. */
export async function analyzeOnSample(db: Kysely<Database>, table: string): Promise<void> {
  await sql`select analyze_on_sample(${table})`.execute(db);
}
