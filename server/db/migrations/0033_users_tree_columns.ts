import { type Kysely, sql } from 'kysely';

/**
 * A member's parent and depth in the team tree, kept by the database from the stored path
 * (generated columns), and an index that holds them beside the id: the day's roll-up reads every
 * member's parent and depth from that index alone, a tenth of the size of the users' rows with
 * their paths.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table users
    add column parent bigint generated always as (path[cardinality(path)]) stored,
    add column depth integer generated always as (cardinality(path)) stored`.execute(db);
  await sql`create index users_tree on users (id) include (parent, depth)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists users_tree`.execute(db);
  await sql`alter table users drop column if exists depth, drop column if exists parent`.execute(db);
}
