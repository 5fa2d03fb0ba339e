import { type Kysely, sql } from 'kysely';

/**
 * Each account's figures for the latest month it moved in, kept by the statement that moves its
 * balance (ledger/balances.ts): the month's credits and debits, and the money that came in, was
 * earned or went out through it. The monthly statement reads these and the page's own rows, where
 * it read every posting of the month and of the months before. Not filled here: an account keeps
 * `month_start` null until it next moves, and is marked known from the first month it starts
 * afresh (the statement reads the postings for the others). `statement_months` gives way to
 * `monthly_statements`, which returns flows instead of every entry's net.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table accounts
      add column month_start timestamptz,
      add column month_known boolean not null default false,
      add column month_first_entry bigint,
      add column month_credits bigint not null default 0,
      add column month_debits bigint not null default 0,
      add column month_in bigint not null default 0,
      add column month_earned bigint not null default 0,
      add column month_out bigint not null default 0`.execute(db);
  await sql`drop function if exists statement_months(bigint[], timestamptz, timestamptz, text, bigint, text, text, int)`.execute(db);
}
