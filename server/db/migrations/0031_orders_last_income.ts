import { type Kysely, sql } from 'kysely';

/**
 * A settlement step pays its orders in place and takes its income lines from the rows as the
 * update wrote them (server/income/orderPayment.ts): `last_income` is the amount the step's
 * update added, stored so that its RETURNING clause can give it and work back the order's
 * columns before the payment (PostgreSQL 15 returns only the new row). Read nowhere else.
 * Nullable without a default: added without rewriting the table.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table orders add column last_income bigint`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table orders drop column if exists last_income`.execute(db);
}
