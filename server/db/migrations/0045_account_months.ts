import { type Kysely, sql } from 'kysely';

/**
 * The month figures of every month an account moved in, not only its latest (migration 0038): a
 * statement of an earlier month reads a row per account and its page's own postings, where it
 * read every posting of the holder up to that month's end.
 *
 * - `account_months` holds a month's figures as the account held them when it moved into a later
 *   month: its first entry, its balance then (the month's closing), the credits and debits, and
 *   the money in, earned and out. The month before the next row's is the account's closing too.
 * - The trigger writes them as the row starts a new month, whatever statement moves it; it fires
 *   only at that rollover, once a month per account, so the days between cost nothing.
 * - `history_known`: every month of the account's life is in `account_months` or the row itself.
 *   True for an account created from here on (ledger/balances.ts sets it); false for the accounts
 *   created before (their earlier months were not kept), and for one that took an entry dated in
 *   an earlier month than it holds, which a kept month would miss. Their statements read postings.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table account_months (
      user_id bigint not null,
      asset text not null,
      kind text not null,
      month_start timestamptz not null,
      first_entry bigint not null,
      closing bigint not null,
      credits bigint not null,
      debits bigint not null,
      money_in bigint not null,
      earned bigint not null,
      money_out bigint not null,
      primary key (user_id, asset, kind, month_start)
    )`.execute(db);
  await sql`alter table accounts add column history_known boolean not null default false`.execute(db);
  await sql`
    create function account_month_kept() returns trigger language plpgsql as $fn$
    begin
      insert into account_months (user_id, asset, kind, month_start, first_entry, closing, credits, debits, money_in, earned, money_out)
      values (old.user_id, old.asset, old.kind, old.month_start, old.month_first_entry, old.balance, old.month_credits, old.month_debits,
        old.month_in, old.month_earned, old.month_out);
      return new;
    end
    $fn$`.execute(db);
  await sql`
    create trigger account_month_kept before update on accounts for each row
    when (old.history_known and new.month_start > old.month_start)
    execute function account_month_kept()`.execute(db);
}
