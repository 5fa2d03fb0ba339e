import { type Static, Type } from 'typebox';
import type { IncomeKind } from './income.ts';

export const OrderStatus = Type.Union([
  Type.Literal('confirming'),
  Type.Literal('in_progress'),
  Type.Literal('redeemable'),
  Type.Literal('redeemed'),
  Type.Literal('redemption_successful'),
  Type.Literal('reinvested'),
  Type.Literal('ended'),
  Type.Literal('renewed'),
]);
export type OrderStatus = Static<typeof OrderStatus>;

/**
 * One place per product: what kind of product it is (which settlement steps, actions and
 * screens apply), its term, the parameters that make its terms, the income it earns and the
 * statuses its orders pass through. Server, statement, dashboard and web read it from here.
 *
 * - `flexible`: redeem any time; income per completed 24-hour cycle at a daily rate.
 * - `fixed`: locked for the term at a daily rate accrued each day; redeemable at maturity.
 * - `pool`: locked for the term; a daily share of the supercomputing pool's output by computing
 *   power, optionally reinvested; the principal comes back at the end of the term.
 */
export type ProductKind = 'flexible' | 'fixed' | 'pool';

export type ProductDefinition = {
  kind: ProductKind;
  /** Days locked; null: redeemable any time. */
  termDays: number | null;
  /** Hours of one income cycle (flexible products). */
  cycleHours: number | null;
  /** The versioned parameter holding its daily rate; null where income is a pool share. */
  rateParam: `earn.${string}` | null;
  /** Its daily rate until one is configured (`EARN_<PRODUCT>_DAILY_RATE`) or scheduled. */
  defaultDailyRate: string | null;
  /** Every parameter that makes its terms (announced on its card when one changes). */
  termParams: readonly string[];
  /** The income lines its orders earn. */
  incomeKind: IncomeKind;
  /** Statuses its orders may take, in order. */
  statuses: readonly OrderStatus[];
};

const RUNNING: readonly OrderStatus[] = ['confirming', 'in_progress'];

export const PRODUCT_REGISTRY = {
  current: {
    kind: 'flexible',
    termDays: null,
    cycleHours: 24,
    rateParam: 'earn.current.daily_rate',
    defaultDailyRate: '0.001',
    termParams: ['earn.current.daily_rate'],
    incomeKind: 'current',
    statuses: [...RUNNING, 'redemption_successful'],
  },
  fixed30: {
    kind: 'fixed',
    termDays: 30,
    cycleHours: null,
    rateParam: 'earn.fixed30.daily_rate',
    defaultDailyRate: '0.003',
    termParams: ['earn.fixed30.daily_rate'],
    incomeKind: 'fixed',
    // `renewed`: matured with auto-renew on, its principal and income carried into a new order.
    statuses: [...RUNNING, 'redeemable', 'redeemed', 'renewed'],
  },
  reinvest360: {
    kind: 'pool',
    termDays: 360,
    cycleHours: null,
    rateParam: null,
    defaultDailyRate: null,
    termParams: ['earn.360.pool_output_rate', 'earn.360.max_daily_rate', 'earn.360.multiplier', 'earn.360.coefficient_base'],
    incomeKind: 'static',
    statuses: [...RUNNING, 'reinvested', 'ended'],
  },
} as const satisfies Record<string, ProductDefinition>;

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
