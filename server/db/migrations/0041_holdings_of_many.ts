import { type Kysely, sql } from 'kysely';

/**
 * `holdings_of` now reads several holders at once (an array of ids, server/earn/holdingsFunction.ts),
 * so that the wallets opened in one moment are one statement. `create or replace` of the new
 * signature adds a second function beside the one-holder one; this drops that one.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`drop function if exists holdings_of(bigint)`.execute(db);
}
