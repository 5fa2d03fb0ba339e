/**
 * The yardstick of bench/settlement (and the income part of bench/day's): the same day's income
 * written by hand as plain set-based SQL, one statement per step, with nothing of the app's
 * machinery (no registry, no CTE shared with the ledger's batch form, no key-ordered upsert, no
 * shortfall handling, no holders' totals by kind). Each statement inserts the income rows with
 * the columns they were computed from (each naming the step's entry and the account it pays
 * into: the holders' postings, as migration 0032 keeps them), updates the orders, writes one
 * journal entry with the paying system account's posting, and moves the balances: the same rows
 * the app writes, so the two runs can be compared row for row (their totals are).
 *
 * Knows the bench's population only: products fixed30, reinvest360 and current, status
 * in_progress, every holder's earning account present.
 */
import { sql } from 'kysely';
import { parseRate } from '../contract/money.ts';
import type { Db } from '../server/db/connect.ts';
import { coefficientScaled, type EarnParams } from '../server/earn/params.ts';

/** A rate as a fraction, and as written (the lines keep the text). */
export type Rate = { num: bigint; den: bigint; text: string };

export const rateOf = (text: string): Rate => {
  const { numerator, denominator } = parseRate(text);
  return { num: numerator, den: denominator, text: text.trim() };
};

/** The step's entry id, drawn first so that its income rows can name it. */
export const entryId = sql`entry_id as (select nextval('journal_entries_id_seq') as id)`;

/**
 * The posting side of one step, after its `paid` CTE (user_id, dest, amount): the entry, the
 * paying account's posting, the balances; answers the rows paid and their total.
 */
export const books = (ref: string, from: string) => sql`
  per_account as (select user_id, dest, sum(amount)::bigint as amount from paid where amount > 0 group by user_id, dest),
  entry as (insert into journal_entries (id, kind, ref) select id, 'yardstick', ${ref} from entry_id returning id),
  posted as (
    insert into postings (entry_id, user_id, asset, kind, amount)
    select entry.id, 0, 'AIC', ${from}, -(select coalesce(sum(amount), 0) from per_account) from entry
    returning 1
  ),
  credited as (
    insert into accounts as a (user_id, asset, kind, balance)
    select user_id, 'AIC', dest, amount from per_account
    on conflict (user_id, asset, kind) do update set balance = a.balance + excluded.balance
    returning 1
  ),
  debited as (
    update accounts set balance = balance - (select coalesce(sum(amount), 0) from per_account)
    where user_id = 0 and asset = 'AIC' and kind = ${from}
    returning 1
  )
  select (select count(*) from paid)::bigint as rows, (select coalesce(sum(amount), 0) from paid)::bigint as total`;

export type StepResult = { rows: bigint; total: bigint };

export const run = async (db: Db, query: ReturnType<typeof sql<StepResult>>) => {
  const { rows } = await query.execute(db);
  return rows[0] as StepResult;
};

/** 30-day accrual: principal × rate on every running order, into the holder's earning account. */
function fixed(db: Db, day: string, rate: Rate) {
  return run(
    db,
    sql<StepResult>`
      with ${entryId},
      paid as (
        insert into income (user_id, order_id, day, kind, amount, source, rate, entry_id, account)
        select user_id, id, ${day}::date, 'fixed', div(principal::numeric * ${rate.num}, ${rate.den})::bigint,
          principal, ${rate.text}, (select id from entry_id), 'earning'
        from orders
        where product = 'fixed30' and status = 'in_progress' and start_day <= ${day}::date and ${day}::date < matures_day
        on conflict do nothing
        returning user_id, order_id, amount, 'earning'::text as dest
      ),
      updated as (
        update orders o set income = o.income + p.amount from paid p
        where o.user_id = p.user_id and o.id = p.order_id
        returning 1
      ),
      ${books(`yardstick:${day}:fixed`, 'treasury')}`,
  );
}

/**
 * 360-day: the pool's output shared by power, each share at most principal × the maximum daily
 * rate; reinvesting orders grow principal and power.
 */
