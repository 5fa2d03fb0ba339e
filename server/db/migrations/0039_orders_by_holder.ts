import { type Kysely, sql } from 'kysely';

/**
 * The active orders indexed by product, status and holder: the steps that credit earning
 * accounts are paid in parts by ranges of holder ids (income/parts.ts, `holderRanges`), so that
 * a buy waits for a part of a step rather than a quarter of it, and each part reads a range of
 * this index instead of every active order of the product. It replaces `orders_active`, whose
 * two columns lead it, so every query that used that one can use this.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create index orders_active_holder on orders (product, status, user_id)
    where status in ('confirming', 'in_progress', 'reinvested')`.execute(db);
  await sql`drop index orders_active`.execute(db);
}
