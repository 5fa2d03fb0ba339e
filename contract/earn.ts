import { type Static, Type } from 'typebox';
import { AmountString } from './envelope.ts';
import { OrderStatus, Product } from './products.ts';
import { UpcomingChange } from './rates.ts';

/**
 * A term's dates (30-day, 360-day), UTC days: interest starts on the value date, the order
 * matures at the start of the maturity date, and the principal returns to the wallet that day
 * (a 30-day order as it becomes redeemable, a 360-day one by itself). server/earn/termDates.ts.
 */
export const TermDates = Type.Object({
  valueDay: Type.String({ description: 'YYYY-MM-DD (UTC): the first day that earns' }),
  maturesDay: Type.String({ description: 'YYYY-MM-DD (UTC): matures at 00:00 UTC of this day' }),
  principalReturnDay: Type.String({ description: 'YYYY-MM-DD (UTC): the day the principal is back in the wallet' }),
});
export type TermDates = Static<typeof TermDates>;

/** GET /api/product/info: the three products and what the user may still buy today. */
const ProductCard = Type.Object({
  product: Product,
  dailyRate: Type.Union([Type.String(), Type.Null()], { description: 'Daily rate as a decimal; null for 360-day (pool share)' }),
  apr: Type.Union([Type.String(), Type.Null()], { description: 'Daily rate × 365, in percent' }),
  termDays: Type.Union([Type.Integer(), Type.Null()], { description: 'Lock in days; null for current' }),
  cycleHours: Type.Union([Type.Integer(), Type.Null()]),
  maxDailyRate: Type.Union([Type.String(), Type.Null()], {
    description: "360-day: the most an order earns from the pool in a day, as a decimal share of its principal; null for the others",
  }),
  maxApr: Type.Union([Type.String(), Type.Null()], { description: '360-day: the maximum daily rate × 365, in percent; null for the others' }),
  recent: Type.Union(
    [
      Type.Object({
        dailyRate: Type.String({ description: 'What the shares paid over the principal sharing them, as a decimal a day' }),
        apr: Type.String({ description: 'That rate × 365, in percent' }),
        days: Type.Integer({ description: 'The settled days it covers (at most seven)' }),
      }),
      Type.Null(),
    ],
    { description: '360-day: the rate the product actually paid over the last seven settled days; null for the others, or before any' },
  ),
  upcoming: UpcomingChange,
});
export const ProductInfoData = Type.Object({
  products: Type.Array(ProductCard),
  minimum: AmountString,
  dailyQuota: AmountString,
  quotaLeft: AmountString,
  /** Today's coefficient c = base^N (360-day). */
  coefficient: Type.String(),
  /** The base c grows by each day since launch (1.02 by default: COEFFICIENT_BASE). */
  coefficientBase: Type.String(),
  coefficientDay: Type.Integer({ description: 'N: whole days since launch (capped)' }),
  powerMultiplier: Type.String(),
  /** Today's expected network output of the supercomputing pool (AIC). */
  poolOutputToday: AmountString,
  totalPower: AmountString,
  inviterBound: Type.Boolean(),
  available: AmountString,
  /** Claimable rewards (360-day static earnings and unlocked rebates), AIC. */
  rewards: AmountString,
  /** The dates a term bought now would have, per termed product (30-day, 360-day). */
  termDates: Type.Array(Type.Object({ product: Product, dates: TermDates })),
});
export type ProductInfoData = Static<typeof ProductInfoData>;

export const BuyBody = Type.Object({
  product: Product,
  amount: Type.String({ maxLength: 64 }),
  /**
   * 30-day only: at maturity, renew principal plus income into a new order (off when absent).
   * Sent with another product it is refused (AUTO_RENEW_PRODUCT) and nothing is bought.
   */
  autoRenew: Type.Optional(Type.Boolean()),
});
export type BuyBody = Static<typeof BuyBody>;

