import { type Kysely, sql } from 'kysely';

/**
 * When a key's work was claimed (the database's time), for the effects that claim their key
 * before running their own transactions (http/idempotency.ts, `idempotentClaimFirst`): a claim
 * whose process died, or lost the database, is taken over by a repeat once it is old enough.
 * Rows written in one transaction with their answer leave it null.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table idempotency_keys add column claimed_at timestamptz`.execute(db);
}
