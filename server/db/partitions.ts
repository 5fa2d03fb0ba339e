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

/** The name of `parent`'s partition of `day`'s week: `<parent>_w` and the week's Monday (YYYYMMDD). */
export const weekPartition = (parent: string, day: string) => `${parent}_w${weekOf(day).replaceAll('-', '')}`;
const WEEK_NAME = (parent: string) => `^${parent}_w[0-9]{8}$`;

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

const WEEK_MS = 7 * DAY_MS;
const MONDAY_ONE = Date.parse('1970-01-05T00:00:00Z');
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const addWeeks = (monday: string, weeks: number) => isoDay(Date.parse(`${monday}T00:00:00Z`) + weeks * WEEK_MS);

/** Weeks from the week of Monday 1970-01-05 (week 0) to `day`'s: what postings' id ranges and quarters count. */
export const weekIndex = (day: string) => Math.round((Date.parse(`${weekOf(day)}T00:00:00Z`) - MONDAY_ONE) / WEEK_MS);

/** Weeks merged into one partition once they are past: a quarter of 13 weeks. */
export const QUARTER_WEEKS = 13;

/**
 * The first Monday of the quarter holding `day`'s week: quarters are 13 weeks, counted from
 * Monday 1970-01-05, so every week is in exactly one.
 */
export function quarterOf(day: string): string {
  return isoDay(MONDAY_ONE + Math.floor(weekIndex(day) / QUARTER_WEEKS) * QUARTER_WEEKS * WEEK_MS);
}

type Bounded = { name: string; monday: string; from: string; to: string };

/** `parent`'s week partitions (named by `weekPartition`), with their Mondays and range bounds. */
async function weekPartitions(db: Db | Trx, parent: string): Promise<Bounded[]> {
  const { rows } = await sql<{ name: string; bound: string | null }>`
    select c.relname as name, pg_get_expr(c.relpartbound, c.oid) as bound
    from pg_inherits i join pg_class c on c.oid = i.inhrelid
    where i.inhparent = ${parent}::regclass and c.relname ~ ${WEEK_NAME(parent)}
    order by c.relname`.execute(db);
  return rows.flatMap(({ name, bound }) => {
    // No bound: another process's merge is detaching it as this reads the catalog.
    const [, from, to] = /FROM \('?([^')]+)'?\) TO \('?([^')]+)'?\)/.exec(bound ?? '') ?? [];
    const ymd = name.slice(-8);
    return from && to ? [{ name, monday: `${ymd.slice(0, 4)}-${ymd.slice(4, 6)}-${ymd.slice(6)}`, from, to }] : [];
  });
}

/**
 * Merges the week partitions of `parent` (partitioned by range of `column`) into one partition
 * per quarter (`<parent>_qYYYYMMDD`, its first Monday), for the quarters that ended before the
 * week before `today`'s (a late write to last week still finds its week). The day writes into an
 * empty week; a holder's reads probe every partition, so the weeks of a year cost them 53
 * probes, the quarters 4 (docs/scaling.md). Per quarter, one transaction under the advisory lock
 * `lock`, taken only if free (another process merging: left to it): the weeks (and the default
 * partition, whose rows of the range move too) are locked against writes, copied in the key's
 * order into a table made with the parent's indexes and a check of its range, then swapped in:
 * detached and dropped, the new one attached, which the check spares a scan and its indexes a
 * build. Only the swap locks the parent against reads, and not for longer than `lock_timeout`
 * allows: a quarter it cannot swap is left for the next run. Returns the partitions made.
 */
export async function mergePastQuarters(db: Db, parent: string, column: string, today: string, lock: number): Promise<string[]> {
  const before = addWeeks(weekOf(today), -1);
  const quarters = new Map<string, Bounded[]>();
  for (const week of await weekPartitions(db, parent)) {
    const quarter = quarterOf(week.monday);
    if (addWeeks(quarter, QUARTER_WEEKS) > before) continue;
    quarters.set(quarter, [...(quarters.get(quarter) ?? []), week]);
  }
  const made: string[] = [];
  for (const [quarter, weeks] of quarters) {
    if (weeks.length < 2) continue;
    const name = `${parent}_q${quarter.replaceAll('-', '')}`;
    if (!(await mergeWeeks(db, { parent, name, column, from: weeks[0]?.from ?? '', to: weeks.at(-1)?.to ?? '' }, weeks, lock))) continue;
    // A new table has no statistics until autovacuum comes by.
    await sql`analyze ${sql.table(name)}`.execute(db);
    made.push(name);
  }
  return made;
}

async function mergeWeeks(db: Db, merged: RangePartition, weeks: Bounded[], lock: number): Promise<boolean> {
  return transact(db, async (trx) => {
    const { rows } = await sql<{ free: boolean }>`select pg_try_advisory_xact_lock(${lock}, 1) as free`.execute(trx);
    if (!rows[0]?.free) return false;
    const now = new Set((await weekPartitions(trx, merged.parent)).map((w) => w.name));
    if (!weeks.every((w) => now.has(w.name))) return false;
    const table = sql.table(merged.name);
    const column = sql.ref(merged.column);
    const range = sql`${column} >= ${sql.lit(merged.from)} and ${column} < ${sql.lit(merged.to)}`;
    const sources = [...weeks.map((w) => w.name), `${merged.parent}_default`].map((n) => sql.table(n));
    await sql`lock table ${sql.join(sources)} in share mode`.execute(trx);
    await sql`create table ${table} (like ${sql.table(merged.parent)} including defaults including constraints including indexes)`.execute(trx);
    const key = await primaryKeyColumns(trx, merged.parent);
    await sql`insert into ${table} select * from ${sql.table(merged.parent)} where ${range} order by ${sql.join(key.map((c) => sql.ref(c)))}`.execute(trx);
    await sql`alter table ${table} add check (${range})`.execute(trx);
    await sql`set local lock_timeout = '5s'`.execute(trx);
    for (const week of weeks) await sql`alter table ${sql.table(merged.parent)} detach partition ${sql.table(week.name)}`.execute(trx);
    for (const week of weeks) await sql`drop table ${sql.table(week.name)}`.execute(trx);
    await sql`delete from ${sql.table(`${merged.parent}_default`)} where ${range}`.execute(trx);
    await sql`alter table ${sql.table(merged.parent)} attach partition ${table}
      for values from (${sql.lit(merged.from)}) to (${sql.lit(merged.to)})`.execute(trx);
    return true;
  });
}

/** The columns of `table`'s primary key, in the key's order. */
async function primaryKeyColumns(db: Trx, table: string): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`
    select a.attname as name
    from pg_index i cross join lateral unnest(i.indkey) with ordinality k(attnum, n)
    join pg_attribute a on a.attrelid = i.indrelid and a.attnum = k.attnum
    where i.indrelid = ${table}::regclass and i.indisprimary
    order by k.n`.execute(db);
  return rows.map((r) => r.name);
}
