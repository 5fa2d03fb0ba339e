import { type RawBuilder, sql, type Transaction } from 'kysely';
import { formatUnits, parseRate } from '../../contract/money.ts';
import { productOf, productsOfKind } from '../../contract/products.ts';
import type { AppContext } from '../context.ts';
import type { Db } from '../db/connect.ts';
import type { Database } from '../db/schema.ts';
import { coefficientScaled, type EarnParams, earnParams, productRates } from '../earn/params.ts';
import { balanceOf, SYSTEM } from '../ledger/ledger.ts';
import { ensurePostingsDay } from '../ledger/days.ts';
import { addDays, dayNumber, isCalendarDay, utcDay } from '../platform/clock.ts';
import { AppError } from '../http/errors.ts';
import { decimalText, noticesFrom, notifyDayIncome } from '../notify/notices.ts';
import { buildProofs } from '../proof/build.ts';
import { payRebatesPart, releaseLockups, rollUpTeam, stageRebates, writeTeamStats } from '../team/settle.ts';
import { moveWithinUsers } from '../ledger/batch.ts';
import { type IncomeStep, payIncome, Shortfall } from '../income/payIncome.ts';
import type { OrderColumns } from '../income/orderPayment.ts';
import { holderRanges, type Part } from '../income/parts.ts';
import { ensureIncomeDay, summarizeIncomeDays } from '../income/days.ts';
import { transact } from '../db/transact.ts';
import { teamRules } from '../team/rules.ts';
import type { TeamRules } from '../../contract/teamRules.ts';
import { ORDERS, productsIn, runningOn } from '../db/statuses.ts';
import { LOCKS } from '../db/locks.ts';
import { runSteps, type Step } from './runner.ts';
import { teamWindow } from '../activity/phase.ts';

type Trx = Transaction<Database>;

/** The steps that take a lock of their own (db/locks.ts); the proof takes the proof's. */
type LockedStep = keyof typeof LOCKS.settlementStep;
const lockStep = (trx: Trx, day: string, name: LockedStep) =>
  sql`select pg_advisory_xact_lock(${LOCKS.settlementStep[name]}, ${dayNumber(day)})`.execute(trx);

export type DayReport = {
  day: string;
  status: 'done' | 'waiting_funds' | 'already_done';
  fixed: number;
  staticRows: number;
  /** Current orders' cycles that ended by the day's end, paid with it. */
  current: number;
  rebates: number;
  released: number;
  /** 30-day orders that reached maturity, and of them those that renewed themselves. */
  matured: number;
  renewed: number;
  ended: number;
  shortfall: string | null;
  durationMs: number;
  /** Milliseconds of each step, in the order they ran (for the benchmarks and the logs). */
  steps?: Record<string, number>;
};

export type SettleOptions = {
  /**
   * false: the day's income notices are not written (the other notices are: they are part of
   * the statements that change orders and lock-ups). Only for bench/day, which settles a day
   * without them to measure what they cost; the app always writes them.
   */
  incomeNotices?: boolean;
};

async function inStep<T>(ctx: AppContext, day: string, name: LockedStep, work: (trx: Trx) => Promise<T>): Promise<T> {
  return transact(ctx.db, async (trx) => {
    await lockStep(trx, day, name);
    // Set-based steps hash and group every active order: memory rather than disk spills, and
    // no JIT, which compiles these one-off statements for longer than they run.
    await sql`set local work_mem = '256MB'`.execute(trx);
    await sql`set local jit = off`.execute(trx);
    return work(trx);
  });
}

/**
 * A step that credits a product kind's daily rate in force on `base` (an order's columns) into
 * the earning account, from the treasury: the fixed accrual and the current cycles.
 */
