import { sql, type Transaction } from 'kysely';
import type { Db } from '../db/connect.ts';
import type { Database } from '../db/schema.ts';
import { ensurePartition, mergePastQuarters, partitionExists, weekOf, weekPartition } from '../db/partitions.ts';
import { addDays } from '../platform/clock.ts';

/**
 * `income` is partitioned by week (migration 0024): each settled day writes about two million
 * lines at a million holders, and in one table keyed by holder they went into every holder's key
 * range of an index that grows by that much a day, so each day rewrote every leaf page of it (a
 * day's lines took 5.1 s into an empty table, 8.6 s after 10 days of history, 12.0 s after 24).
 * A week's partition starts empty: a day costs what a day of its week costs, however long the
 * history. Weeks rather than days keep a holder's reads (their lines, their totals) to one index
 * probe per week.
 */

type Executor = Db | Transaction<Database>;

/** The name of the partition holding `day`'s lines: income_w and its week's Monday. */
export const incomePartition = (day: string) => weekPartition('income', day);

/**
 * Makes sure `day`'s week has its partition, before a step writes the day's lines (lines of that
 * week caught meanwhile by the default partition move in). Once per week it does anything;
 * otherwise one catalog lookup. Its own short transaction (`ensurePartition`): it must not run
 * inside a step, which would hold the partition's lock for the step's length. Returns whether it
 * created the partition.
 */
export function ensureIncomeWeek(db: Db, day: string): Promise<boolean> {
  const from = weekOf(day);
  return ensurePartition(db, { parent: 'income', name: incomePartition(day), column: 'day', from, to: addDays(from, 7) }, 7201024);
}

/**
 * Gives the income lines written since the last summary (about a day's) their day ranges, in
 * every partition's BRIN index, so a step selecting one day's lines skips the other days' blocks
 * of its week. Summarised runs are skipped, so this costs about the day's new blocks.
 */
export async function summarizeIncomeDays(db: Db): Promise<void> {
  await sql`
    select brin_summarize_new_values(i.inhrelid::regclass) from pg_inherits i
    where i.inhparent = 'income_day'::regclass`.execute(db);
}

/**
 * Analyses the partition holding `day`'s lines, so statements selecting the day's lines are
 * planned on statistics that count them (the planner prunes to that partition and reads its
 * statistics). Inside the history from before the partitioning, the whole table.
 */
export async function analyzeIncomeWeek(db: Executor, day: string): Promise<void> {
  const name = incomePartition(day);
  await sql`analyze ${sql.table((await partitionExists(db, 'income', name)) ? name : 'income')}`.execute(db);
}

/**
 * Merges the weeks of each quarter that ended before last week into one partition
 * (`income_qYYYYMMDD`): a holder's reads of their lines probe every partition, and a year of
 * weeks made that 53 probes (docs/scaling.md). Run once a day off the day's path (the scheduler's
 * housekeeping); returns the partitions made.
 */
export function mergeIncomeQuarters(db: Db, today: string): Promise<string[]> {
  return mergePastQuarters(db, 'income', 'day', today, 7201024);
}
