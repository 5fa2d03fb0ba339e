import { type Kysely, sql } from 'kysely';

/**
 * What happened to a holder's money, told once (issue 20): one row per event, keyed by the
 * holder, its kind and the event's own key (a day, a transfer, a member), so a settlement or a
 * review run twice writes nothing twice. Keyed by user id first, like every holder's table.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table notifications (
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
  // The unread count reads only the unread rows.
  await sql`create index notifications_unread on notifications (user_id) where read_at is null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists notifications`.execute(db);
}
