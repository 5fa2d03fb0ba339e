import { type RawBuilder, sql, type Transaction } from 'kysely';
import { coefficientOf } from '../../contract/income.ts';
import { parseAmount, parseRate } from '../../contract/money.ts';
import type { EarnDefaults } from '../config.ts';
import type { AppContext } from '../context.ts';
import type { Db } from '../db/connect.ts';
import type { Database } from '../db/schema.ts';
import { perOwner, shortLived } from '../platform/cache.ts';
import { versionsInForce } from '../platform/params.ts';
import type { ProductKind } from '../../contract/productRegistry.ts';
import { DAILY_RATE_PARAMS, productsOfKind } from '../../contract/products.ts';
import type { Product } from '../db/schema.ts';

/** The earn parameters in force on a day: configuration defaults, overridden by versions. */
export type EarnParams = {
  dailyQuota: bigint;
  minimum: bigint;
  powerMultiplier: bigint;
  coefficientBase: string;
  launchDay: string;
  coefficientMaxDays: number;
  poolDailyOutputRate: string;
  poolMaxDailyRate: string;
  /** For each value, the day its version took effect; null for the configured default. */
  versions: Record<Term, string | null>;
  /** Each rate-earning product's daily rate in force, and the day its version took effect. */
  dailyRates: Partial<Record<Product, { rate: string; from: string | null }>>;
};

/** The terms that are not a product's daily rate (those are named by the product registry). */
type Term = Exclude<keyof EarnDefaults, 'dailyRates'>;

export const EARN_PARAM_NAMES = {
  dailyQuota: 'earn.daily_quota',
  minimum: 'earn.minimum',
  powerMultiplier: 'earn.360.multiplier',
  coefficientBase: 'earn.360.coefficient_base',
  launchDay: 'earn.360.launch_day',
  coefficientMaxDays: 'earn.360.coefficient_max_days',
  poolDailyOutputRate: 'earn.360.pool_output_rate',
  poolMaxDailyRate: 'earn.360.max_daily_rate',
} as const satisfies Record<Term, string>;

const units = (text: string): bigint => {
  const parsed = parseAmount(text);
  if (!parsed.ok) throw new Error(`not an amount: ${text}`);
  return parsed.value;
};

export async function earnParams(db: Db | Transaction<Database>, defaults: EarnDefaults, day: string): Promise<EarnParams> {
  const names = [...Object.values(EARN_PARAM_NAMES), ...DAILY_RATE_PARAMS.map((p) => p.name)];
  const inForce = await versionsInForce(db, names, day);
  const raw: EarnDefaults = { ...defaults };
  const versions = Object.fromEntries(Object.keys(EARN_PARAM_NAMES).map((key) => [key, null])) as EarnParams['versions'];
  for (const [key, name] of Object.entries(EARN_PARAM_NAMES) as [Term, string][]) {
    const version = inForce.get(name);
    if (version) {
      raw[key] = version.value;
      versions[key] = version.effectiveDay;
    }
  }
  const dailyRates: EarnParams['dailyRates'] = {};
  for (const { product, name } of DAILY_RATE_PARAMS) {
    const version = inForce.get(name);
    dailyRates[product] = version ? { rate: version.value, from: version.effectiveDay } : { rate: defaults.dailyRates[product] ?? '0', from: null };
  }
  return {
    dailyQuota: units(raw.dailyQuota),
    minimum: units(raw.minimum),
    powerMultiplier: BigInt(raw.powerMultiplier),
    coefficientBase: raw.coefficientBase,
    launchDay: raw.launchDay,
    coefficientMaxDays: Number.parseInt(raw.coefficientMaxDays, 10),
    poolDailyOutputRate: raw.poolDailyOutputRate,
    poolMaxDailyRate: raw.poolMaxDailyRate,
    versions,
    dailyRates,
  };
}

/** A product's daily rate in force (its registry entry names the parameter); null for a pool share. */
export function dailyRateOf(params: EarnParams, product: Product): string | null {
  return params.dailyRates[product]?.rate ?? null;
}

/** The day the version of a product's daily rate in force took effect (null: the configured default). */
function rateFromOf(params: EarnParams, product: Product): string | null {
  return params.dailyRates[product]?.from ?? null;
}

/**
 * For the orders of a kind's products, as SQL over the `orders` row: the day's accrual on
 * `base` at each product's daily rate in force (divided exactly, truncated at 1e-8), and that
 * rate and the day its version took effect (the income line's inputs).
 */
export function productRates(params: EarnParams, kind: ProductKind) {
  const rows = productsOfKind(kind).map((product) => {
    const rate = dailyRateOf(params, product) ?? '0';
    const { numerator, denominator } = parseRate(rate);
    return { product, rate, from: rateFromOf(params, product), num: numerator.toString(), den: denominator.toString() };
  });
  const byProduct = (value: (row: (typeof rows)[number]) => RawBuilder<unknown>) =>
    sql`case product ${sql.join(rows.map((row) => sql`when ${row.product} then ${value(row)}`), sql` `)} end`;
  return {
    accrual: (base: RawBuilder<unknown>) =>
      sql`(${byProduct((row) => sql`div(${base}::numeric * ${row.num}::numeric, ${row.den}::numeric)`)})::bigint`,
    rate: byProduct((row) => sql`${row.rate}::text`),
    rateFrom: byProduct((row) => sql`${row.from}::text`),
  };
}

const SCALE = 100_000_000n;

/** Whole days from `from` to `to` (UTC dates), never negative. */
export const daysBetween = (from: string, to: string): number =>
  Math.max(0, Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000));

/**
 * Today's coefficient c = base^N, N the whole days since launch (capped), computed exactly
 * and truncated to 8 decimals; returned as an integer scaled by 1e8.
 */
export function coefficientScaled(params: EarnParams, day: string): bigint {
  return coefficientOf(params.coefficientBase, Math.min(daysBetween(params.launchDay, day), params.coefficientMaxDays));
}

export const formatScaled = (scaled: bigint): string => {
  const fraction = (scaled % SCALE).toString().padStart(8, '0');
  return `${scaled / SCALE}.${fraction}`;
};

/** Computing power of a 360-day order: multiplier × quantity × c, truncated at 1e-8. */
export const powerOf = (params: EarnParams, principal: bigint, coefficient: bigint): bigint =>
  (params.powerMultiplier * principal * coefficient) / SCALE;

const inForceOf = perOwner((ctx: AppContext) =>
  shortLived(ctx.config.paramsCacheMs, (day: string) => earnParams(ctx.db, ctx.config.earn, day)),
);

/**
 * The parameters in force on a day, from a per-process copy at most PARAMS_CACHE_MS old: a
 * version applies only from a day announced ahead (PARAM_NOTICE_DAYS), so today's values do not
 * change under a running day, and the hot paths (a buy) skip a round trip.
 */
export function paramsInForce(ctx: AppContext, day: string): Promise<EarnParams> {
  return inForceOf(ctx)(day);
}
