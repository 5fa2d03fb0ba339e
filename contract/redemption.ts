/** Why a current order's redemption of a part is refused (contract/errors.ts). */
export type RedemptionRefusal = 'REDEEM_MORE' | 'REDEEM_BELOW_MINIMUM' | 'REDEEM_REMAINDER';

/**
 * A current order's redemption of `amount` of its `holding` (1e-8 units) (PRODUCT.md, Earn products): all of
 * it closes the order; a part is at least `minimum` and leaves zero or at least `minimum`. One
 * rule for the server, which refuses, and the form, which says so before sending.
 */
export function checkRedemption(holding: bigint, amount: bigint, minimum: bigint): { ok: true; whole: boolean } | { ok: false; refusal: RedemptionRefusal } {
  if (amount === holding) return { ok: true, whole: true };
  if (amount > holding) return { ok: false, refusal: 'REDEEM_MORE' };
  if (amount < minimum) return { ok: false, refusal: 'REDEEM_BELOW_MINIMUM' };
  if (holding - amount < minimum) return { ok: false, refusal: 'REDEEM_REMAINDER' };
  return { ok: true, whole: false };
}