function accrualStep(
  step: { day: string; kind: 'fixed' | 'current'; at: Date; rates: ReturnType<typeof productRates> },
  where: RawBuilder<unknown>,
  base: (o: OrderColumns) => RawBuilder<unknown>,
  cycle = false,
): IncomeStep {
  const { rates, ...rest } = step;
  return {
    ...rest,
    from: 'treasury',
    orders: {
      where,
      amount: (o) => rates.accrual(base(o)),
      dest: () => sql`'earning'`,
      cycle,
      inputs: (o) => sql`${base(o)} as source, ${rates.rate} as rate, ${rates.rateFrom} as rate_from
        ${cycle ? sql`, ${o.cyclesPaid} + 1 as cycle` : sql``}`,
    },
  };
}

/** Fixed-term products: each day of the term accrues principal × the product's daily rate, from the treasury. */
export function fixedAccrualStep(day: string, params: EarnParams, now: Date): IncomeStep {
  const rates = productRates(params, 'fixed');
  return accrualStep({ day, kind: 'fixed', at: now, rates }, runningOn('fixed', day), (o) => o.principal);
}

/** The day's output of the supercomputing pool and the power sharing it, fixed at first sight. */
async function dayOutput(trx: Trx, day: string, params: EarnParams, now: Date) {
  const existing = await trx
    .selectFrom('settlement_days')
    .select(['pool_output', 'total_power', 'pool_balance'])
    .where('day', '=', day)
    .executeTakeFirst();
  if (existing?.pool_output != null && existing.total_power != null) {
    return { output: existing.pool_output, totalPower: existing.total_power, poolBalance: existing.pool_balance };
  }
  const poolBalance = await balanceOf(trx, { userId: SYSTEM, asset: 'AIC', kind: 'supercomputing_pool' });
  const { numerator, denominator } = parseRate(params.poolDailyOutputRate);
  const output = (poolBalance * numerator) / denominator;
  const power = await sql<{ total: bigint; principal: bigint }>`
    select coalesce(bigint_sum(power), 0) as total, coalesce(bigint_sum(principal), 0) as principal
    from orders where ${runningOn('pool', day)}`.execute(trx);
  const totalPower = power.rows[0]?.total ?? 0n;
  const figures = { pool_output: output, total_power: totalPower, pool_balance: poolBalance, static_principal: power.rows[0]?.principal ?? 0n };
  await trx
    .insertInto('settlement_days')
    .values({ day, status: 'running', ...figures, started_at: now })
    .onConflict((oc) => oc.column('day').doUpdateSet(figures))
    .execute();
  return { output, totalPower, poolBalance };
}

/**
 * 360-day: the day's output and power, fixed at first sight, with the figures every line shares
 * stored once with the day (each line keeps its order's power and reinvestment: income/inputs.ts
 * reads them back as the line's inputs). Null when there is nothing to share. Once per day, before
 * the parts paying the shares (`staticStep`).
 */
async function staticFigures(trx: Trx, day: string, params: EarnParams, now: Date) {
  const { output, totalPower, poolBalance } = await dayOutput(trx, day, params, now);
  if (output === 0n || totalPower === 0n) return null;
  const c = coefficientScaled(params, day).toString();
  const dayInputs = JSON.stringify({
    totalPower: totalPower.toString(),
    output: output.toString(),
    coefficient: c,
    multiplier: params.powerMultiplier.toString(),
    poolBalance: poolBalance?.toString() ?? null,
    outputRate: params.poolDailyOutputRate,
    outputRateFrom: params.versions.poolDailyOutputRate,
    maxRate: params.poolMaxDailyRate,
    maxRateFrom: params.versions.poolMaxDailyRate,
  });
  await trx.updateTable('settlement_days').set({ static_inputs: dayInputs }).where('day', '=', day).execute();
  return { output, totalPower, coefficient: c, multiplier: params.powerMultiplier, maxRate: params.poolMaxDailyRate };
}

/**
 * The pool's output shared by power (`figures` of the day), each share at most the order's
 * principal × the maximum daily rate: what the cap holds back is never paid, so it stays in the
 * pool. A reinvested share adds to the order's principal, and to its power times the multiplier
 * and the day's coefficient.
 */
