import { type Kysely, sql } from 'kysely';

/**
 * Each holder's income to date, by kind and, for rebates, by branch (the direct invitee the
 * rebate came through; 0 for the other kinds): what the My screen and the invite records show,
 * read as a few rows of a key rather than by summing the holder's every line, which grew with the
 * days and the team. Kept by each settlement step in the statement that writes the lines
 * (income/payIncome.ts). Filled here from the lines there are (a rebate line's branch in its
 * column, or its jsonb before migration 0027). Left room on each page so a day's additions
 * update rows in place.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table income_totals (
      user_id bigint not null,
      kind text not null,
      branch bigint not null default 0,
      amount bigint not null,
      primary key (user_id, kind, branch)
    ) with (fillfactor = 80)`.execute(db);
  await sql`
    insert into income_totals (user_id, kind, branch, amount)
    select user_id, kind,
      case when kind = 'rebate' then coalesce(branch, (inputs ->> 'branch')::bigint, 0) else 0 end,
      sum(amount)::bigint
    from income
    where amount > 0
    group by 1, 2, 3
    order by 1, 2, 3`.execute(db);
}
