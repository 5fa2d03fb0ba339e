import { type Kysely, sql } from 'kysely';

/**
 * A settled day's income notices are no longer a row per holder (a million a day at a million
 * holders, each into indexes holding every day before, and 365 million rows a year): the day
 * gets one notice id (`notice_id`, from the notifications' own sequence, so it sorts among them)
 * and the time it was told (`notice_at`), and a holder's notice of that day is read from the
 * day's income lines (server/notify/dayNotices.ts). A holder's `read_to` marks every such notice
 * up to it read ("mark all read"); one marked read alone becomes a row of `notifications`.
 * The income notices written before this stay rows: their days have no notice id.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table settlement_days add column notice_id bigint, add column notice_at timestamptz`.execute(db);
  // Days in notice order: a holder's newest notices probe the newest days first, and stop.
  await sql`create index settlement_days_notice on settlement_days (notice_id) where notice_id is not null`.execute(db);
  await sql`
    create table notice_marks (
      user_id bigint primary key,
      read_to bigint not null
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists notice_marks`.execute(db);
  await sql`alter table settlement_days drop column if exists notice_id, drop column if exists notice_at`.execute(db);
}
