import { type Kysely, sql } from 'kysely';

/**
 * The day's income lines without reading every day before it. The rebates (the day's static
 * lines), the lock-ups (the day's rebates), the day's notices and the verifier each select one
 * day; keyed by holder first, the table had no way to find it but a scan of all its history,
 * which grows by about 2.6 million rows a day at a million holders. Lines are written a day at
 * a time in day order, so a BRIN index (the day range of each block run) finds the day's blocks
 * and costs almost nothing to keep up, where a B-tree would add an entry per line. A block run
 * is only excluded once summarised: autosummarize asks autovacuum to do it as each run fills,
 * and settlement summarises what is left before a day (settlement/settle.ts).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index income_day on income using brin (day) with (autosummarize = on)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index income_day`.execute(db);
}
