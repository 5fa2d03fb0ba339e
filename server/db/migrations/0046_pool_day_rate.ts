import { type Kysely, sql } from 'kysely';

/**
 * What each settled day's 360-day shares paid, beside the principal that shared them, so the
 * Earn centre can show the rate the product actually paid over the last seven days (a figure
 * of the whole platform, kept as the day settles, never summed per request). Days settled
 * before have neither, and are left out of it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table settlement_days add column static_principal bigint, add column static_paid bigint`.execute(db);
}
