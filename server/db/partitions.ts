import { sql, type Transaction } from 'kysely';
import type { Db } from './connect.ts';
import type { Database } from './schema.ts';
import { transact } from './transact.ts';

/**
 * What the tables partitioned by day share (`income` by its day, `postings` by ranges of entry
 * ids: server/income/days.ts, server/ledger/days.ts): each settled day writes into a partition of
 * its own, and past days are merged into weeks, past weeks into quarters (`mergePast`).
 */

type Trx = Transaction<Database>;
const DAY_MS = 86_400_000;

/** The Monday starting the week of `day` (ISO weeks, as PostgreSQL's date_trunc('week') has them). */
export function weekOf(day: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  return new Date(date.getTime() - ((date.getUTCDay() + 6) % 7) * DAY_MS).toISOString().slice(0, 10);
}

const compact = (day: string) => day.replaceAll('-', '');
/** The name of `parent`'s partition of `day`: `<parent>_d` and the day (YYYYMMDD). */
export const dayPartition = (parent: string, day: string) => `${parent}_d${compact(day)}`;
/** The name of `parent`'s partition of `day`'s week: `<parent>_w` and the week's Monday. */
export const weekPartition = (parent: string, day: string) => `${parent}_w${compact(weekOf(day))}`;
/** The name of `parent`'s partition of `day`'s quarter: `<parent>_q` and its first Monday. */
export const quarterPartition = (parent: string, day: string) => `${parent}_q${compact(quarterOf(day))}`;
/** Days' and weeks' partitions: what `mergePast` merges. */
const MERGEABLE = (parent: string) => `^${parent}_[dw][0-9]{8}$`;

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
 * (the history kept from before the partitioning) needs nothing. `wanted` may decline first.
 * Returns whether it made the partition.
 */
export async function ensurePartition(
  db: Db,
  p: RangePartition,
  lock: number,
  hooks: { wanted?: (trx: Trx) => Promise<boolean> } = {},
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

/** A day's or a week's partition: its first day (from its name) and its range's bounds. */
type Bounded = { name: string; first: string; from: string; to: string };

/** `parent`'s partitions of days and of weeks (`dayPartition`, `weekPartition`), in their days' order. */
async function mergeable(db: Db | Trx, parent: string): Promise<Bounded[]> {
  const { rows } = await sql<{ name: string; bound: string | null }>`
    select c.relname as name, pg_get_expr(c.relpartbound, c.oid) as bound
    from pg_inherits i join pg_class c on c.oid = i.inhrelid
    where i.inhparent = ${parent}::regclass and c.relname ~ ${MERGEABLE(parent)}
    order by substring(c.relname from '[0-9]{8}$'), c.relname desc`.execute(db);
  return rows.flatMap(({ name, bound }) => {
    // No bound: another process's merge is detaching it as this reads the catalog.
    const [, from, to] = /FROM \('?([^')]+)'?\) TO \('?([^')]+)'?\)/.exec(bound ?? '') ?? [];
    const ymd = name.slice(-8);
    return from && to ? [{ name, first: `${ymd.slice(0, 4)}-${ymd.slice(4, 6)}-${ymd.slice(6)}`, from, to }] : [];
  });
}

/** `partitions` grouped by `key` of their first day, in order. */
function groupBy(partitions: Bounded[], key: (day: string) => string): Map<string, Bounded[]> {
  const groups = new Map<string, Bounded[]>();
  for (const p of partitions) {
    const group = groups.get(key(p.first));
    if (group) group.push(p);
    else groups.set(key(p.first), [p]);
  }
  return groups;
}

