import type { IncomeKind } from './income.ts';

/**
 * The products, declared once. Adding one is its entry here and its texts in the locales
 * (docs/architecture.md, "Adding a product"); settlement, routes, dashboard and screens read
 * everything else from its entry (contract/products.ts derives the lookups).
 *
 * Glossary: the three words each layer uses, and how they meet.
 * - **product**: a name holders subscribe to (`current`, `fixed30`, `reinvest360`), stored in
 *   `orders.product` and sent on the wire.
 * - **kind** (`ProductKind`): how a product earns and what a holder may do with its orders,
 *   which decides the settlement steps, actions and screens that apply:
 *   - `flexible`: redeem any time; income per completed cycle at a daily rate;
 *   - `fixed`: locked for the term at a daily rate accrued each day; redeemable at maturity,
 *     or renewed into a new order with auto-renew;
 *   - `pool`: locked for the term; a daily share of the supercomputing pool's output by
 *     computing power, optionally reinvested; the principal comes back at the end.
 * - **income kind** (`IncomeKind`, contract/income.ts): the label of a paid income line and of
 *   its settlement step: a `flexible` product earns `current` lines, `fixed` earns `fixed`, and
 *   `pool` earns `static` (the spec's word); team rebates are `rebate`. A product's entry names
 *   its income kind.
 */
/** The statuses an order may take (contract/products.ts groups them). */
export const ORDER_STATUSES = ['confirming', 'in_progress', 'redeemable', 'redeemed', 'redemption_successful', 'reinvested', 'ended', 'renewed'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

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
