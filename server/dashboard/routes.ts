import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { HomeData } from '../../contract/dashboard.ts';
import { formatUnits } from '../../contract/money.ts';
import { PATHS } from '../../contract/paths.ts';
import { answers, ok } from '../http/schemas.ts';
import type { AppContext } from '../context.ts';
import { currentPrice, usdtInAic } from '../platform/price.ts';
import { platformTotals } from './repository.ts';

export const dashboardRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get(
    PATHS.home,
    {
      config: { public: true },
      schema: {
        tags: ['dashboard'],
        summary: 'Platform dashboard: totals, price and pools',
        response: answers(HomeData),
      },
    },
    async () => {
      const [totals, price] = await Promise.all([platformTotals(ctx.db), currentPrice(ctx)]);
      return ok({
        totalAmount: formatUnits(totals.subscribed),
        price: price.price,
        priceRate: price.rate,
        pool1: formatUnits(totals.pool1),
        pool2: formatUnits(totals.pool2),
        pool: formatUnits(totals.pool1 + usdtInAic(totals.pool2, price.price)),
      });
    },
  );
};
