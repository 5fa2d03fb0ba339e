import { sql } from 'kysely';
import type { Db } from '../db/connect.ts';
import { perOwner, shortLived } from '../platform/cache.ts';
import { addDays } from '../platform/clock.ts';

/** The days of decisions the withdraw form's review time is read from. */
const REVIEW_WINDOW_DAYS = 30;
/** How long a process keeps the figure: it moves slowly, and its read covers a month of decisions; other processes' decisions show within it. */
const REVIEW_COPY_MS = 10 * 60_000;

/** What the withdraw form says of the wait: the median minutes a request waited for an operator, and of how many. */
export type ReviewTime = { medianMinutes: number | null; reviewed: number; days: number };

/**
 * Withdrawals and transfers out an operator decided in the REVIEW_WINDOW_DAYS days up to `today`
 * (a funding is the operators' own, and a request the exchange ended was never reviewed): how
 * many, and the median of their waits from request to decision, in whole minutes rounded up (at
 * least one: a decision in the same minute, or on the demo's frozen clock, still took a moment).
 * Read through the reviewed requests' index (migration 0047), never per holder.
 */
async function readReviewTime(db: Db, today: string): Promise<ReviewTime> {
  const since = `${addDays(today, -(REVIEW_WINDOW_DAYS - 1))}T00:00:00Z`;
  const { rows } = await sql<{ reviewed: number; median_s: number | null }>`
    select count(*)::int as reviewed,
      percentile_cont(0.5) within group (order by extract(epoch from reviewed_at - created_at))::float8 as median_s
    from transfers
    where reviewed_by is not null and reviewed_at >= ${since}::timestamptz and type in ('withdraw', 'transfer_out')`.execute(db);
  const row = rows[0];
  const median = row?.median_s ?? null;
  return { medianMinutes: median === null ? null : Math.max(1, Math.ceil(median / 60)), reviewed: row?.reviewed ?? 0, days: REVIEW_WINDOW_DAYS };
}

/**
 * This process's copy of the review time for `today`, read again when older than REVIEW_COPY_MS,
 * on another day, or after a decision made here (`forgetReviewTime`).
 */
const copyOf = perOwner((db: Db) => shortLived(REVIEW_COPY_MS, (today: string) => readReviewTime(db, today)));

export const reviewTime = (db: Db, today: string): Promise<ReviewTime> => copyOf(db)(today);

/** After an operator's decision on this process: the next form reads the review time again. */
export const forgetReviewTime = (db: Db): void => copyOf(db).forget();
