import type { Db } from '../db/connect.ts';
import { ensurePartition, weekOf } from '../db/partitions.ts';
import { addDays } from '../platform/clock.ts';

/**
 * The daily income notices are partitioned by week of their day (migration 0026). A settled day
 * writes one per holder with income, a million at a million holders; in one table keyed by holder
 * they went into every holder's key range of indexes holding the whole history, so the day's
 * notices took 5.5 s on the first day and 11.1 s on the tenth (docs/scaling.md). A week's
 * partition starts empty, as `income`'s do (server/income/weeks.ts). The other notices (a
 * handful per holder a month) stay in one partition.
 */

/** The name of the partition holding the income notices of `day`'s week. */
export const incomeNoticesPartition = (day: string) => `notifications_income_w${weekOf(day).replaceAll('-', '')}`;

/**
 * Makes sure `day`'s week has its partition of income notices, before settlement writes the
 * day's (notices of that week caught meanwhile by the default partition move in). Once per week
 * it does anything; otherwise one catalog lookup. Returns whether it created the partition.
 */
export function ensureIncomeNoticesWeek(db: Db, day: string): Promise<boolean> {
  const from = weekOf(day);
  const week = { parent: 'notifications_income', name: incomeNoticesPartition(day), column: 'key', from, to: addDays(from, 7) };
  return ensurePartition(db, week, 7201026);
}
