import { type Static, Type } from 'typebox';
import { AmountString } from './envelope.ts';

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
});
export type HomeData = Static<typeof HomeData>;
