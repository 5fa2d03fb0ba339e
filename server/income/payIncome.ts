import { type RawBuilder, sql, type Transaction } from 'kysely';
import type { IncomeKind } from '../../contract/income.ts';
import type { Database } from '../db/schema.ts';
import { sqlStateOf } from '../db/failures.ts';
import { BATCH_ID, postBatch } from '../ledger/batch.ts';
import { InsufficientBalance } from '../ledger/ledger.ts';
import { LINE_COLUMNS } from './inputs.ts';
import { type OrderPayment, paidInPlace } from './orderPayment.ts';
import { inPart, type Part, WHOLE } from './parts.ts';

/**
 * The names the statement's CTEs go by. `PAID` is the one a step's own writes read: every line
 * paid by this run (user_id, order_id, amount, dest, principal_add, power_add, cycle_add).
 */
export const PAID = 'paid';
const CANDIDATES = 'candidates';
const ORDER_UPDATES = 'order_updates';
const NEW_INCOME = 'new_income';
const TOTALS = 'totals_written';
type Source = typeof CANDIDATES | typeof ORDER_UPDATES;

type StepBase = {
  day: string;
  kind: IncomeKind;
  /** The system account that pays: it must hold the money, or the step waits. */
  from: 'treasury' | 'supercomputing_pool';
  /** When the entry is dated (the app's clock); the database's time without it. */
  at?: Date | undefined;
  /**
   * The caller's own writes from what was paid (CTEs reading `PAID`), in the same statement, and
   * the names of its data-modifying CTEs, each with a RETURNING clause: the statement's report
   * reads them, so that they are done before the balances lock the paying account. `fresh` on a
   * first run, when the step has no line yet (nor, in the same statement, anything else), so a
   * write may skip checking for a conflict, as the lines' insert does.
   */
  also?: { ctes: (fresh: boolean) => RawBuilder<unknown>; writes: readonly string[] };
  /**
   * The holders (user_id of the lines) this run pays, when the step is paid in parts: orders
   * paid in place are those of this part (payIncome adds the condition), and candidates must be
   * of this part only. Whether the part paid anything yet is asked of its own lines, so a part
   * run after another (on one connection) is still a first run.
   */
  part?: Part;
};

/**
 * A step of a settled day: either one that pays orders and adds to their totals (`orders`, paid
 * in place: orderPayment.ts), or one that pays `candidates`, rows computed apart, without
 * touching any order (the rebates: paid to an ancestor on someone else's order).
 */
export type IncomeStep = StepBase &
  (
    | { orders: OrderPayment; candidates?: never }
    | {
        /**
         * Rows to pay: user_id, order_id, amount, dest (the receiving account), principal_add,
         * power_add, cycle_add, and what the amount was computed from in the kind's line columns
         * (LINE_COLUMNS).
         */
        candidates: RawBuilder<unknown>;
        orders?: never;
      }
  );

export class Shortfall extends Error {
  constructor(
    readonly account: string,
    readonly needed: bigint,
  ) {
    super(`${account} cannot cover ${needed}`);
  }
}

/**
 * Pays one settlement step in a single statement: income rows keyed by (order, day, kind)
 * (a second run inserts nothing and so pays nothing) and the orders' totals are written here;
 * the money (one journal entry, the lines as its postings to the holders and a posting from the
 * paying system account, the balances) by the ledger's batch form around them. The paying account's CHECK
 * refuses to go below zero, and a missing paying account is refused too: then nothing is paid
 * and the step throws `Shortfall` (`needed` is -1: the database does not say how much).
 */
export async function payIncome(trx: Transaction<Database>, step: IncomeStep): Promise<{ rows: number; total: bigint }> {
  try {
    return await firstOrLaterRun(trx, step);
  } catch (error) {
    if (error instanceof InsufficientBalance) throw new Shortfall(step.from, -1n);
    throw error;
  }
}

