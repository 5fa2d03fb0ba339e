import { sql, type Transaction } from 'kysely';
import type { Db } from '../db/connect.ts';
import type { Database } from '../db/schema.ts';
import { dayPartition, ensurePartition, mergePast, partitionExists, weekPartition } from '../db/partitions.ts';
import { analyzeOnSample } from '../db/analyze.ts';
import { addDays } from '../platform/clock.ts';
import { LOCKS } from '../db/locks.ts';

/**
 * `income` is partitioned by day (migration 0024 made it by week; days since 2026-11-27): in one
 * table keyed by holder, a day's lines went into every holder's key range of an index that grows
 * by a day's lines each day, so each day rewrote every leaf page of it and cost more than the
 * day before; a week's partition still grew through its week. A day's partition starts empty: a
 * day costs what a day costs, whatever came before it (docs/scaling.md, "History"). Past weeks'
 * days are merged into a partition per week, past quarters' into one per quarter
 * (`mergePastIncome`), which keeps a holder's reads (their lines, their totals) to a
 * probe per recent day, per week of the quarter and per quarter. The weeks made before the days
 * keep their days.
 */

type Executor = Db | Transaction<Database>;

/** The name of the partition made for `day`'s lines: income_d and the day. */
export const incomePartition = (day: string) => dayPartition('income', day);

/**
 * Makes sure `day` has its partition, before a step writes the day's lines (lines of the day
 * caught meanwhile by the default partition move in; a day inside an older partition, a week's
 * or a quarter's, needs none). Once per day it does anything; otherwise one catalog lookup. Its
 * own short transaction (`ensurePartition`): it must not run inside a step, which would hold the
 * partition's lock for the step's length. Returns whether it created the partition.
 */
export function ensureIncomeDay(db: Db, day: string): Promise<boolean> {
  return ensurePartition(db, { parent: 'income', name: incomePartition(day), column: 'day', from: day, to: addDays(day, 1) }, LOCKS.incomeDays);
}

/**
 * Gives the income lines written since the last summary (about a day's) their day ranges, in
 * every partition's BRIN index, so a step selecting one day's lines of a partition holding
 * several (a week's, or the history from before the partitioning) skips the other days' blocks.
 * Summarised runs are skipped, so this costs about the day's new blocks.
 */
export async function summarizeIncomeDays(db: Db): Promise<void> {
  await sql`
    select brin_summarize_new_values(i.inhrelid::regclass) from pg_inherits i
    where i.inhparent = 'income_day'::regclass`.execute(db);
}

/**
 * Analyses the partition holding `day`'s lines, so statements selecting the day's lines are
 * planned on statistics that count them (the planner prunes to that partition and reads its
 * statistics): the day's own, or the week's made before the days; otherwise the whole table.
 */
export async function analyzeIncomeDay(db: Executor, day: string): Promise<void> {
  let table = 'income';
  for (const name of [incomePartition(day), weekPartition('income', day)]) {
    if (await partitionExists(db, 'income', name)) {
      table = name;
      break;
    }
  }
  // What the plans need is how many lines there are and the kinds' shares.
  await analyzeOnSample(db, table);
}

/**
 * Merges past weeks' days into a partition per week, and past quarters' days and weeks into one
 * per quarter (`mergePast`, docs/scaling.md, "History"). Run once a day off the day's path (the
 * scheduler's housekeeping); returns the partitions made.
 */
export function mergePastIncome(db: Db, today: string): Promise<string[]> {
  return mergePast(db, 'income', 'day', today, LOCKS.incomeDays);
}
