import type { ProductInfoData } from '../../../../contract/earn.ts';
import { mulRate, parseAmount, parseRate, UNIT } from '../../../../contract/money.ts';
import type { Product } from '../../../../contract/products.ts';

/**
 * What a subscription would earn, computed exactly in 1e-8 units (bigint) the way the
 * server pays it: every amount truncated toward zero. No float touches an amount.
 */

/** A decimal string with up to 8 decimals as 1e-8 units; null when absent or malformed. */
export function scaled(value: string | null | undefined): bigint | null {
  const parsed = parseAmount(value ?? '');
  return parsed.ok ? parsed.value : null;
}

/** One day's income: amount × daily rate, truncated at 1e-8. */
export const dailyIncome = (amount: bigint, rate: string): bigint => mulRate(amount, rate);

/** Income over a fixed term: the server pays each day's truncated income, so days × daily. */
export const termIncome = (amount: bigint, rate: string, days: number): bigint =>
  dailyIncome(amount, rate) * BigInt(days);

/** Computing power of a 360-day order: multiplier × amount × coefficient, truncated at 1e-8. */
export function powerOf(amount: bigint, multiplier: string, coefficient: string): bigint {
  const c = scaled(coefficient);
  if (c === null || !/^\d+$/.test(multiplier)) return 0n;
  return (BigInt(multiplier) * amount * c) / UNIT;
}

/**
 * The estimated daily share: today's output × power / (all power + this power), truncated, and
 * at most the amount × the maximum daily rate, as the settlement caps it.
 */
export function dailyShare(power: bigint, output: bigint, totalPower: bigint, amount: bigint, maxDailyRate: string): bigint {
  const all = totalPower + power;
  const share = all > 0n ? (output * power) / all : 0n;
  const cap = mulRate(amount, maxDailyRate);
  return share < cap ? share : cap;
}

/**
 * The power `amount` would get if subscribed k days from now, k = 0..days: the coefficient
 * grows by the base each day (c × base^k, truncated at 1e-8 like the server's coefficient).
 */
export function powerProjection(
  amount: bigint,
  multiplier: string,
  coefficient: string,
  days: number,
  base: string,
): bigint[] {
  const c = scaled(coefficient);
  if (c === null || !/^\d+$/.test(multiplier)) return [];
  const { numerator, denominator } = parseRate(base);
  const points: bigint[] = [];
  for (let k = 0; k <= days; k++) {
    const ck = (c * numerator ** BigInt(k)) / denominator ** BigInt(k);
    points.push((BigInt(multiplier) * amount * ck) / UNIT);
  }
  return points;
}

/**
 * What `amount` would get in the 360-day product `product` today: its computing power and its
 * estimated share of today's output, capped at the principal × the maximum daily rate (`maxRate`).
 */
export function poolEstimate(info: ProductInfoData, product: Product, amount: bigint) {
  const maxRate = info.products.find((p) => p.product === product)?.maxDailyRate ?? '0';
  const power = powerOf(amount, info.powerMultiplier, info.coefficient);
  const share = dailyShare(power, scaled(info.poolOutputToday) ?? 0n, scaled(info.totalPower) ?? 0n, amount, maxRate);
  return { power, share, maxRate };
}