/**
 * A step is paid as a first run (`fresh`), the usual case: asking first whether any line of the
 * step exists cost a scan of the day's lines that found none, on every run and on the day's
 * longer path. A step run again (resumed, or settled
 * twice) meets its own lines in the primary key: that first run is rolled back to its savepoint
 * and the step paid as a later run, which pays only what is not there. A duplicate with no line
 * of the step there before is a fault of the step's own rows, and fails it.
 */
async function firstOrLaterRun(trx: Transaction<Database>, step: IncomeStep) {
  await sql`savepoint income_first_run`.execute(trx);
  try {
    const paid = await payRun(trx, step, true);
    await sql`release savepoint income_first_run`.execute(trx);
    return paid;
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    await sql`rollback to savepoint income_first_run`.execute(trx);
    if (await nothingPaid(trx, step)) throw error;
    // A later run joins what is due to the lines already there. Planned on statistics a day's
    // writes had not reached yet, that join was sometimes planned as a nested loop of the orders
    // over the day's lines, whose time grows with their product: hashed or merged, it is linear.
    await sql`set local enable_nestloop = off`.execute(trx);
    const paid = await payRun(trx, step, false);
    await sql`reset enable_nestloop`.execute(trx);
    return paid;
  }
}

/** SQLSTATE 23505: a unique index refused the row. */
const isUniqueViolation = (error: unknown) => sqlStateOf(error) === '23505';

/** One run of the step, in one statement (a first run when `fresh`, else a later one). */
async function payRun(trx: Transaction<Database>, step: IncomeStep, fresh: boolean) {
  const posted = await postBatch<{ paid: bigint }>(trx, {
    kind: 'settlement',
    ref: `settlement:${step.day}:${step.kind}`,
    at: step.at,
    with: sql`${step.orders ? ordersRun(step, step.orders, fresh) : candidatesRun(step, step.candidates, fresh)},
      ${addToTotals(step)}${step.also ? sql`, ${step.also.ctes(fresh)}` : sql``}`,
    // The holders' side is the lines themselves (each names the entry and the account: the
    // ledger's view ledger_postings), so only the paying account's posting is a row of postings.
    recorded: sql`select user_id, dest as kind, amount from ${sql.table(PAID)} where amount > 0`,
    lines: sql`select 0 as user_id, ${step.from}::text as kind, -coalesce(sum(amount), 0) as amount from ${sql.table(PAID)} where amount > 0`,
    // Reading the writes makes them run before the balances (see the ledger's batch form).
    report: sql.join(
      [sql`(select count(*) from ${sql.table(PAID)}) as paid`, ...writesOf(step).map((name, i) => sql`(select count(*) from ${sql.table(name)}) as ${sql.ref(`written_${i}`)}`)],
    ),
  });
  return { rows: Number(posted.paid), total: posted.moved };
}

/** The statement's data-modifying CTEs besides the ledger's, each with a RETURNING clause. */
const writesOf = (step: IncomeStep) => [NEW_INCOME, TOTALS, ...(step.orders ? [ORDER_UPDATES] : []), ...(step.also?.writes ?? [])];

/**
 * The run's new lines added to each holder's totals (migration 0037), by branch for rebates (0
 * for the other kinds), in the key's order: the My screen and the invite records read these
 * rows instead of summing every line the holder ever had.
 */
const addToTotals = (step: IncomeStep) => sql`
  ${sql.table(TOTALS)} as (
    insert into income_totals as t (user_id, kind, branch, amount)
    select user_id, ${step.kind}, coalesce(branch, 0), bigint_sum(amount)
    from ${sql.table(NEW_INCOME)}
    where amount > 0
    group by user_id, coalesce(branch, 0)
    order by user_id, coalesce(branch, 0)
    on conflict (user_id, kind, branch) do update set amount = t.amount + excluded.amount
    returning 1
  )`;

/**
 * Whether no line of the step's (day, kind) and part exists yet. Each kind and part is written by
 * one step only, under that step's lock for the day, and a step's lines commit together or not at
 * all, so none can appear meanwhile.
 */
