import { type Static, Type } from 'typebox';
import { AmountString } from './envelope.ts';
import { Product } from './products.ts';
import { formatUnits, mulRate, parseAmount } from './money.ts';

/**
 * The dual-currency view of the earn-coins centre: what the holder has in AIC, and its value in
 * USDT at the price in force (USDT counted 1:1 with USD).
 */
export const PositionsData = Type.Object({
  /** The AIC price in USD in force today. */
  price: Type.String(),
  /**
   * Per product: principal and the income accrued on the orders still held, and the computing
   * power of the earning ones (the holder's own; 0 but for the 360-day product).
   */
  products: Type.Array(Type.Object({ product: Product, principal: AmountString, income: AmountString, power: AmountString })),
  /** Claimable now (360-day rewards, unlocked network income), and matured 30-day orders (`fixed`), which are redeemed. */
  claimable: Type.Object({ rewards: AmountString, network: AmountString, fixed: AmountString }),
});
export type PositionsData = Static<typeof PositionsData>;

const PRICE_RE = /^\d+(\.\d+)?$/;

/**
 * An AIC amount (decimal string) valued in USDT at a price, exact and truncated at 1e-8:
 * null when either is missing or malformed, so the screen shows "--".
 */
export function aicInUsdt(aic: string | null | undefined, price: string | null | undefined): string | null {
  const amount = parseAmount(aic);
  if (!amount.ok || !price || !PRICE_RE.test(price.trim())) return null;
  return formatUnits(mulRate(amount.value, price));
}