export function staticStep(
  day: string,
  figures: { output: bigint; totalPower: bigint; coefficient: string; multiplier: bigint; maxRate: string },
  now: Date,
): IncomeStep {
  const cap = parseRate(figures.maxRate);
  const reinvested = (o: OrderColumns, value: RawBuilder<unknown>) => sql`case when ${o.reinvest} then ${value} else 0 end`;
  return {
    day,
    kind: 'static',
    from: 'supercomputing_pool',
    at: now,
    orders: {
      where: runningOn('pool', day),
      amount: (o) =>
        sql`least(div(${figures.output.toString()}::numeric * ${o.power}, ${figures.totalPower.toString()}::numeric),
          div(${o.principal}::numeric * ${cap.numerator.toString()}, ${cap.denominator.toString()}::numeric))::bigint`,
      dest: (o) => sql`case when ${o.reinvest} then 'earning' else 'rewards' end`,
      principalAdd: (amount, o) => reinvested(o, amount),
      powerAdd: (amount, o) =>
        reinvested(o, sql`div(${figures.multiplier.toString()}::numeric * ${amount} * ${figures.coefficient}::numeric, 100000000)::bigint`),
      inputs: (o) => sql`${o.power} as power, ${o.reinvest} as reinvest, ${o.principal} as source`,
    },
  };
}

/** Each fixed-term product's term in days, as SQL on `product`: the registry's terms, by name. */
function termOf(product: string) {
  const fixed = productsOfKind('fixed');
  return sql`(${fixed.map((p) => productOf(p).termDays)}::int[])[array_position(${fixed}::text[], ${sql.ref(product)}::text)]`;
}

/** What a renewal must meet on its first day: the minimum and the holder's daily quota then. */
type RenewalTerms = Pick<EarnParams, 'minimum' | 'dailyQuota'>;

/**
 * Fixed orders whose last day accrued reach maturity. One with auto-renew on renews: its
 * principal plus income become a new order of the product, starting the next day (so the
 * fixed accrual pays it at the rate in force on each of its days), within the minimum and the
 * holder's subscription quota of that day, as a buy would be: the renewal uses the quota, a
 * holder's renewals in order of their orders while they fit. The old order is then `renewed`,
 * linked both ways (`renewed_to`, `renewed_from`). One that does not renew (auto-renew off, or
 * refused) becomes redeemable, its notice saying why it did not renew. No money moves: the
 * holding stays in the holder's earning account, held by the new order instead of the old.
 *
 * One statement: the maturing orders are locked (an auto-renew switch waits for it, then finds
 * the order closed), the quota taken (a buy committed meanwhile that leaves too little is seen,
 * and the renewal refused), the orders written and the holders told. A second run finds no order
 * still running at maturity: it renews nothing twice (and orders_renewed_from holds each order
 * to one renewal).
 */
