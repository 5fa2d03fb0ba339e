import { type Kysely, sql } from 'kysely';

/**
 * `postings` partitioned by ranges of entry ids, a range per week (server/ledger/days.ts says
 * why, and opens a range per day since 2026-11-27 before a settled day posts into it). The postings already
 * there stay where they are, as the partition of every id up to the last one handed out; ids
 * after it and before the first week's range (entries made before the first settlement) go into
 * a default partition.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table postings rename to postings_before_weeks`.execute(db);
  await sql`alter index postings_pkey rename to postings_before_weeks_pkey`.execute(db);
  await sql`
    create table postings (
      entry_id bigint not null,
      user_id bigint not null,
      asset text not null,
      kind text not null,
      amount bigint not null,
      primary key (user_id, asset, kind, entry_id),
      -- Named as the old table's is: a partition must have its parent's checks, by name.
      constraint postings_amount_check check (amount <> 0)
    ) partition by range (entry_id)`.execute(db);
  await sql`create table postings_default partition of postings default`.execute(db);
  const { rows } = await sql<{ through: string | null }>`
    select (max(entry_id) + 1)::text as through from postings_before_weeks`.execute(db);
  const through = rows[0]?.through;
  if (through) {
    await sql`alter table postings attach partition postings_before_weeks for values from (minvalue) to (${sql.lit(through)})`.execute(db);
  } else {
    await sql`drop table postings_before_weeks`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`create table postings_flat (like postings including defaults including constraints)`.execute(db);
  await sql`insert into postings_flat select * from postings`.execute(db);
  await sql`drop table postings`.execute(db);
  await sql`alter table postings_flat rename to postings`.execute(db);
  await sql`alter table postings add primary key (user_id, asset, kind, entry_id)`.execute(db);
}