/**
 * Merges `parent`'s past days (partitioned by range of `column`) into one partition per week
 * (`weekPartition`), and the days and weeks of past quarters into one per quarter
 * (`quarterPartition`): a week or a quarter is past once it ended before the week before
 * `today`'s (a late write to last week still finds its day). The day writes into an empty
 * partition of its own; a holder's reads probe every partition, so the days of a year would cost
 * them 365 probes, its weeks 53, its quarters 4 (docs/scaling.md, "History"). A past quarter's days go into
 * it at once, not through their week. Per merge, one transaction under the advisory lock `lock`,
 * taken only if free (another process merging: left to it): the sources (and the default
 * partition, whose rows of the range move too) are locked against writes, copied in the key's
 * order into a table made with the parent's indexes and a check of its range, then swapped in:
 * detached and dropped, the new one attached, which the check spares a scan and its indexes a
 * build. Only the swap locks the parent against reads, and not for longer than `lock_timeout`
 * allows: a merge it cannot swap is left for the next run. Returns the partitions made.
 */
export async function mergePast(db: Db, parent: string, column: string, today: string, lock: number): Promise<string[]> {
  const before = addWeeks(weekOf(today), -1);
  const made: string[] = [];
  const merge = async (name: string, sources: Bounded[]) => {
    if (sources.length < 2) return;
    const merged = { parent, name, column, from: sources[0]?.from ?? '', to: sources.at(-1)?.to ?? '' };
    if (!(await mergeInto(db, merged, sources, lock))) return;
    // A new table has no statistics until autovacuum comes by.
    await sql`analyze ${sql.table(name)}`.execute(db);
    made.push(name);
  };
  const quarters = groupBy(await mergeable(db, parent), quarterOf);
  for (const [quarter, sources] of quarters) {
    if (addWeeks(quarter, QUARTER_WEEKS) <= before) await merge(quarterPartition(parent, quarter), sources);
  }
  const left = await mergeable(db, parent);
  const days = left.filter((p) => p.name === dayPartition(parent, p.first));
  for (const [week, sources] of groupBy(days, weekOf)) {
    if (addWeeks(week, 1) > before) continue;
    // A week's partition from before the days (its later days, ranges of entry ids above it) joins them.
    const older = left.filter((p) => p.name === weekPartition(parent, week));
    await merge(weekPartition(parent, week), [...older, ...sources]);
  }
  return made;
}

/**
 * Copies `sources` into one new partition `merged` and swaps it in for them (see `mergePast`);
 * made under a name of its own and renamed once they are dropped, so it may take a source's name.
 */
async function mergeInto(db: Db, merged: RangePartition, sources: Bounded[], lock: number): Promise<boolean> {
  return transact(db, async (trx) => {
    const { rows } = await sql<{ free: boolean }>`select pg_try_advisory_xact_lock(${lock}, 1) as free`.execute(trx);
    if (!rows[0]?.free) return false;
    const now = new Set((await mergeable(trx, merged.parent)).map((p) => p.name));
    if (!sources.every((p) => now.has(p.name))) return false;
    const building = `${merged.name}_merging`;
    const table = sql.table(building);
    const column = sql.ref(merged.column);
    const range = sql`${column} >= ${sql.lit(merged.from)} and ${column} < ${sql.lit(merged.to)}`;
    const locked = [...sources.map((p) => p.name), `${merged.parent}_default`].map((n) => sql.table(n));
    await sql`lock table ${sql.join(locked)} in share mode`.execute(trx);
    await sql`create table ${table} (like ${sql.table(merged.parent)} including defaults including constraints including indexes)`.execute(trx);
    const key = await primaryKeyColumns(trx, merged.parent);
    await sql`insert into ${table} select * from ${sql.table(merged.parent)} where ${range} order by ${sql.join(key.map((c) => sql.ref(c)))}`.execute(trx);
    await sql`alter table ${table} add check (${range})`.execute(trx);
    await sql`set local lock_timeout = '5s'`.execute(trx);
    for (const p of sources) await sql`alter table ${sql.table(merged.parent)} detach partition ${sql.table(p.name)}`.execute(trx);
    for (const p of sources) await sql`drop table ${sql.table(p.name)}`.execute(trx);
    await sql`delete from ${sql.table(`${merged.parent}_default`)} where ${range}`.execute(trx);
    await sql`alter table ${table} rename to ${sql.table(merged.name)}`.execute(trx);
    await sql`alter table ${sql.table(merged.parent)} attach partition ${sql.table(merged.name)}
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