function pool(db: Db, day: string, rates: YardstickRates) {
  const { poolOutput: outputRate, maxRate: cap, coefficient, multiplier } = rates;
  return run(
    db,
    sql<StepResult>`
      with ${entryId},
      figures as (
        select div((select balance from accounts where user_id = 0 and asset = 'AIC' and kind = 'supercomputing_pool')::numeric
                 * ${outputRate.num}, ${outputRate.den}) as output,
          (select sum(power) from orders where product = 'reinvest360' and status = 'in_progress'
             and start_day <= ${day}::date and ${day}::date < matures_day)::numeric as total_power
      ),
      shares as (
        select o.user_id, o.id, o.reinvest, o.power, o.principal,
          least(div(f.output * o.power, f.total_power), div(o.principal::numeric * ${cap.num}, ${cap.den}))::bigint as amount
        from orders o, figures f
        where o.product = 'reinvest360' and o.status = 'in_progress' and o.start_day <= ${day}::date and ${day}::date < o.matures_day
      ),
      inserted as (
        insert into income (user_id, order_id, day, kind, amount, power, reinvest, source, entry_id, account)
        select user_id, id, ${day}::date, 'static', amount, power, reinvest, principal, (select id from entry_id),
          case when reinvest then 'earning' else 'rewards' end
        from shares
        on conflict do nothing
        returning user_id, order_id, amount
      ),
      paid as (
        select i.user_id, i.order_id, i.amount, s.reinvest,
          case when s.reinvest then 'earning' else 'rewards' end as dest
        from inserted i join shares s on s.user_id = i.user_id and s.id = i.order_id
      ),
      updated as (
        update orders o set income = o.income + p.amount,
          principal = o.principal + case when p.reinvest then p.amount else 0 end,
          power = o.power + case when p.reinvest then div(${multiplier}::numeric * p.amount * ${coefficient}, 100000000)::bigint else 0 end
        from paid p where o.user_id = p.user_id and o.id = p.order_id
        returning 1
      ),
      ${books(`yardstick:${day}:static`, 'supercomputing_pool')}`,
  );
}

/** Current: every finished 24-hour cycle pays (principal + income) × rate and rolls over. */
function current(db: Db, day: string, asOf: Date, rate: Rate) {
  return run(
    db,
    sql<StepResult>`
      with ${entryId},
      paid as (
        insert into income (user_id, order_id, day, kind, amount, source, rate, cycle, entry_id, account)
        select user_id, id, ${day}::date, 'current', div((principal + income)::numeric * ${rate.num}, ${rate.den})::bigint,
          principal + income, ${rate.text}, cycles_paid + 1, (select id from entry_id), 'earning'
        from orders
        where product = 'current' and status = 'in_progress' and cycle_start + (cycles_paid + 1) * interval '1 day' <= ${asOf}
        on conflict do nothing
        returning user_id, order_id, amount, 'earning'::text as dest
      ),
      updated as (
        update orders o set income = o.income + p.amount, cycles_paid = o.cycles_paid + 1 from paid p
        where o.user_id = p.user_id and o.id = p.order_id
        returning 1
      ),
      ${books(`yardstick:${day}:current`, 'treasury')}`,
  );
}

export type YardstickRates = {
  fixed: Rate;
  current: Rate;
  poolOutput: Rate;
  /** The most a 360-day order's share may be, of its principal. */
  maxRate: Rate;
  /** c scaled by 1e8, and the power multiplier. */
  coefficient: bigint;
  multiplier: bigint;
};

/** The rates in force on `day` (`params`, the app's parameters of that day), as the yardstick takes them. */
export const yardstickRates = (params: EarnParams, day: string): YardstickRates => ({
  fixed: rateOf(params.dailyRates.fixed30?.rate ?? '0'),
  current: rateOf(params.dailyRates.current?.rate ?? '0'),
  poolOutput: rateOf(params.poolDailyOutputRate),
  maxRate: rateOf(params.poolMaxDailyRate),
  coefficient: coefficientScaled(params, day),
  multiplier: params.powerMultiplier,
});

/** Runs a step and adds its whole milliseconds to `steps` under its name. */
export const stepTimer =
  (steps: Record<string, number>) =>
  async <T>(name: string, work: () => Promise<T>): Promise<T> => {
    const start = performance.now();
    const result = await work();
    steps[name] = (steps[name] ?? 0) + Math.round(performance.now() - start);
    return result;
  };

/** The day by hand: answers the rows paid and their total, and each step's milliseconds. */
export async function handWrittenDay(db: Db, day: string, asOf: Date, rates: YardstickRates) {
  const steps: Record<string, number> = {};
  const timed = stepTimer(steps);
  const fixedPaid = await timed('fixed', () => fixed(db, day, rates.fixed));
  const poolPaid = await timed('static', () => pool(db, day, rates));
  const currentPaid = await timed('current', () => current(db, day, asOf, rates.current));
  return {
    rows: Number(fixedPaid.rows + poolPaid.rows + currentPaid.rows),
    total: fixedPaid.total + poolPaid.total + currentPaid.total,
    steps,
  };
}
