import { type Kysely, sql } from 'kysely';

/**
 * A product is its entry in contract/productRegistry.ts, and the routes accept only those; the
 * orders table no longer lists the names, so adding a product needs no migration. It still
 * holds a product name's shape.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table orders drop constraint orders_product_check`.execute(db);
  await sql`alter table orders add constraint orders_product_name check (product ~ '^[a-z][a-z0-9]{0,31}$')`.execute(db);
}
