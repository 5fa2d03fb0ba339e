import { type Kysely, sql } from 'kysely';

/**
 * When a user bound their inviter, on the server's clock: the recruitment activity counts the
 * invitees and team members who joined inside its window, and team records filter on it.
 * Users bound before this column existed get their sign-up time.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table users add column bound_at timestamptz`.execute(db);
  await sql`update users set bound_at = created_at where inviter_id is not null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table users drop column if exists bound_at`.execute(db);
}
