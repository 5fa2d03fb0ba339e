import { type Kysely, sql } from 'kysely';

/** Every operator action: who, what, on what, when. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table operator_audit (
      id bigserial primary key,
      operator_id bigint not null,
      action text not null,
      target text,
      detail jsonb not null default '{}',
      created_at timestamptz not null
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists operator_audit`.execute(db);
}
