import { type Kysely, type RawBuilder, sql, type Transaction } from 'kysely';
import type { AccountKind, Asset, Database } from '../db/schema.ts';
import { applyToBalances, KEY_ORDER, monthOf } from './balances.ts';
import { InsufficientBalance, isCheckViolation } from './ledger.ts';

/** The CTE holding the entry's id (one row, `id`), which the caller's rows in `with` may name. */
export const BATCH_ID = 'batch_id';

/**
 * One journal entry over many accounts, from rows SQL computes: the set-based form of
 * `postEntry` for settlement and bulk data. The caller's own writes (income rows, order
 * updates, lock-ups) go in `with`, so a step stays one statement.
 */
type BatchEntry = {
  kind: string;
  ref: string;
  /** When the entry is dated (the app's clock); the database's time without it. */
  at?: Date | undefined;
  /** All lines are of this asset (AIC unless said). */
  asset?: Asset;
  /**
   * The caller's CTEs, `name as (...), name as (...)`, written first in the same statement;
   * `lines`, `recorded` and `report` may read them. Names starting with `batch_` are the ledger's;
   * `BATCH_ID` (one row, `id`) is the entry's id, drawn before them so that the caller's rows can
   * name it (a batch that posts nothing writes no entry, and the id goes unused).
   */
  with?: RawBuilder<unknown>;
  /**
   * A query yielding `user_id, kind, amount`: the postings, debits negative. Lines of one
   * account add up into one posting and zero ones are dropped; together they must sum to zero.
   */
  lines: RawBuilder<unknown>;
  /**
   * Lines like `lines` that the caller records itself, in rows of its own written in `with` and
   * read through the views `ledger_lines` and `ledger_postings` (settlement's income lines, with
   * `batch_id`): they move the balances and count in the entry's sum, but are not inserted into
   * `postings`. An account gets lines of one of the two only.
   */
  recorded?: RawBuilder<unknown>;
  /** The caller's columns of the answer, e.g. sql`(select count(*) from paid) as paid`. */
  report?: RawBuilder<unknown>;
};

/** What was posted: the entry (none when every line was zero), its postings, the money credited. */
type Posted = { entry: bigint | null; postings: number; moved: bigint };

type Row = { entry: bigint | null; postings: bigint; moved: bigint; imbalance: bigint; mixed: bigint };

/**
 * Posts one batch in a single statement: the entry, a posting per account, and the balances
 * (`applyToBalances`: key order, credits create accounts, debits under the CHECK). Nothing of
 * the books is written unless the lines balance; an overdraft (or a debit of a missing account)
 * fails the whole statement with `InsufficientBalance`, the caller's writes in `with` included.
 * An unbalanced batch throws too, but the caller's `with` writes stand unless its transaction
 * rolls back: run batches with such writes in a transaction.
 */
export async function postBatch<R extends object = object>(db: Kysely<Database>, batch: BatchEntry): Promise<Posted & R> {
  let row: (Row & R) | undefined;
  try {
    row = (await batchStatement<R>(batch).execute(db)).rows[0];
  } catch (error) {
    if (isCheckViolation(error)) throw new InsufficientBalance();
    throw error;
  }
  if (!row) throw new Error('a ledger batch answered nothing');
  const { imbalance, postings, mixed, ...rest } = row;
  if (imbalance !== 0n) throw new Error(`entry ${batch.kind} ${batch.ref} does not balance: ${imbalance}`);
  if (mixed !== 0n) throw new Error(`entry ${batch.kind} ${batch.ref} has accounts both posted and recorded: ${mixed}`);
  return { ...rest, postings: Number(postings) } as Posted & R;
}

/**
 * The order a batch locks its accounts in: the holders' in key order, then the system's (user 0)
 * in key order. In key order the paying system account came first, so of two writers side by side
 * (the rebates' parts) the second waited for all the first's balances and its commit, where now
 * it waits for the commit only. No deadlock comes of
 * it: every batch locks in this order, and no writer of a single entry locks a system account
 * and a holder's together (the buy moves within a holder; deposits and withdrawals use the
 * exchange account, which no batch touches; the operator funds system accounts only).
 */
const BATCH_ORDER = `(user_id = 0), ${KEY_ORDER}`;

/**
 * The balances' rows: the merged lines with the entry's month, id and kind, and each user's net
 * on the first of its rows. One window, in `BATCH_ORDER`, so that one sort serves the net and
 * the order the balances are locked in.
 */
