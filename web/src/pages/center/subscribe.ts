import type { ProductInfoData } from '../../../../contract/earn.ts';
import { formatUnits } from '../../../../contract/money.ts';
import { type AmountCheck, type AmountFigures, checkAmount, unitsOf } from '../../lib/amount.ts';

type Limits = Pick<ProductInfoData, 'minimum' | 'quotaLeft' | 'available'>;

/**
 * The subscription rules (spec section 5, PRODUCT.md Earn products), checked before anything
 * is sent: a plain decimal above zero with at most 8 decimals, at least the minimum, covered
 * by the wallet, and within what is left of today's quota. Exact units, never floats.
 */
export function checkSubscription(input: string, limits: Limits): AmountCheck {
  const check = checkAmount(input, limits.available, limits.minimum);
  if (!check.ok) {
    // The spec's own wording for the minimum.
    if (check.message === 'wallet.belowMinimum') return { ok: false, message: 'earn.belowMinimum', values: check.values ?? {} };
    return check;
  }
  if (check.value > (unitsOf(limits.quotaLeft) ?? 0n)) return { ok: false, message: 'err.dailyQuota' };
  return check;
}

/** Max: the whole available balance, but no more than today's quota left. */
export function maxSubscription(limits: Limits): string {
  const available = unitsOf(limits.available) ?? 0n;
  const quota = unitsOf(limits.quotaLeft) ?? 0n;
  return formatUnits(available < quota ? available : quota);
}

/** The figures a subscription is checked against: what a refusal under the field is about. */
export const subscriptionFigures = (limits: Limits): AmountFigures => ({
  balance: limits.available,
  minimum: limits.minimum,
  quota: limits.quotaLeft,
});
