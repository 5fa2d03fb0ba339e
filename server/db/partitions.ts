import { sql, type Transaction } from 'kysely';
import type { Db } from './connect.ts';
import type { Database } from './schema.ts';

/**
 * What the tables partitioned by week share (`income` by its day, `postings` by ranges of entry
 * ids: server/income/weeks.ts, server/ledger/weeks.ts).
 */

const DAY_MS = 86_400_000;

/** The Monday starting the week of `day` (ISO weeks, as PostgreSQL's date_trunc('week') has them). */
export function weekOf(day: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  return new Date(date.getTime() - ((date.getUTCDay() + 6) % 7) * DAY_MS).toISOString().slice(0, 10);
}

/** Whether `parent` has a partition named `name` (in the connection's schema). */
export async function partitionExists(db: Db | Transaction<Database>, parent: string, name: string): Promise<boolean> {
  const { rows } = await sql`
    select 1 from pg_inherits i join pg_class c on c.oid = i.inhrelid
    where i.inhparent = ${parent}::regclass and c.relname = ${name}`.execute(db);
  return rows.length > 0;
}
