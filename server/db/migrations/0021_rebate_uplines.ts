import { type Kysely, sql } from 'kysely';

/**
 * Each member's first effective ancestors for the day's rebates (team/settle.ts), written by the
 * team step and read by the rebates, which are paid in parts on two connections side by side: a
 * temporary table is seen by one connection only. Scratch refilled each day, so unlogged (no
 * WAL; emptied by a crash, and the team step refills it before the rebates read it) and without
 * an index (the rebates read all of it, hashed). Not a holder's record, so not keyed by holder.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create unlogged table rebate_uplines (
      user_id bigint not null,
      own bigint not null,
      anc bigint[] not null,
      br bigint[] not null,
      lv smallint[] not null
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists rebate_uplines`.execute(db);
}
