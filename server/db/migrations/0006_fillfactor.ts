import { type Kysely, sql } from 'kysely';

/**
 * Orders and balances are updated in place every day; free room on each page lets PostgreSQL
 * write the new row version beside the old (a HOT update) without touching any index, which is
 * most of what settlement's order update costs otherwise.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table orders set (fillfactor = 50)`.execute(db);
  await sql`alter table accounts set (fillfactor = 70)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table orders reset (fillfactor)`.execute(db);
  await sql`alter table accounts reset (fillfactor)`.execute(db);
}
