import { type Kysely, sql } from 'kysely';

/**
 * The day's roll-up (team_roll) says which members earn the day's static output (`earner`: a
 * static line above zero that day) and is found by depth through a block-range index (the roll-up
 * writes it a depth at a time): the rebates' staging walks it top down as it is, where it copied
 * every member with the earners joined in first.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table team_roll add column earner boolean not null default false`.execute(db);
  await sql`create index team_roll_depth on team_roll using brin (depth)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists team_roll_depth`.execute(db);
  await sql`alter table team_roll drop column if exists earner`.execute(db);
}