export const Order = Type.Object({
  id: Type.String(),
  product: Product,
  quantity: AmountString,
  income: AmountString,
  /** What redeeming now would return (0 while locked). */
  redeemable: AmountString,
  status: OrderStatus,
  reinvest: Type.Boolean(),
  /** 30-day: renews itself at maturity (principal plus income into a new order). */
  autoRenew: Type.Boolean(),
  /** The order this one was renewed from, if it was. */
  renewedFrom: Type.Union([Type.String(), Type.Null()]),
  /** The order this one renewed into (status `renewed`). */
  renewedTo: Type.Union([Type.String(), Type.Null()]),
  createdAt: Type.String({ format: 'date-time' }),
  startDay: Type.String(),
  maturesDay: Type.Union([Type.String(), Type.Null()]),
  /** The whole days of `countdownSeconds` (contract/countdown.ts): what the countdown shows as days. */
  remainingDays: Type.Union([Type.Integer(), Type.Null()]),
  /** Seconds until it can be redeemed (fixed terms) or until the current cycle ends. */
  countdownSeconds: Type.Union([Type.Integer(), Type.Null()]),
  /** A term's value date, maturity date and principal return day; null for current. */
  dates: Type.Union([TermDates, Type.Null()]),
  power: Type.Union([AmountString, Type.Null()]),
  coefficient: Type.Union([Type.String(), Type.Null()]),
});
export type Order = Static<typeof Order>;

export const OrderListQuery = Type.Object({
  product: Type.Optional(Product),
  status: Type.Optional(OrderStatus),
  from: Type.Optional(Type.String({ format: 'date-time', maxLength: 40 })),
  to: Type.Optional(Type.String({ format: 'date-time', maxLength: 40 })),
  cursor: Type.Optional(Type.String({ pattern: '^\\d{1,19}$' })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
});
export type OrderListQuery = Static<typeof OrderListQuery>;

export const OrderListData = Type.Object({
  items: Type.Array(Order),
  nextCursor: Type.Union([Type.String(), Type.Null()]),
});
export type OrderListData = Static<typeof OrderListData>;

export const OrderIdQuery = Type.Object({ id: Type.String({ pattern: '^\\d{1,19}$' }) });
export const OrderIdBody = Type.Object({ orderId: Type.String({ pattern: '^\\d{1,19}$' }) });
export type OrderIdBody = Static<typeof OrderIdBody>;
/**
 * POST /api/user/redeem-current: the order, and the AIC to redeem; without `amount` (or with all
 * the order holds) the whole order. A part is at least the product's minimum and leaves zero or
 * at least the minimum (REDEEM_BELOW_MINIMUM, REDEEM_REMAINDER, REDEEM_MORE).
 */
export const RedeemCurrentBody = Type.Object({
  orderId: Type.String({ pattern: '^\\d{1,19}$' }),
  amount: Type.Optional(Type.String({ maxLength: 64 })),
});
export type RedeemCurrentBody = Static<typeof RedeemCurrentBody>;
/** POST /api/user/auto-renew: switches a running 30-day order's auto-renew on or off. */
export const AutoRenewBody = Type.Object({ orderId: Type.String({ pattern: '^\\d{1,19}$' }), autoRenew: Type.Boolean() });
export type AutoRenewBody = Static<typeof AutoRenewBody>;

const IncomeLine = Type.Object({
  orderId: Type.String(),
  day: Type.String(),
  kind: Type.String(),
  amount: AmountString,
  inputs: Type.Record(Type.String(), Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Null()])),
});
export const RewardLogData = Type.Object({
  items: Type.Array(IncomeLine),
  nextCursor: Type.Union([Type.String(), Type.Null()]),
});
export type RewardLogData = Static<typeof RewardLogData>;
export const RewardLogQuery = Type.Object({
  kind: Type.Optional(Type.String({ maxLength: 20 })),
  cursor: Type.Optional(Type.String({ maxLength: 80 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
});

export const DailyIncomeData = Type.Object({
  days: Type.Array(Type.Object({ day: Type.String(), amount: AmountString })),
});

export const UserLogData = Type.Object({
  items: Type.Array(
    Type.Object({
      id: Type.String(),
      kind: Type.String(),
      asset: Type.String(),
      account: Type.String(),
      amount: AmountString,
      ref: Type.Union([Type.String(), Type.Null()]),
      createdAt: Type.String({ format: 'date-time' }),
    }),
  ),
  nextCursor: Type.Union([Type.String(), Type.Null()]),
});
export type UserLogData = Static<typeof UserLogData>;
export const UserLogQuery = Type.Object({
  cursor: Type.Optional(Type.String({ maxLength: 60 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
});

export const ClaimData = Type.Object({ claimed: AmountString });
export const BindBody = Type.Object({ inviteCode: Type.Optional(Type.String({ maxLength: 40 })) });
export const BindData = Type.Object({ inviterCode: Type.String() });
