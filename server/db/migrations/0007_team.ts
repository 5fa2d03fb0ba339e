import { type Kysely, sql } from 'kysely';

/**
 * The team tree as a materialized path: users.path lists a user's ancestors from the root to
 * the direct inviter. Walking up for rebates is one unnest; the downline is a GIN-indexed
 * containment (path @> {id}). Team figures are recomputed by settlement each day; network
 * income waits in lock-ups, one row per user and day.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table users add column path bigint[] not null default '{}'`.execute(db);
  await sql`create index users_path on users using gin (path)`.execute(db);
  await sql`create index users_inviter on users (inviter_id) where inviter_id is not null`.execute(db);
  await sql`
    create table team_stats (
      user_id bigint primary key,
      day date not null,
      active bigint not null,
      team_quantity bigint not null,
      team_count integer not null,
      direct_count integer not null,
      effective boolean not null,
      level smallint not null
    )`.execute(db);
  await sql`
    create table lockups (
      user_id bigint not null,
      day date not null,
      amount bigint not null,
      unlockable bigint not null,
      unlock_percent text not null,
      unlock_day date not null,
      released_on date,
      primary key (user_id, day)
    )`.execute(db);
  await sql`create index lockups_pending on lockups (unlock_day) where released_on is null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists lockups`.execute(db);
  await sql`drop table if exists team_stats`.execute(db);
  await sql`drop index if exists users_inviter`.execute(db);
  await sql`drop index if exists users_path`.execute(db);
  await sql`alter table users drop column if exists path`.execute(db);
}
