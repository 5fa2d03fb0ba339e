import { type Kysely, sql } from 'kysely';

/**
 * rebate_uplines loses `own`: the rebates' lock-ups read what a receiver holds from team_roll,
 * since the uplines are staged for the day's earners only (team/settle.ts `stageRebates`), and a
 * receiver need not be one. Scratch refilled each day, so nothing is lost.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table rebate_uplines drop column own`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`truncate rebate_uplines`.execute(db);
  await sql`alter table rebate_uplines add column own bigint not null`.execute(db);
}
