import { sql, type Transaction } from 'kysely';
import type { Db } from './connect.ts';
import type { Database } from './schema.ts';
import { transact } from './transact.ts';

/**
 * What the tables partitioned by week share (`income` by its day, `postings` by ranges of entry
 * ids: server/income/weeks.ts, server/ledger/weeks.ts).
 */

type Trx = Transaction<Database>;
const DAY_MS = 86_400_000;

/** The Monday starting the week of `day` (ISO weeks, as PostgreSQL's date_trunc('week') has them). */
export function weekOf(day: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  return new Date(date.getTime() - ((date.getUTCDay() + 6) % 7) * DAY_MS).toISOString().slice(0, 10);
}

/** Whether `parent` has a partition named `name` (in the connection's schema). */
export async function partitionExists(db: Db | Trx, parent: string, name: string): Promise<boolean> {
  const { rows } = await sql`
    select 1 from pg_inherits i join pg_class c on c.oid = i.inhrelid
    where i.inhparent = ${parent}::regclass and c.relname = ${name}`.execute(db);
  return rows.length > 0;
}

/** A range partition: `column` of `parent` from `from` up to `to` (bounds as SQL literals' text). */
export type RangePartition = { parent: string; name: string; column: string; from: string; to: string };

/** SQLSTATE of "partition would overlap": the range is inside one an older partition holds. */
const OVERLAP = '42P17';

/**
 * Makes `p` if it is not there yet (then one catalog lookup is all it costs), in a short
 * transaction of its own under the advisory lock `lock`, so two processes asking at once make it
 * once: created empty, the rows of its range that the parent's default partition
 * (`<parent>_default`) caught meanwhile moved into it, then attached, which locks the parent only
 * against schema changes, not against reads or writes. A range an older partition already holds
 * (the history kept from before the partitioning) needs nothing. `wanted` may decline first;
 * `opened` runs in the same transaction once the partition is attached. Returns whether it made
 * the partition.
 */
export async function ensurePartition(
  db: Db,
  p: RangePartition,
  lock: number,
  hooks: { wanted?: (trx: Trx) => Promise<boolean>; opened?: (trx: Trx) => Promise<void> } = {},
): Promise<boolean> {
  if (await partitionExists(db, p.parent, p.name)) return false;
  return transact(db, async (trx) => {
    await sql`select pg_advisory_xact_lock(${lock}, 0)`.execute(trx);
    if (await partitionExists(trx, p.parent, p.name)) return false;
    if (hooks.wanted && !(await hooks.wanted(trx))) return false;
    const table = sql.table(p.name);
    const column = sql.ref(p.column);
    await sql`savepoint make_partition`.execute(trx);
    try {
      await sql`create table ${table} (like ${sql.table(p.parent)} including defaults including constraints)`.execute(trx);
      await sql`
        with moved as (
          delete from ${sql.table(`${p.parent}_default`)} where ${column} >= ${sql.lit(p.from)} and ${column} < ${sql.lit(p.to)}
          returning *)
        insert into ${table} select * from moved`.execute(trx);
      await sql`alter table ${sql.table(p.parent)} attach partition ${table}
        for values from (${sql.lit(p.from)}) to (${sql.lit(p.to)})`.execute(trx);
    } catch (error) {
      if ((error as { code?: string }).code !== OVERLAP) throw error;
      await sql`rollback to savepoint make_partition`.execute(trx);
      return false;
    }
    await hooks.opened?.(trx);
    return true;
  });
}
