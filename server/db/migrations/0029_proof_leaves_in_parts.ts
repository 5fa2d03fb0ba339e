import { type Kysely, sql } from 'kysely';

/**
 * A day's proof leaves are written in parts side by side (issue 17): each part a table of its own,
 * written and indexed on a connection of its own, then attached to the day's partition, which is
 * itself partitioned by (asset, position). A unique index on a partitioned table must hold every
 * partitioning column, so the holder's key (user_id, day, asset) can no longer be a primary key:
 * it becomes a plain index, as fast to look up. A holder still has one leaf per day and asset: a
 * leaf is written from the holders' balances grouped by holder (server/proof/build.ts), and
 * (day, asset, position) stays unique.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table proof_leaves drop constraint proof_leaves_pkey`.execute(db);
  await sql`create index proof_leaves_holder on proof_leaves (user_id, day, asset)`.execute(db);
}

/** Each day written in parts becomes one plain partition again, then the key a primary key. */
export async function down(db: Kysely<unknown>): Promise<void> {
  const { rows } = await sql<{ name: string; day: string }>`
    select c.relname as name, pg_get_expr(c.relpartbound, c.oid) as day
    from pg_inherits i join pg_class c on c.oid = i.inhrelid
    where i.inhparent = 'proof_leaves'::regclass and c.relkind = 'p'`.execute(db);
  for (const { name, day } of rows) {
    const whole = sql.table(`${name}_whole`);
    await sql`create table ${whole} (like proof_leaves including defaults)`.execute(db);
    await sql`insert into ${whole} select * from ${sql.table(name)}`.execute(db);
    await sql`drop table ${sql.table(name)}`.execute(db);
    await sql`alter table ${whole} rename to ${sql.raw(name)}`.execute(db);
    await sql`alter table proof_leaves attach partition ${sql.table(name)} ${sql.raw(day)}`.execute(db);
  }
  await sql`drop index proof_leaves_holder`.execute(db);
  await sql`alter table proof_leaves add primary key (user_id, day, asset)`.execute(db);
}
