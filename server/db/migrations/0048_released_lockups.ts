import { type Kysely, sql } from 'kysely';

/**
 * A holder's lock-ups by the day they were released: the day's income notice tells what network
 * income that day unlocked (notify/dayNotices.ts), one probe a day, however many days the
 * holder has had lock-ups.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index lockups_released on lockups (user_id, released_on) where released_on is not null`.execute(db);
}