async function matureFixed(trx: Trx, day: string, now: Date, terms: RenewalTerms) {
  const next = addDays(day, 1);
  const { rows } = await sql<{ matured: bigint; renewed: bigint }>`
    with due as (
      select user_id, id, product, principal, income, auto_renew, principal + income as amount
      from orders
      where product in ${productsIn('fixed')} and status in ${ORDERS.active} and matures_day <= ${next}::date
      for update
    ),
    used as (
      select q.user_id, q.used from daily_quota q
      where q.day = ${next}::date and q.user_id in (select user_id from due where auto_renew)
    ),
    ranked as (
      select d.*,
        case
          when not d.auto_renew then null
          when d.amount < ${terms.minimum} then 'minimum'
          when coalesce(u.used, 0) + sum(d.amount) filter (where d.auto_renew and d.amount >= ${terms.minimum})
            over (partition by d.user_id order by d.id) > ${terms.dailyQuota} then 'quota'
          else 'renew'
        end as outcome
      from due d left join used u on u.user_id = d.user_id
    ),
    accepted as (select user_id, id, product, amount from ranked where outcome = 'renew'),
    consumed as (
      insert into daily_quota as q (user_id, day, used)
      select user_id, ${next}::date, sum(amount)::bigint from accepted group by user_id
      on conflict (user_id, day) do update set used = q.used + excluded.used
      where q.used + excluded.used <= ${terms.dailyQuota}
      returning user_id
    ),
    created as (
      insert into orders (user_id, product, principal, status, start_day, created_at, matures_day, auto_renew, renewed_from)
      select a.user_id, a.product, a.amount, 'confirming', ${next}::date, ${now}::timestamptz,
        ${next}::date + ${termOf('a.product')}, true, a.id
      from accepted a join consumed c on c.user_id = a.user_id
      returning user_id, id, renewed_from, principal
    ),
    changed as (
      update orders o set
        status = case when c.id is null then 'redeemable' else 'renewed' end,
        renewed_to = c.id,
        closed_at = case when c.id is null then o.closed_at else ${now}::timestamptz end
      from ranked r left join created c on c.user_id = r.user_id and c.renewed_from = r.id
      where o.user_id = r.user_id and o.id = r.id
      returning o.user_id, o.id, o.principal, o.income, c.id as renewal, c.principal as renewed,
        -- Accepted but not renewed: a buy took the quota meanwhile.
        case when c.id is null then case r.outcome when 'renew' then 'quota' else r.outcome end end as refused
    ),
    told_renewed as (${noticesFrom(
      'order_renewed',
      sql`select user_id, id::text as key, jsonb_build_object('order', id::text, 'renewal', renewal::text,
          'principal', ${decimalText('renewed')}, 'income', ${decimalText('income')}, 'day', ${next}::text) as params
        from changed where renewal is not null`,
      now,
    )}),
    told_redeemable as (${noticesFrom(
      'order_redeemable',
      sql`select user_id, id::text as key, jsonb_build_object('order', id::text,
          'principal', ${decimalText('principal')}, 'income', ${decimalText('income')})
          || case refused
            when 'quota' then jsonb_build_object('reason', refused, 'limit', ${formatUnits(terms.dailyQuota)}::text)
            when 'minimum' then jsonb_build_object('reason', refused, 'limit', ${formatUnits(terms.minimum)}::text)
            else '{}'::jsonb end as params
        from changed where renewal is null`,
      now,
    )})
    select count(*) as matured, count(renewal) as renewed from changed`.execute(trx);
  return { matured: Number(rows[0]?.matured ?? 0n), renewed: Number(rows[0]?.renewed ?? 0n) };
}

/**
 * Fixed orders whose last day accrued mature (renewed or redeemable, `matureFixed`); 360-day
 * orders end and repay. Each holder is told, in the statement that changes the order.
 */
async function mature(trx: Trx, day: string, now: Date, fixedPaid: boolean, terms: RenewalTerms) {
  const next = addDays(day, 1);
  const { matured, renewed } = fixedPaid ? await matureFixed(trx, day, now, terms) : { matured: 0, renewed: 0 };
  const ended = await moveWithinUsers(trx, {
    changes: sql`
      update orders set status = 'ended', closed_at = ${now}
      where product in ${productsIn('pool')} and status in ${ORDERS.active}
        and matures_day <= ${next}::date
      returning user_id, id, principal as amount`,
    also: sql`told as (${noticesFrom(
      'order_ended',
      sql`select user_id, id::text as key, jsonb_build_object('order', id::text, 'principal', ${decimalText('amount')}) as params
        from changed`,
      now,
    )})`,
    from: 'earning',
    to: 'wallet',
    kind: 'term_end',
    ref: `settlement:${day}:term_end`,
    at: now,
  });
  return { matured, renewed, ended };
}

/** The last moment of `day` (UTC), or now if the day has not ended: cycles up to it are due. */
function dayEnd(day: string, now: Date): Date {
  const end = new Date(Date.parse(`${addDays(day, 1)}T00:00:00Z`) - 1);
  return end < now ? end : now;
}

/**
 * Orders bought on `day` are recorded; from the next day on they are in progress. The pool's
 * total power is written here, in the same transaction: this is the last of the day's steps that
 * changes it (the shares' reinvested power, the terms' ends, the orders starting), and nothing
 * outside the day does, so the Earn centre reads one row instead of summing every order.
 */
