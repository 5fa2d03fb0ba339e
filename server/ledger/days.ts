import { sql, type Transaction } from 'kysely';
import type { Db } from '../db/connect.ts';
import { dayPartition, ensurePartition, mergePast, partitionExists } from '../db/partitions.ts';
import type { Database } from '../db/schema.ts';
import { transact } from '../db/transact.ts';
import { LOCKS } from '../db/locks.ts';

/**
 * `postings` is partitioned by ranges of entry ids, a range per day (migration 0025 made them a
 * range per week; days since 2026-11-27): a settled day posts to about 1.2 million accounts at a
 * million holders, and keyed by account those postings went next to each account's older ones,
 * into an index holding the whole history (`income` has the same shape: server/income/days.ts).
 * Entry ids only grow, so a range of them is a stretch of time: day k's entries (k days from
 * 1970-01-01) are numbered from k × DAY_IDS, and its partition starts empty. Every day number is
 * above every week number the weeks' ranges used (weeks from 1970-01-05, seven times fewer), so
 * the days' ranges lie above theirs. Past days are merged into weeks and quarters, as income's
 * are. The key stays (user_id, asset, kind, entry_id); reads are unchanged.
 */
export const DAY_IDS = 10_000_000_000n;

/**
 * The days from 1970-01-01 to `day`, as platform/clock.ts's `dayNumber` counts them: computed here,
 * since platform imports the ledger (its seed) and folders may not import each other both ways.
 */
export const dayNumber = (day: string) => BigInt(Math.round(Date.parse(`${day}T00:00:00Z`) / 86_400_000));

/** The advisory lock under which postings' days are made, merged and opened. */
export const DAYS_LOCK = LOCKS.ledgerDays;

/** The name of the partition of `day`'s postings: postings_d and the day. */
export const postingsPartition = (day: string) => dayPartition('postings', day);

/**
 * Opens `day` for postings, before a settled day writes them: its partition (ids from
 * day × DAY_IDS, ten billion entries wide) is made, and then the entries' sequence moves up to its
 * first id, so every entry from then on (the day's settlement, and the next day's requests until
 * that day is opened) is posted into it. The move comes after the partition's transaction has
 * committed, never inside it: an entry given an id of the day's range while the partition was not
 * yet visible to its transaction was routed to the default partition, and failed there once the
 * attach narrowed that partition's range (a 500 under load). A day whose range the ids have
 * already passed (a day settled late) is left alone: its postings go where the ids are. Once per
 * day it does anything; otherwise one catalog lookup and one look at the sequence. Before the
 * day's steps. Returns whether it made the day's partition.
 */
export async function ensurePostingsDay(db: Db, day: string): Promise<boolean> {
  const from = dayNumber(day) * DAY_IDS;
  const to = from + DAY_IDS;
  const name = postingsPartition(day);
  const range = { parent: 'postings', name, column: 'entry_id', from: from.toString(), to: to.toString() };
  const exists = await partitionExists(db, 'postings', name);
  const made = !exists && (await ensurePartition(db, range, DAYS_LOCK, { wanted: async (trx) => (await lastEntryId(trx)) < to }));
  if (exists || made) await moveIdsUpTo(db, from);
  return made;
}

const lastEntryId = async (db: Db | Transaction<Database>) => {
  const { rows } = await sql<{ last: bigint }>`select last_value as last from journal_entries_id_seq`.execute(db);
  return rows[0]?.last ?? 0n;
};

/**
 * Moves the entries' sequence up to `from`, only forward: ids handed out meanwhile are below it,
 * so setting it loses none. Under the days' advisory lock, so that a second process looking at
 * the same moment sees the first one's move and does not set the sequence back over ids handed
 * out since. Should the process stop between the partition and this, the next
 * `ensurePostingsDay` of the day moves it.
 */
async function moveIdsUpTo(db: Db, from: bigint): Promise<void> {
  if ((await lastEntryId(db)) >= from) return;
  await transact(db, async (trx) => {
    await sql`select pg_advisory_xact_lock(${DAYS_LOCK}, 0)`.execute(trx);
    await sql`select setval('journal_entries_id_seq', ${from.toString()}::bigint, false)
      where (select last_value from journal_entries_id_seq) < ${from.toString()}::bigint`.execute(trx);
  });
}

/**
 * Merges past weeks' days into a partition per week and past quarters' into one per quarter
 * (`postings_wYYYYMMDD`, `postings_qYYYYMMDD`), as income's are (server/income/days.ts): a
 * holder's statement probes every partition. Returns the partitions made.
 */
export function mergePastPostings(db: Db, today: string): Promise<string[]> {
  return mergePast(db, 'postings', 'entry_id', today, DAYS_LOCK);
}
