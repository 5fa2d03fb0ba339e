import { sql, type Transaction } from 'kysely';
import { formatUnits } from '../../contract/money.ts';
import type { ParamBody } from '../../contract/operator.ts';
import { DAILY_RATE_PARAMS } from '../../contract/products.ts';
import { paramOf, paramValueProblem } from '../../contract/params.ts';
import { TEAM_RULE_NAMES, type TeamRules, teamRuleTexts } from '../../contract/teamRules.ts';
import type { Config } from '../config.ts';
import type { AppContext } from '../context.ts';
import type { Database } from '../db/schema.ts';
import { EARN_PARAM_NAMES, earnParams, productRates } from '../earn/params.ts';
import { AppError } from '../http/errors.ts';
import { balanceOf, SYSTEM } from '../ledger/ledger.ts';
import { proofLedgerChecks } from '../proof/repository.ts';
import { addDays, utcDay } from '../platform/clock.ts';
import { PARAM, type ParamName, setParam } from '../platform/params.ts';
import { runChecks } from '../settlement/checks.ts';
import { ORDERS, productsIn } from '../db/statuses.ts';
import { noticesFrom } from '../notify/notices.ts';

/**
 * Each parameter's configured default by name: the value in force on any day before the
 * parameter's first stored version (the price, the earn terms and rates, the team rules).
 */
export function paramDefaults(config: Config): Record<string, string> {
  const defaults: Record<string, string> = { [PARAM.aicPriceUsd]: config.aicPriceUsd };
  for (const { product, name } of DAILY_RATE_PARAMS) defaults[name] = config.earn.dailyRates[product] ?? '0';
  for (const [key, name] of Object.entries(EARN_PARAM_NAMES) as [keyof typeof EARN_PARAM_NAMES, string][]) defaults[name] = config.earn[key];
  const team = teamRuleTexts(config.team);
  for (const [key, name] of Object.entries(TEAM_RULE_NAMES) as [keyof TeamRules, string][]) defaults[name] = team[key];
  return defaults;
}

/**
 * Schedules a parameter from a day on. Never for a day already settled (past payouts keep the
 * values in force on their day); rates and other earn terms only with notice (the configured
 * days ahead), so holders see a change coming. The price follows the market and is exempt.
 */
export async function scheduleParam(ctx: AppContext, trx: Transaction<Database>, body: ParamBody): Promise<void> {
  const problem = paramValueProblem(body.name, body.value);
  if (problem) throw new AppError('PARAM', `${body.name}: ${problem}`);
  const { notice } = paramOf(body.name) ?? { notice: true };
  const today = utcDay(ctx.clock.now());
  const settled = await trx
    .selectFrom('settlement_days')
    .select(sql<string>`max(day)::text`.as('day'))
    .where('status', '=', 'done')
    .executeTakeFirst();
  if (body.effectiveDay < today || (settled?.day && body.effectiveDay <= settled.day)) {
    throw new AppError('DAY_SETTLED', 'a change applies from a future, unsettled day');
  }
  if (notice && body.effectiveDay < addDays(today, ctx.config.paramNoticeDays)) {
    throw new AppError('NOTICE_TOO_SHORT', `earn terms and team rules change at least ${ctx.config.paramNoticeDays} days ahead`);
  }
  await setParam(trx, body.name as ParamName, body.effectiveDay, body.value, ctx.clock.now());
  if (notice) await announce(trx, body, ctx.clock.now());
}

/**
 * Tells every holder with an order (held or redeemable) of a change of terms, in the
 * transaction that schedules it: the notice period starts with the notice. Keyed by the
 * parameter, its day and value, so the same change scheduled twice is told once.
 */
function announce(trx: Transaction<Database>, body: ParamBody, at: Date) {
  const key = `${body.name}@${body.effectiveDay}=${body.value}`;
  return noticesFrom(
    'terms_change',
    sql`select distinct user_id, ${key}::text as key,
        jsonb_build_object('name', ${body.name}::text, 'value', ${body.value}::text, 'day', ${body.effectiveDay}::text) as params
      from orders where status in ${ORDERS.held}`,
    at,
  ).execute(trx);
}

/**
 * The treasury and the pool, and tomorrow's fixed-term interest at the rate in force tomorrow
 * (a scheduled change may start then), divided exactly as settlement divides it.
 */
export async function payoutCoverage(ctx: AppContext) {
  const tomorrow = addDays(utcDay(ctx.clock.now()), 1);
  const rates = productRates(await earnParams(ctx.db, ctx.config.earn, tomorrow), 'fixed');
  const [treasury, pool, fixed] = await Promise.all([
    balanceOf(ctx.db, { userId: SYSTEM, asset: 'AIC', kind: 'treasury' }),
    balanceOf(ctx.db, { userId: SYSTEM, asset: 'AIC', kind: 'supercomputing_pool' }),
    sql<{ total: bigint }>`select coalesce(sum(${rates.accrual(sql`principal`)}), 0)::bigint as total
      from orders where product in ${productsIn('fixed')} and status in ${ORDERS.active}`.execute(ctx.db),
  ]);
  return { treasury, pool, fixedNextDay: fixed.rows[0]?.total ?? 0n };
}

/**
 * The ledger's own check, and whether the treasury and the pool cover what comes next. Not ok
 * either when the tree check fails or a holder's income totals differ from their lines.
 */
export async function ledgerReport(ctx: AppContext) {
  const { ledger: check, tree, incomeTotals } = await runChecks(ctx);
  const [{ treasury, pool, fixedNextDay }, days] = await Promise.all([
    payoutCoverage(ctx),
    ctx.db.selectFrom('settlement_days').select(['day', 'status', 'shortfall']).orderBy('day', 'desc').limit(10).execute(),
  ]);
  return {
    ...check,
    ok: check.ok && tree.ok && incomeTotals === 0,
    tree,
    coverage: {
      treasury: formatUnits(treasury),
      pool: formatUnits(pool),
      fixedNextDay: formatUnits(fixedNextDay),
      treasuryDays: fixedNextDay > 0n ? Number(treasury / fixedNextDay) : null,
      covered: treasury >= fixedNextDay,
    },
    days: days.map((d) => ({ day: String(d.day), status: d.status, shortfall: d.shortfall })),
    /** The latest proof of liabilities per asset: its total against the ledger's user accounts. */
    proofs: await proofLedgerChecks(ctx.db),
  };
}