async function confirm(trx: Trx, day: string) {
  await sql`
    update orders set status = case when reinvest then 'reinvested' else 'in_progress' end
    where status = 'confirming' and start_day <= ${addDays(day, 1)}::date`.execute(trx);
  await sql`
    update pool_power set as_of = ${day}::date, total = (
      select coalesce(bigint_sum(power), 0) from orders where product in ${productsIn('pool')} and status in ${ORDERS.earning})`.execute(trx);
}

async function dayStatus(ctx: AppContext, day: string) {
  return (await ctx.db.selectFrom('settlement_days').select('status').where('day', '=', day).executeTakeFirst())
    ?.status;
}

/**
 * A day settles only once it has ended by the app's clock: a day settled ahead would pay income
 * for time that has not passed, and its figures (orders, rates) could still change.
 */
export function assertDayEnded(day: string, now: Date): void {
  if (!isCalendarDay(day)) throw new AppError('PARAM', `not a calendar day (YYYY-MM-DD): ${day}`);
  const today = utcDay(now);
  if (day >= today) throw new AppError('DAY_NOT_ENDED', `${day} has not ended: today (UTC) is ${today}`);
}

type StepName = LockedStep | 'proof';
const REBATE_PARTS = ['rebates0', 'rebates1'] as const satisfies readonly LockedStep[];

type Counts = Omit<DayReport, 'day' | 'status' | 'shortfall' | 'durationMs' | 'steps'>;

/** What a day's steps share: its inputs, and what each step reports. */
type DayState = {
  ctx: AppContext;
  day: string;
  now: Date;
  params: EarnParams;
  /** The team rules in force on the day settled, not today's: a later change never reaches back. */
  team: TeamRules;
  notices: boolean;
  counts: Counts;
  fixedPaid: boolean;
  /** The steps that found the treasury or the pool short: the day waits for funds. */
  shortfalls: { step: StepName; account: string }[];
};

/** A paying step's transaction, under its lock: the rows it paid. */
const paid = (s: DayState, name: LockedStep, work: (trx: Trx) => Promise<{ rows: number }>) =>
  inStep(s.ctx, s.day, name, work).then((result) => result.rows);

/**
 * The steps that credit holders' earning accounts (the fixed accrual, the pool's output, the
 * current cycles) are paid in parts by ranges of holder ids (`holderRanges`,
 * SETTLEMENT_PART_HOLDERS ids a part), one transaction after another under the step's lock. A
 * buy credits the same account and waits for the transaction holding it: for one part's
 * balances and commit, not the whole step's. Each part pays once (payIncome: a part run again
 * pays only its lines not there yet) and reads its own orders only, a range of the index of the
 * active orders by holder.
 */
async function inParts(ctx: AppContext, day: string, name: LockedStep, pay: (trx: Trx, part: Part) => Promise<{ rows: number }>) {
  let rows = 0;
  const parts = await holderRanges(ctx.db, ctx.config.settlementPartHolders);
  for (const part of parts) rows += (await inStep(ctx, day, name, (trx) => pay(trx, part))).rows;
  return rows;
}

/** A step that pays from the treasury or the pool: when that is short, the day waits for funds and the rest still runs. */
async function orWait(s: DayState, name: LockedStep, work: () => Promise<void>): Promise<void> {
  try {
    await work();
  } catch (error) {
    if (!(error instanceof Shortfall)) throw error;
    s.shortfalls.push({ step: name, account: error.account });
  }
}

const settled = (s: DayState) => s.shortfalls.length === 0;

/**
 * A settled day, step by step, in the order they may start: each waits for the steps it reads
 * from, and runs beside the others (at most DAY_CONNECTIONS at a time). Each step is its own
 * transaction under its own lock and pays only what it has not paid before, so a second run, or
 * one resumed after a crash, pays exactly once.
 */
