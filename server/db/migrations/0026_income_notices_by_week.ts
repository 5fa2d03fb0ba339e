import { type Kysely, sql } from 'kysely';

/**
 * `notifications` partitioned: by kind, the daily income notices (a million a day at a million
 * holders) apart from the rest, and those by week of their day (server/notify/weeks.ts says why
 * and creates each week's partition before settlement writes into it). Partitioned tables have
 * no identity columns before PostgreSQL 17, so ids come from the sequence `notification_ids`,
 * continuing the old ones. The key is (holder, kind, key), which holds the partitions' columns;
 * (holder, id), by which the list pages and push reads them, is an index. Every row is copied
 * (kinds are mixed in the old table); the income notices already there go into one partition of
 * every day up to the end of the last one's week.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table notifications rename to notifications_flat`.execute(db);
  await sql`alter index notifications_pkey rename to notifications_flat_pkey`.execute(db);
  await sql`alter index notifications_user_id_kind_key_key rename to notifications_flat_key`.execute(db);
  await sql`alter index notifications_unread rename to notifications_flat_unread`.execute(db);
  await sql`create sequence notification_ids`.execute(db);
  await sql`select setval('notification_ids', coalesce(max(id), 0) + 1, false) from notifications_flat`.execute(db);
  await sql`
    create table notifications (
      user_id bigint not null,
      id bigint not null default nextval('notification_ids'),
      kind text not null,
      -- "C": a day's key ('2026-11-25') sorts as its day, whatever the database's collation.
      key text collate "C" not null,
      params jsonb not null default '{}',
      created_at timestamptz not null,
      read_at timestamptz,
      primary key (user_id, kind, key)
    ) partition by list (kind)`.execute(db);
  await sql`alter sequence notification_ids owned by notifications.id`.execute(db);
  await sql`create index notifications_by_id on notifications (user_id, id)`.execute(db);
  // The unread count reads only the unread rows.
  await sql`create index notifications_unread on notifications (user_id) where read_at is null`.execute(db);
  await sql`create table notifications_events partition of notifications default`.execute(db);
  await sql`
    create table notifications_income partition of notifications for values in ('income')
    partition by range (key)`.execute(db);
  await sql`create table notifications_income_default partition of notifications_income default`.execute(db);
  const { rows } = await sql<{ through: string | null }>`
    select (date_trunc('week', max(key)::date) + interval '7 days')::date::text as through
    from notifications_flat where kind = 'income'`.execute(db);
  const through = rows[0]?.through;
  if (through) {
    await sql`create table notifications_income_before_weeks partition of notifications_income
      for values from (minvalue) to (${sql.lit(through)})`.execute(db);
  }
  await sql`
    insert into notifications (user_id, id, kind, key, params, created_at, read_at)
    select user_id, id, kind, key, params, created_at, read_at from notifications_flat order by kind, user_id, key`.execute(db);
  await sql`drop table notifications_flat`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table notifications_flat (
      user_id bigint not null,
      id bigint generated always as identity,
      kind text not null,
      key text not null,
      params jsonb not null default '{}',
      created_at timestamptz not null,
      read_at timestamptz,
      primary key (user_id, id),
      unique (user_id, kind, key)
    )`.execute(db);
  await sql`
    insert into notifications_flat (user_id, id, kind, key, params, created_at, read_at) overriding system value
    select user_id, id, kind, key, params, created_at, read_at from notifications order by user_id, id`.execute(db);
  const { rows } = await sql<{ next: string }>`select (coalesce(max(id), 0) + 1)::text as next from notifications_flat`.execute(db);
  await sql`alter table notifications_flat alter column id restart with ${sql.lit(Number(rows[0]?.next ?? 1))}`.execute(db);
  await sql`drop table notifications`.execute(db);
  await sql`alter table notifications_flat rename to notifications`.execute(db);
  await sql`alter index notifications_flat_pkey rename to notifications_pkey`.execute(db);
  await sql`alter index notifications_flat_user_id_kind_key_key rename to notifications_user_id_kind_key_key`.execute(db);
  await sql`create index notifications_unread on notifications (user_id) where read_at is null`.execute(db);
}
