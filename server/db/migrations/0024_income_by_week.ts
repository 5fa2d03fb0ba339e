import { type Kysely, sql } from 'kysely';

/**
 * `income` partitioned by week of `day` (server/income/days.ts says why, and creates a partition
 * per day since 2026-11-27 before settlement writes into it). The lines already there stay where
 * they are: the table becomes the partition of every day up to the end of its last line's week,
 * checked once here, and the weeks after it get partitions of their own. A default partition
 * takes lines of a week with no partition yet (settlement never writes one: tests and tools
 * inserting lines by hand); creating that week's partition moves them into it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table income rename to income_before_weeks`.execute(db);
  await sql`alter index income_pkey rename to income_before_weeks_pkey`.execute(db);
  await sql`alter index income_day rename to income_before_weeks_day`.execute(db);
  await sql`
    create table income (
      user_id bigint not null,
      order_id bigint not null,
      day date not null,
      kind text not null,
      amount bigint not null,
      inputs jsonb not null,
      created_at timestamptz not null default now(),
      primary key (user_id, order_id, day, kind),
      -- Named as the old table's is: a partition must have its parent's checks, by name.
      constraint income_amount_check check (amount >= 0)
    ) partition by range (day)`.execute(db);
  await sql`create index income_day on income using brin (day) with (autosummarize = on)`.execute(db);
  await sql`create table income_default partition of income default`.execute(db);
  const { rows } = await sql<{ through: string | null }>`
    select (date_trunc('week', max(day)) + interval '7 days')::date::text as through from income_before_weeks`.execute(db);
  const through = rows[0]?.through;
  if (through) {
    await sql`alter table income attach partition income_before_weeks for values from (minvalue) to (${sql.lit(through)})`.execute(db);
  } else {
    await sql`drop table income_before_weeks`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`create table income_flat (like income including defaults including constraints)`.execute(db);
  await sql`insert into income_flat select * from income`.execute(db);
  await sql`drop table income`.execute(db);
  await sql`alter table income_flat rename to income`.execute(db);
  await sql`alter table income add primary key (user_id, order_id, day, kind)`.execute(db);
  await sql`create index income_day on income using brin (day) with (autosummarize = on)`.execute(db);
}