const DAY_STEPS: Step<StepName, DayState>[] = [
  {
    name: 'fixed',
    after: [],
    touches: 'reads the running fixed-term orders; pays their daily accrual from the treasury',
    run: (s) =>
      orWait(s, 'fixed', async () => {
        s.counts.fixed = await inParts(s.ctx, s.day, 'fixed', (trx, part) => payIncome(trx, { ...fixedAccrualStep(s.day, s.params, s.now), part }));
        s.fixedPaid = true;
      }),
  },
  {
    name: 'static',
    after: [],
    touches: 'reads the pool and the earning 360-day orders; pays their shares from the pool, reinvested ones into principal and power',
    run: (s) =>
      orWait(s, 'static', async () => {
        const figures = await inStep(s.ctx, s.day, 'static', (trx) => staticFigures(trx, s.day, s.params, s.now));
        if (figures) s.counts.staticRows = await inParts(s.ctx, s.day, 'static', (trx, part) => payIncome(trx, { ...staticStep(s.day, figures, s.now), part }));
      }),
  },
  {
    name: 'current',
    after: [],
    touches: 'reads the current orders whose cycle ended by the day\'s end; pays the cycles from the treasury',
    run: async (s) => {
      s.counts.current = await settleCurrentCycles(s.ctx, dayEnd(s.day, s.now));
    },
  },
  {
    name: 'team',
    after: ['static'],
    touches: 'reads what each member holds, with the day\'s reinvested shares; writes the team roll-up',
    run: (s) => inStep(s.ctx, s.day, 'team', (trx) => rollUpTeam(trx, s.day, s.team, teamWindow(s.ctx.config.recruitment))),
  },
  {
    name: 'teamStats',
    after: ['team'],
    touches: 'reads the roll-up; writes the day\'s team figures (nothing of the day reads them)',
    run: (s) => inStep(s.ctx, s.day, 'teamStats', (trx) => writeTeamStats(trx, s.day, s.team)),
  },
  {
    name: 'uplines',
    after: ['team'],
    touches: 'reads the roll-up and the tree; stages each earner\'s uplines for the rebates',
    run: (s) => inStep(s.ctx, s.day, 'uplines', (trx) => stageRebates(trx, s.team)),
  },
  // The rebates, the day's longest statement, in two parts by receiver.
  ...REBATE_PARTS.map(
    (name, index): Step<StepName, DayState> => ({
      name,
      after: ['uplines'],
      touches: 'reads the staged uplines and the day\'s static lines; pays locked rebates from the treasury',
      run: (s) =>
        orWait(s, name, async () => {
          s.counts.rebates += await paid(s, name, (trx) => payRebatesPart(trx, s.day, s.team, { index, of: REBATE_PARTS.length }, s.now));
        }),
    }),
  ),
  {
    name: 'mature',
    after: ['fixed', 'teamStats'],
    touches: 'reads the orders at the end of their term; returns or renews them (a renewal is the next day\'s subscription: its minimum and quota)',
    run: async (s) => {
      const ended = await inStep(s.ctx, s.day, 'mature', async (trx) =>
        mature(trx, s.day, s.now, s.fixedPaid, await earnParams(trx, s.ctx.config.earn, addDays(s.day, 1))),
      );
      Object.assign(s.counts, ended);
    },
  },
  {
    name: 'release',
    after: ['rebates0', 'rebates1', 'mature'],
    touches: 'reads the lock-ups whose day has come; releases them',
    run: async (s) => {
      s.counts.released = await inStep(s.ctx, s.day, 'release', (trx) => releaseLockups(trx, s.day, s.now));
    },
  },
  {
    name: 'confirm',
    after: ['release'],
    touches: 'starts the orders that were confirming',
    run: (s) => inStep(s.ctx, s.day, 'confirm', (trx) => confirm(trx, s.day)),
  },
  // A day whose money has all moved is told and proven before it is marked done, so a crash
  // leaves it to the next run (both are idempotent). A day waiting for funds is neither: its
  // totals and balances are not final.
  {
    name: 'notify',
    after: ['confirm', 'current'],
    touches: 'reads the day\'s income lines; writes each holder\'s income notice',
    when: (s) => settled(s) && s.notices,
    run: (s) => inStep(s.ctx, s.day, 'notify', (trx) => notifyDayIncome(trx, s.day, s.now)),
  },
  {
    name: 'proof',
    after: ['confirm', 'current'],
    touches: 'reads every balance; writes the day\'s proof of liabilities',
    when: settled,
    run: (s) => buildProofs(s.ctx, s.day),
  },
];
/**
 * Steps running at once: the rebates' two parts side by side, or any two others. A third
 * statement would take a share of the database's cores from the day's longest path (the pool's
 * output, the roll-up, the uplines and the rebates).
 */
