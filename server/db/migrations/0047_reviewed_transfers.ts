import { type Kysely, sql } from 'kysely';

/**
 * The requests an operator decided, by the moment of the decision: the withdraw form's review
 * time (wallet/reviewTime.ts) reads a month of them without reading every transfer.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index transfers_reviewed on transfers (reviewed_at) where reviewed_by is not null`.execute(db);
}
