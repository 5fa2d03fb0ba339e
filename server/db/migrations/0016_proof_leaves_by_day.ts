import { type Kysely, sql } from 'kysely';

/**
 * proof_leaves becomes a table partitioned by day (issue 17): the day's build writes its leaves
 * into a fresh table without indexes and attaches it as that day's partition, which builds both
 * indexes by sorting once instead of a random B-tree insert per leaf; leaves older than the kept days go by dropping a partition, not deleting a
 * million rows. Existing days move into partitions of their own.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table proof_leaves rename to proof_leaves_unpartitioned`.execute(db);
  await sql`alter index proof_leaves_pkey rename to proof_leaves_unpartitioned_pkey`.execute(db);
  await sql`alter index proof_leaves_position rename to proof_leaves_unpartitioned_position`.execute(db);
  await sql`
    create table proof_leaves (
      user_id bigint not null,
      day date not null,
      asset text not null,
      position integer not null,
      wallet bigint not null,
      earning bigint not null,
      rewards bigint not null,
      locked_rewards bigint not null,
      network_rewards bigint not null,
      withdrawals_pending bigint not null,
      primary key (user_id, day, asset)
    ) partition by list (day)`.execute(db);
  await sql`create unique index proof_leaves_position on proof_leaves (day, asset, position)`.execute(db);
  const { rows } = await sql<{ day: string }>`
    select distinct to_char(day, 'YYYY-MM-DD') as day from proof_leaves_unpartitioned`.execute(db);
  for (const { day } of rows) {
    await sql`create table ${sql.table(leavesPartition(day))} partition of proof_leaves for values in (${sql.lit(day)})`.execute(db);
  }
  await sql`insert into proof_leaves select * from proof_leaves_unpartitioned`.execute(db);
  await sql`drop table proof_leaves_unpartitioned`.execute(db);
}

/** The partition of one day's leaves, named as server/proof/build.ts names them (its cleanup reads the name). */
const leavesPartition = (day: string) => `proof_leaves_${day.replaceAll('-', '')}`;
