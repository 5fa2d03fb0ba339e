import { type Kysely, sql } from 'kysely';

/**
 * Two figures every process must agree on, kept in the database rather than in each process:
 * the demo clock's offset (an advance on one process moves every process's clock), and the last
 * ledger and tree checks (the alerting gauge of a process that never ran a check is the last
 * check's result, wherever it ran).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table clock_offset (
    id smallint primary key default 1 check (id = 1),
    offset_ms bigint not null,
    version bigint not null default 1,
    set_at timestamptz not null default now()
  )`.execute(db);
  await sql`create table health_checks (
    name text primary key check (name in ('ledger', 'tree')),
    ok boolean not null,
    checked_at timestamptz not null,
    detail jsonb not null default '{}'
  )`.execute(db);
}