const DAY_CONNECTIONS = 2;

/**
 * Settles one finished UTC day: DAY_STEPS, then the day marked done, or waiting for funds when
 * the treasury or the pool could not cover a step (the day is tried again later).
 */
export async function settleDay(ctx: AppContext, day: string, options: SettleOptions = {}): Promise<DayReport> {
  const started = Date.now();
  const now = ctx.clock.now();
  assertDayEnded(day, now);
  const counts: Counts = { fixed: 0, staticRows: 0, current: 0, rebates: 0, released: 0, matured: 0, renewed: 0, ended: 0 };
  if ((await dayStatus(ctx, day)) === 'done') return { day, status: 'already_done', ...counts, shortfall: null, durationMs: 0 };
  await prepareDay(ctx, day);
  const state: DayState = {
    ctx,
    day,
    now,
    params: await earnParams(ctx.db, ctx.config.earn, day),
    team: await teamRules(ctx.db, ctx.config.team, day),
    notices: options.incomeNotices !== false,
    counts,
    fixedPaid: false,
    shortfalls: [],
  };
  const steps = await runSteps(DAY_STEPS, state, DAY_CONNECTIONS);
  const status = settled(state) ? 'done' : 'waiting_funds';
  // In the steps' order, whichever finished first: the same day reports the same shortfall.
  const order = DAY_STEPS.map((step) => step.name);
  const accounts = state.shortfalls.sort((a, b) => order.indexOf(a.step) - order.indexOf(b.step)).map((s) => s.account);
  const shortfall = accounts.length ? [...new Set(accounts)].join(',') : null;
  const durationMs = Date.now() - started;
  const staticPaid = status === 'done' ? await poolPaid(ctx.db, day) : null;
  await ctx.db
    .insertInto('settlement_days')
    .values({ day, status, shortfall, started_at: now, finished_at: ctx.clock.now(), duration_ms: durationMs, static_paid: staticPaid })
    .onConflict((oc) => oc.column('day').doUpdateSet({ status, shortfall, finished_at: ctx.clock.now(), duration_ms: durationMs, static_paid: staticPaid }))
    .execute();
  return { day, status, ...counts, shortfall, durationMs, steps };
}

/**
 * What the day's 360-day shares took from the pool, as the ledger has it: the pool's postings
 * (a handful a day, read by the postings' key) of the day's static entries.
 */
async function poolPaid(db: Db, day: string): Promise<bigint> {
  const { rows } = await sql<{ paid: bigint }>`
    select coalesce(-sum(p.amount), 0)::bigint as paid
    from postings p join journal_entries e on e.id = p.entry_id
    where p.user_id = ${SYSTEM} and p.asset = 'AIC' and p.kind = 'supercomputing_pool' and e.ref = ${`settlement:${day}:static`}`.execute(db);
  return rows[0]?.paid ?? 0n;
}

/**
 * The day's partitions, made before the steps write into them, and the day ranges of the income
 * lines written since the last summary (about one day's), so that a day's steps that select its
 * lines in a partition of several days skip the other days' blocks (migration 0018).
 */
async function prepareDay(ctx: AppContext, day: string): Promise<void> {
  await ensureIncomeDay(ctx.db, day);
  await ensurePostingsDay(ctx.db, day);
  await summarizeIncomeDays(ctx.db);
}

