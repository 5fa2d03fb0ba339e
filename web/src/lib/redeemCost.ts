import type { Order } from '../../../contract/earn.ts';
import { recomputeIncome } from '../../../contract/income.ts';
import { kindOf } from '../../../contract/products.ts';
import type { ZeroProfitData } from '../../../contract/team.ts';
import { unitsOf } from './amount.ts';
import { unlockShareAt } from './unlock.ts';

/** A rebate unlock tier a redemption leaves: the holding and its share, before and after. */
export type TierDrop = { heldBefore: bigint; heldAfter: bigint; before: string; after: string };

/** What redeeming an order costs the holder, beyond the order itself (PRODUCT.md, "What a holder owns"). */
export type RedeemCost = {
  /** A current order's running cycle's income, given up: its holding × the daily rate. Null for the others. */
  cycleIncome: bigint | null;
  /** The unlock tier, when the redemption lowers it; null when it stays. */
  tierDrop: TierDrop | null;
};

/**
 * The cost of redeeming `order`: for a current order, the income its unfinished cycle would pay
 * at its end (the settlement's own formula, on what it holds now), and for any order whose
 * principal leaves the holding the rebate unlock tiers look at, the tier before and after.
 * `dailyRate` is the current product's rate in force; `network` the holder's network income
 * figures (their holding and the tiers).
 */
export function redeemCost(order: Order, dailyRate: string | null, network: Pick<ZeroProfitData, 'held' | 'tiers'>): RedeemCost {
  const holding = unitsOf(order.redeemable) ?? 0n;
  const cycleIncome =
    kindOf(order) === 'flexible' && dailyRate !== null ? recomputeIncome('current', { holding: holding.toString(), rate: dailyRate }) : null;
  const heldBefore = unitsOf(network.held) ?? 0n;
  const principal = unitsOf(order.quantity) ?? 0n;
  const heldAfter = heldBefore > principal ? heldBefore - principal : 0n;
  const before = unlockShareAt(network.tiers, heldBefore);
  const after = unlockShareAt(network.tiers, heldAfter);
  return { cycleIncome, tierDrop: before === after ? null : { heldBefore, heldAfter, before, after } };
}