async function nothingPaid(trx: Transaction<Database>, step: IncomeStep): Promise<boolean> {
  const { rows } = await sql`
    select 1 from income where day = ${step.day}::date and kind = ${step.kind} and ${inPart('user_id', step.part ?? WHOLE)}
    limit 1`.execute(trx);
  return rows.length === 0;
}

/**
 * The step's candidates as income lines of its day and kind, in the primary key's order: a step's
 * lines (a rebate's receivers above all) come in no particular order, and a million keys put
 * into a large index at random places cost twice what sorting them first does. A line that pays
 * something names the ledger's entry (`BATCH_ID`) and the account it pays into: it is that
 * entry's posting to the holder.
 */
const insertLines = (step: IncomeStep, from: Source) => {
  const columns = sql.join(LINE_COLUMNS[step.kind].map((c) => sql.ref(c)));
  return sql`
    insert into income (user_id, order_id, day, kind, amount, ${columns}, entry_id, account)
    select user_id, order_id, ${step.day}::date, ${step.kind}, amount, ${columns},
      case when amount > 0 then (select id from ${sql.table(BATCH_ID)}) end, dest
    from ${sql.table(from)}
    order by user_id, order_id`;
};

/** What the lines' insert answers: the holders' totals add them up (`addToTotals`). */
const RETURNING_NEW = sql`returning user_id, order_id, amount, branch`;

/** `PAID`: every row of `source` (candidates' columns), read where it is used rather than copied once more. */
const paidAsIs = (source: Source) =>
  sql`${sql.table(PAID)} as not materialized (select user_id, order_id, amount, dest, principal_add, power_add, cycle_add from ${sql.table(source)})`;

/**
 * Orders paid in place (orderPayment.ts): the update is the source of the lines. A later run
 * pays only the orders without a line of the day and kind yet.
 */
const ordersRun = (step: IncomeStep, orders: OrderPayment, fresh: boolean) => sql`
  ${sql.table(ORDER_UPDATES)} as (${paidInPlace(ofPart(orders, step.part ?? WHOLE), fresh ? undefined : { day: step.day, kind: step.kind })}),
  ${sql.table(NEW_INCOME)} as (${insertLines(step, ORDER_UPDATES)} ${RETURNING_NEW}),
  ${paidAsIs(ORDER_UPDATES)}`;

/** The payment of the orders of `part`'s holders only. */
const ofPart = (orders: OrderPayment, part: Part): OrderPayment => ({ ...orders, where: sql`(${orders.where}) and ${inPart('user_id', part)}` });

/** Candidates paid as they are on a first run, and only those not paid yet on a later one. */
const candidatesRun = (step: IncomeStep, candidates: RawBuilder<unknown>, fresh: boolean) => sql`
  ${sql.table(CANDIDATES)} as (${candidates}),
  ${fresh ? firstRun(step) : laterRun(step)}`;

/**
 * A first run: every candidate is new, so it is paid as it is. A plain insert costs clearly less
 * than one that checks each key for a conflict, and a duplicate key would fail the step rather
 * than pay twice.
 */
const firstRun = (step: IncomeStep) => sql`
  ${sql.table(NEW_INCOME)} as (${insertLines(step, CANDIDATES)} ${RETURNING_NEW}),
  ${paidAsIs(CANDIDATES)}`;

/** A later run (after a step that paid part of its lines): only the lines not there yet are paid. */
const laterRun = (step: IncomeStep) => sql`
  ${sql.table(NEW_INCOME)} as (${insertLines(step, CANDIDATES)} on conflict do nothing ${RETURNING_NEW}),
  ${sql.table(PAID)} as (
    select n.user_id, n.order_id, n.amount, c.dest, c.principal_add, c.power_add, c.cycle_add
    from ${sql.table(NEW_INCOME)} n join ${sql.table(CANDIDATES)} c on c.user_id = n.user_id and c.order_id = n.order_id
  )`;
