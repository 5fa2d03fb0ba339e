import { type Kysely, sql } from 'kysely';

/** The embedded provider's state (sessions, interactions, codes), shared by every process. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table provider_store (
      model text not null,
      id text not null,
      payload jsonb not null,
      grant_id text,
      uid text,
      user_code text,
      expires_at timestamptz,
      consumed_at timestamptz,
      primary key (model, id)
    )`.execute(db);
  await sql`create index provider_store_grant on provider_store (grant_id) where grant_id is not null`.execute(db);
  await sql`create index provider_store_uid on provider_store (uid) where uid is not null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists provider_store`.execute(db);
}
