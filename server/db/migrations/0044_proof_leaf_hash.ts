import { type Kysely, sql } from 'kysely';

/**
 * Each leaf keeps the hash the build gave it: a holder's proof rebuilds its chunk from its
 * neighbours' hashes and sums, not from their balances and nonces (one nonce looked up, one leaf
 * hashed, instead of a chunk's). Days built before it have none, and are rebuilt from balances.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table proof_leaves add column hash bytea`.execute(db);
}