const BALANCE_ROWS = `(
  select m.user_id, m.asset, m.kind, m.amount, ${monthOf('e.created_at')} as month, e.id as entry_id, e.entry_kind,
    case when row_number() over w = 1 then sum(m.amount) over whole else 0 end as net
  from batch_merged m cross join batch_entry e
  window w as (partition by (m.user_id = 0), m.user_id order by m.asset collate "C", m.kind collate "C"),
    whole as (w rows between unbounded preceding and unbounded following)
  order by ${BATCH_ORDER}) l`;

function batchStatement<R>(batch: BatchEntry): RawBuilder<Row & R> {
  const callerCtes = batch.with ? sql`${batch.with},` : sql``;
  const report = batch.report ? sql`, ${batch.report}` : sql``;
  const recorded = batch.recorded ? sql`union all select user_id, kind, amount::bigint, true from (${batch.recorded}) r` : sql``;
  return sql<Row & R>`
    with ${sql.table(BATCH_ID)} as (select nextval('journal_entries_id_seq') as id),
    ${callerCtes}
    batch_lines as (select user_id, kind, amount::bigint as amount, false as recorded from (${batch.lines}) l ${recorded}),
    -- bigint_sum, not sum: a step's hundreds of thousands of accounts (server/db/aggregates.ts).
    batch_merged as (
      select user_id::bigint as user_id, ${batch.asset ?? 'AIC'}::text as asset, kind::text as kind,
        bigint_sum(amount) as amount, bool_or(recorded) as recorded, bool_and(recorded) as only_recorded
      from batch_lines group by user_id, kind having bigint_sum(amount) <> 0
    ),
    -- Accounts with lines both posted and recorded: the batch writes nothing and throws.
    batch_mixed as (select count(*) as n from batch_merged where recorded <> only_recorded),
    batch_entry as (
      insert into journal_entries (id, kind, ref, created_at)
      select (select id from ${sql.table(BATCH_ID)}), ${batch.kind}, ${batch.ref}, coalesce(${batch.at ?? null}::timestamptz, now())
      where exists (select 1 from batch_merged) and (select sum(amount) from batch_merged) = 0
        and (select n from batch_mixed) = 0
      returning id, kind as entry_kind, created_at
    ),
    -- In key order, like the balances: the lines come grouped in no order, and a million postings
    -- put into the primary key at random places cost more than sorting them first.
    batch_postings as (
      insert into postings (entry_id, user_id, asset, kind, amount)
      select e.id, m.user_id, m.asset, m.kind, m.amount from batch_entry e cross join batch_merged m
      where not m.recorded
      order by ${sql.raw(KEY_ORDER)}
      returning 1
    ),
    -- Reads batch_entry: an unbalanced batch, which has no entry, moves nothing. Read by nothing,
    -- so it runs last: PostgreSQL runs the data-modifying CTEs the main query reads as it reads
    -- them, and the others after it, the last written first. It locks the paying system account,
    -- which two writers side by side (the rebates' parts) wait for: everything else of the
    -- statement is done by then (batch_postings is read below; a caller's writes are read by
    -- its report), and the system's accounts come last (BATCH_ORDER), so the lock is held only
    -- for the commit.
    batch_balances as (
      ${sql.raw(applyToBalances(BALANCE_ROWS))}
      returning 1
    )
    select (select id from batch_entry) as entry,
      (select count(*) from batch_postings) as postings,
      (select coalesce(sum(amount), 0) from batch_merged where amount > 0)::bigint as moved,
      (select coalesce(sum(amount), 0) from batch_merged)::bigint as imbalance,
      (select n from batch_mixed) as mixed
      ${report}`;
}

/**
 * Moves AIC between two accounts of each user, for every row `changes` yields (a data-changing
 * statement returning user_id and amount, e.g. lock-ups released or orders ended): one entry, a
 * pair of postings per user, in one statement (with the caller's `also`, e.g. the notices).
 * Answers how many rows `changes` yielded.
 */
export async function moveWithinUsers(
  trx: Transaction<Database>,
  move: {
    changes: RawBuilder<unknown>;
    from: AccountKind;
    to: AccountKind;
    kind: string;
    ref: string;
    at?: Date | undefined;
    /** The caller's own writes from the changed rows (CTEs reading `changed`), in the same statement. */
    also?: RawBuilder<unknown>;
  },
): Promise<number> {
  const posted = await postBatch<{ changed: bigint }>(trx, {
    kind: move.kind,
    ref: move.ref,
    at: move.at,
    with: sql`changed as (${move.changes})${move.also ? sql`, ${move.also}` : sql``}`,
    lines: sql`
      select user_id, ${move.from}::text as kind, -amount as amount from changed where amount > 0
      union all
      select user_id, ${move.to}::text, amount from changed where amount > 0`,
    report: sql`(select count(*) from changed) as changed`,
  });
  return Number(posted.changed);
}
