import { type Kysely, sql } from 'kysely';
import type { Database } from './schema.ts';

/**
 * Analyses `table` (a trusted name) on a sample of 3,000 rows, a tenth of the default: for a table
 * a day's step has just filled, whose plans need its row count and the shares of a few values,
 * not fine histograms, and a sample that size costs the same whatever the day's rows, where the
 * default's grows with them on the day's path. In the caller's transaction, or one of its own.
 */
export async function analyzeOnSample(db: Kysely<Database>, table: string): Promise<void> {
  const analyze = async (trx: Kysely<Database>) => {
    await sql`set local default_statistics_target = 10`.execute(trx);
    await sql`analyze ${sql.table(table)}`.execute(trx);
    await sql`reset default_statistics_target`.execute(trx);
  };
  await (db.isTransaction ? analyze(db) : db.transaction().execute(analyze));
}
