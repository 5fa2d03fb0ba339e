import { Type } from 'typebox';
import { ORDER_STATUSES, type OrderStatus as Status, PRODUCT_REGISTRY, type ProductDefinition, type ProductKind } from './productRegistry.ts';

export type OrderStatus = Status;
/** The schema of an order's status. */
export const OrderStatus = Type.Unsafe<OrderStatus>(Type.Union(ORDER_STATUSES.map((status) => Type.Literal(status))));

/** The products, in the order screens list them. */
export type Product = keyof typeof PRODUCT_REGISTRY;
export const PRODUCTS = Object.keys(PRODUCT_REGISTRY) as Product[];
/** The schema of a product name, for routes: one of the registry's keys. */
export const Product = Type.Unsafe<Product>(Type.Union(PRODUCTS.map((product) => Type.Literal(product))));

export const productOf = (product: Product): ProductDefinition => PRODUCT_REGISTRY[product];

/** The products earning at a daily rate, each with the parameter that holds it. */
export const DAILY_RATE_PARAMS = PRODUCTS.flatMap((product) => {
  const { rateParam } = productOf(product);
  return rateParam ? [{ product, name: rateParam }] : [];
});
export const kindOf = (order: { product: Product }): ProductKind => PRODUCT_REGISTRY[order.product].kind;

/** The products of a kind, in registry order. */
export const productsOfKind = (kind: ProductKind): Product[] => PRODUCTS.filter((product) => productOf(product).kind === kind);

/**
 * Named groups of order statuses, the only place they are listed (a status in none of them is
 * closed: `redeemed`, `redemption_successful`, `ended`, and `renewed`, whose holding lives on in
 * the order it renewed into):
 * - `active`: the order runs (earns, or waits for its first day) and can still change;
 * - `held`: its principal is still the holder's in the product (active, or matured and not yet
 *   redeemed): what team figures and unlock tiers count;
 * - `earning`: started and earning (a 360-day order's power counts in the pool's total).
 */
export const STATUS_GROUPS = {
  active: ['confirming', 'in_progress', 'reinvested'],
  held: ['confirming', 'in_progress', 'reinvested', 'redeemable'],
  earning: ['in_progress', 'reinvested'],
} as const satisfies Record<string, readonly OrderStatus[]>;

export type StatusGroup = keyof typeof STATUS_GROUPS;

export const isActive = (status: OrderStatus): boolean => (STATUS_GROUPS.active as readonly OrderStatus[]).includes(status);

/**
 * Whether a product's orders may renew themselves at maturity (auto-renew): the fixed-term ones,
 * whose holding rolls into a new order of the same product on the next day.
 */
export const renews = (product: Product): boolean => productOf(product).kind === 'fixed';
