import type { Order } from '../../../contract/earn.ts';
import { recomputeIncome } from '../../../contract/income.ts';
import { kindOf } from '../../../contract/products.ts';
import type { ZeroProfitData } from '../../../contract/team.ts';
import { unitsOf } from './amount.ts';
import { unlockShareAt } from './unlock.ts';

/** A rebate unlock tier a redemption leaves: the holding and its share, before and after. */
type TierDrop = { heldBefore: bigint; heldAfter: bigint; before: string; after: string };

/** What redeeming an order costs the holder, beyond the order itself (PRODUCT.md, "What a holder owns"). */
export type RedeemCost = {
  /** A current order's running cycle's income, given up: its holding × the daily rate. Null for the others. */
  cycleIncome: bigint | null;
  /** The unlock tier, when the redemption lowers it; null when it stays. */
  tierDrop: TierDrop | null;
};

/**
 * The cost of redeeming `amount` of `order` (all of it by default): for a current order, the
 * income its unfinished cycle would have paid on that part at its end (the settlement's own
 * formula), and for any order whose principal leaves the holding the rebate unlock tiers look
 * at, the tier before and after.
 * `dailyRate` is the current product's rate in force; `network` the holder's network income
 * figures (their holding and the tiers).
 */
export function redeemCost(
  order: Order,
  dailyRate: string | null,
  network: Pick<ZeroProfitData, 'held' | 'tiers'>,
  amount: bigint = unitsOf(order.redeemable) ?? 0n,
): RedeemCost {
  const cycleIncome =
    kindOf(order) === 'flexible' && dailyRate !== null ? recomputeIncome('current', { holding: amount.toString(), rate: dailyRate }) : null;
  const heldBefore = unitsOf(network.held) ?? 0n;
  // A part comes from the order's income first (server/earn/service.ts): only the rest is principal.
  const [income, quantity] = [unitsOf(order.income) ?? 0n, unitsOf(order.quantity) ?? 0n];
  const principal = amount - income > quantity ? quantity : amount > income ? amount - income : 0n;
  const heldAfter = heldBefore > principal ? heldBefore - principal : 0n;
  const before = unlockShareAt(network.tiers, heldBefore);
  const after = unlockShareAt(network.tiers, heldAfter);
  return { cycleIncome, tierDrop: before === after ? null : { heldBefore, heldAfter, before, after } };
}
