import { type Kysely, sql } from 'kysely';

/**
 * The pool balance each day's output was taken from, kept beside the output, so that the
 * verifier can recompute the output itself and not only its sharing.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table settlement_days add column pool_balance bigint`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table settlement_days drop column pool_balance`.execute(db);
}
