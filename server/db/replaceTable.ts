import { sql, type Transaction } from 'kysely';
import type { Database } from './schema.ts';

type Trx = Transaction<Database>;

/** A table whose rows are replaced whole, and its key: the primary key is named `<table>_pkey`. */
export type Replaced = { table: string; key: string[]; lock: number };

/**
 * Replaces every row of `table` with those `fill` inserts into the table it is handed, in the
 * caller's transaction: a fresh table of the same columns, its primary key built once over the
 * rows and analysed, then swapped in under the table's name. Readers wait only for the swap, and
 * no dead rows are left to vacuum, where deleting and inserting every row through the key costs
 * more. One replacement of the table at a time (the advisory lock `lock`). Returns what `fill` does.
 */
export async function replaceTable<T>(trx: Trx, target: Replaced, fill: (next: string) => Promise<T>): Promise<T> {
  const next = `${target.table}_next`;
  await sql`select pg_advisory_xact_lock(${target.lock})`.execute(trx);
  await sql`drop table if exists ${sql.table(next)}`.execute(trx);
  await sql`create table ${sql.table(next)} (like ${sql.table(target.table)} including defaults including constraints)`.execute(trx);
  const filled = await fill(next);
  const key = sql.join(target.key.map((column) => sql.ref(column)));
  await sql`alter table ${sql.table(next)} add constraint ${sql.ref(`${next}_pkey`)} primary key (${key})`.execute(trx);
  // A new table has no statistics until autovacuum comes: plans reading it need them now.
  await sql`analyze ${sql.table(next)}`.execute(trx);
  await sql`drop table ${sql.table(target.table)}`.execute(trx);
  await sql`alter table ${sql.table(next)} rename to ${sql.table(target.table)}`.execute(trx);
  await sql`alter index ${sql.table(`${next}_pkey`)} rename to ${sql.table(`${target.table}_pkey`)}`.execute(trx);
  return filled;
}