/** When a current order's cycle being run ends, and its UTC day. */
const cycleEnd = sql`cycle_start + (cycles_paid + 1) * interval '1 day'`;
const cycleEndDay = sql`((${cycleEnd}) at time zone 'UTC')::date`;
/** The current orders whose running cycle has ended by `asOf`. */
const cycleDue = (asOf: Date) =>
  sql`product in ${productsIn('flexible')} and status = 'in_progress' and ${cycleEnd} <= ${asOf}`;

/**
 * Current (demand) orders: every finished 24-hour cycle credits (principal + income) × the
 * daily rate in force on the day the cycle ends, and the holding rolls into the next cycle.
 * Days are paid in order. One scan of the orders finds every day with a cycle due; a cycle paid
 * on day D makes its order due again on D + 1 at the earliest, so the orders are scanned again
 * only when D + 1 has begun by `asOf` and is not the next day found (settling a day, never: its
 * cycles' next ends are after it, and a scan of every order is not free at a million).
 */
export async function settleCurrentCycles(ctx: AppContext, asOf: Date): Promise<number> {
  let paid = 0;
  for (let round = 0; round < 1000; round++) {
    const { rows } = await sql<{ day: string }>`
      select distinct ${cycleEndDay}::text as day from orders where ${cycleDue(asOf)} order by day`.execute(ctx.db);
    const days = rows.map((r) => r.day);
    let paidThisRound = 0;
    for (const [i, day] of days.entries()) {
      const result = await payCycles(ctx, day, asOf);
      if (result === null) return paid;
      paid += result;
      paidThisRound += result;
      const next = addDays(day, 1);
      if (Date.parse(`${next}T00:00:00Z`) > asOf.getTime()) return paid;
      if (days[i + 1] !== next) break;
    }
    if (paidThisRound === 0) return paid;
  }
  return paid;
}

/**
 * The current cycles that end on `day` (by `asOf`): each credits (principal + income) × the rate
 * in force on `day`. Paid in place: the update waits for a redemption committed meanwhile, then
 * finds the order no longer in progress and skips it, so no cycle is credited to an order
 * already paid out (found by the reliability suite, when the candidates were read first).
 */
export function currentCyclesStep(day: string, asOf: Date, params: EarnParams): IncomeStep {
  const rates = productRates(params, 'flexible');
  const where = sql`${cycleDue(asOf)} and ${cycleEndDay} = ${day}::date`;
  return accrualStep({ day, kind: 'current', at: asOf, rates }, where, (o) => sql`(${o.principal} + ${o.income})`, true);
}

/** The current cycles that end on `day` (by `asOf`), paid; null when the treasury cannot cover them. */
async function payCycles(ctx: AppContext, day: string, asOf: Date): Promise<number | null> {
  const params = await earnParams(ctx.db, ctx.config.earn, day);
  await ensureIncomeDay(ctx.db, day);
  try {
    return await inParts(ctx, day, 'current', (trx, part) => payIncome(trx, { ...currentCyclesStep(day, asOf, params), part }));
  } catch (error) {
    if (error instanceof Shortfall) return null;
    throw error;
  }
}

/** Everything due up to now: current cycles, then every finished day not yet settled, in order. */
export async function settleDue(ctx: AppContext): Promise<DayReport[]> {
  const now = ctx.clock.now();
  await settleCurrentCycles(ctx, now);
  const yesterday = addDays(utcDay(now), -1);
  const last = await ctx.db
    .selectFrom('settlement_days')
    .select(sql<string>`max(day)::text`.as('day'))
    .where('status', '=', 'done')
    .executeTakeFirst();
  const first = await ctx.db
    .selectFrom('orders')
    .select(sql<string>`(min(created_at) at time zone 'UTC')::date::text`.as('day'))
    .executeTakeFirst();
  let day = last?.day ? addDays(last.day, 1) : first?.day;
  const reports: DayReport[] = [];
  while (day && day <= yesterday) {
    const report = await settleDay(ctx, day);
    reports.push(report);
    if (report.status === 'waiting_funds') break;
    day = addDays(day, 1);
  }
  return reports;
}
