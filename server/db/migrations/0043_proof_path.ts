import { type Kysely, sql } from 'kysely';

/**
 * A holder's proof is read by `proof_path` now (server/proof/pathFunction.ts: the root, the chunk
 * and the nodes above it in one call), which replaced `proof_chunk`; functions are defined on
 * every start, so this drops the one no code calls.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`drop function if exists proof_chunk(bigint, text, date, integer)`.execute(db);
}
