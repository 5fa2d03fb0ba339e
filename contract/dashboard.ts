import { type Static, Type } from 'typebox';
import { AmountString } from './envelope.ts';
import { Product } from './products.ts';

/**
 * The platform figures of spec section 1, from ledger balances and settlement results: the
 * total network output (everything the supercomputing pool has paid to 360-day holders), the
 * pool and the treasury (AIC, which pays fixed-term interest and rebates), and the stable-income
 * products (each fixed-term product: principal earning in it, its daily rate and APR).
 */
export const PlatformFigures = Type.Object({
  networkOutput: AmountString,
  /** The latest settled day's output, and that day (null before the first). */
  lastOutput: AmountString,
  lastOutputDay: Type.Union([Type.String({ format: 'date' }), Type.Null()]),
  supercomputingPool: AmountString,
  treasury: AmountString,
  stable: Type.Array(
    Type.Object({
      product: Product,
      subscribed: AmountString,
      dailyRate: Type.String(),
      apr: Type.String({ description: 'Daily rate × 365, in percent' }),
      termDays: Type.Integer(),
    }),
    { description: 'Each fixed-term product, in the order screens list them' },
  ),
});
export type PlatformFigures = Static<typeof PlatformFigures>;

/** GET /api/home: the platform dashboard (spec section 3, Dashboard). */
export const HomeData = Type.Object({
  totalAmount: Type.Union([AmountString, Type.Null()], {
    description: 'AIC held in active subscriptions across the platform',
  }),
  price: Type.Union([Type.String(), Type.Null()], { description: 'AIC price in USD' }),
  priceRate: Type.Union([Type.String(), Type.Null()], {
    description: 'Price change since the previous price, in percent',
  }),
  pool1: Type.Union([AmountString, Type.Null()], { description: 'Supercomputing pool, AIC' }),
  pool2: Type.Union([AmountString, Type.Null()], { description: 'Treasury pool, USDT' }),
  pool: Type.Union([AmountString, Type.Null()], {
    description: 'Both pools in AIC: pool1 + pool2 / price',
  }),
  figures: PlatformFigures,
});
export type HomeData = Static<typeof HomeData>;
