import { type Kysely, sql } from 'kysely';

/**
 * The day's team roll-up (team/settle.ts): each member's own active AIC, team quantity, team
 * size and direct invitees, written by the team step. Read in that step by the rebates' staging,
 * and at the day's end by the team figures' write (team_stats), on another connection: a
 * temporary table is seen by one connection only. Scratch refilled each day like
 * rebate_uplines, so unlogged and without an index.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create unlogged table team_roll (
      user_id bigint not null,
      parent bigint,
      depth integer not null,
      own bigint not null,
      quantity bigint not null,
      members bigint not null,
      direct bigint not null
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists team_roll`.execute(db);
}
