import { type Kysely, sql } from 'kysely';

/**
 * Each day's proof records the chunk height it was built with (contract/merkle.ts, CHUNK_BITS):
 * a holder's proof rebuilds the chunk holding their leaf and reads the stored levels above it,
 * so a day built before the chunks became smaller (1,024 leaves, 10 bits) still answers.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table proof_roots add column chunk_bits smallint not null default 10`.execute(db);
  await sql`alter table proof_roots alter column chunk_bits drop default`.execute(db);
}
