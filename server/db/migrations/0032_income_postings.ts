import { type Kysely, sql } from 'kysely';

/**
 * A settlement step's postings to its holders are its income lines: a line paid into an account
 * keeps the journal entry that paid it (`entry_id`) and the account (`account`), and the step
 * posts only the paying system account's side as a row of `postings` (server/ledger/batch.ts,
 * `recorded`). `ledger_lines` is every amount the books moved: the rows of `postings` and those
 * lines. `ledger_postings` is every posting: those merged per entry and account, as the ledger
 * would have posted them (one posting per account and entry, none of zero); everything that
 * reads a holder's postings reads it. What only sums accounts (the ledger's check) reads
 * `ledger_lines`, without merging each day's lines per entry first. Lines written before this migration keep no entry: their
 * postings are rows of `postings`.
 *
 * Why: a day's settlement wrote a posting per holder and account beside lines that said the
 * same, about half as many rows again, with their index and WAL. Nullable without a default:
 * added without rewriting the table.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table income add column entry_id bigint, add column account text`.execute(db);
  await sql`
    create view ledger_lines as
    select entry_id, user_id, asset, kind, amount from postings
    union all
    select entry_id, user_id, 'AIC'::text as asset, account as kind, amount from income where entry_id is not null`.execute(db);
  // Grouped by the columns a reader names (holder, asset, account, entry): its conditions on them
  // go down into each side of ledger_lines, to the postings' key and the income partitions' key.
  await sql`
    create view ledger_postings as
    select entry_id, user_id, asset, kind, sum(amount)::bigint as amount
    from ledger_lines group by entry_id, user_id, asset, kind
    having sum(amount) <> 0`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop view if exists ledger_postings`.execute(db);
  await sql`drop view if exists ledger_lines`.execute(db);
  await sql`alter table income drop column if exists entry_id, drop column if exists account`.execute(db);
}
