import { sql } from 'kysely';
import type { Db } from '../db/connect.ts';
import { ensurePartition, mergePastQuarters, weekIndex, weekOf, weekPartition } from '../db/partitions.ts';

/**
 * `postings` is partitioned by ranges of entry ids, a range per week (migration 0025): a settled
 * day posts to about 1.2 million accounts at a million holders, and keyed by account those
 * postings went next to each account's older ones, into an index holding the whole history
 * (`income` had the same shape: docs/scaling.md). Entry ids only grow, so a range of them is a
 * stretch of time: week k's entries are numbered from k × WEEK_IDS, and its partition starts
 * empty. The key stays (user_id, asset, kind, entry_id); reads are unchanged.
 */
export const WEEK_IDS = 10_000_000_000n;

/** The week of `day`, counted from the week of Monday 1970-01-05 (week 1). */
export const weekNumber = (day: string) => BigInt(weekIndex(day) + 1);

/** The name of the partition of `day`'s week: postings_w and its Monday. */
export const postingsPartition = (day: string) => weekPartition('postings', day);

/**
 * Opens `day`'s week for postings, before a settled day writes them: its partition (ids from
 * week × WEEK_IDS, a week's worth of room ten billion entries wide) is made, and the entries'
 * sequence moves up to its first id, so every entry from then on is posted into it. A week
 * whose range the ids have already passed (a day of an earlier week settled late) is left
 * alone: its postings go where the ids are. Once per week it does anything; otherwise one
 * catalog lookup. Its own short transaction, before the day's steps. Returns whether it opened
 * the week.
 */
export function ensurePostingsWeek(db: Db, day: string): Promise<boolean> {
  const from = weekNumber(day) * WEEK_IDS;
  const to = from + WEEK_IDS;
  const week = { parent: 'postings', name: postingsPartition(day), column: 'entry_id', from: from.toString(), to: to.toString() };
  return ensurePartition(db, week, 7201025, {
    wanted: async (trx) => {
      const { rows } = await sql<{ last: bigint }>`select last_value as last from journal_entries_id_seq`.execute(trx);
      return (rows[0]?.last ?? 0n) < to;
    },
    // Only forward: ids handed out meanwhile are below `from`, so setting it loses none. A sequence
    // moves whether or not its transaction commits: should this one fail after it, the week's
    // first entries wait in the default partition, and the next run moves them in.
    opened: async (trx) => {
      await sql`select setval('journal_entries_id_seq', ${week.from}::bigint, false)
        where (select last_value from journal_entries_id_seq) < ${week.from}::bigint`.execute(trx);
    },
  });
}

/**
 * Merges the weeks of each quarter that ended before last week into one partition
 * (`postings_qYYYYMMDD`), as `income`'s are (server/income/weeks.ts): a holder's statement
 * probes every partition. Returns the partitions made.
 */
export function mergePostingsQuarters(db: Db, today: string): Promise<string[]> {
  return mergePastQuarters(db, 'postings', 'entry_id', today, 7201025);
}
