import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { HomeData } from '../../contract/dashboard.ts';
import { formatUnits } from '../../contract/money.ts';
import { PATHS } from '../../contract/paths.ts';
import { answers, ok } from '../http/schemas.ts';
import type { AppContext } from '../context.ts';
import { dailyRateOf, earnParams } from '../earn/params.ts';
import { aprOf } from '../earn/routes.ts';
import { productOf, productsOfKind } from '../../contract/products.ts';
import { shortLived } from '../platform/cache.ts';
import { utcDay } from '../platform/clock.ts';
import { currentPrice, usdtInAic } from '../platform/price.ts';
import { fixedSubscribed, networkOutput, platformTotals } from './repository.ts';

export const dashboardRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  const home = dashboard(ctx);
  app.get(
    PATHS.home,
    {
      config: { public: true },
      schema: {
        tags: ['dashboard'],
        summary: 'Platform dashboard: totals, price, pools, network output and the stable-income products',
        response: answers(HomeData),
      },
    },
    // The same text for everyone: written out once per copy, not serialized per request.
    async (_request, reply) => {
      const copy = await home(utcDay(ctx.clock.now()));
      return reply.type('application/json; charset=utf-8').serializer(() => copy.text).send(copy.answer);
    },
  );
};

/**
 * The dashboard is the same for everyone and the busiest call: each process answers it from a
 * copy at most DASHBOARD_CACHE_MS old (1 s by default), computed once per burst.
 */
function dashboard(ctx: AppContext) {
  return shortLived(ctx.config.dashboardCacheMs, async (today: string) => {
    const answer = ok(await figures(ctx, today));
    return { answer, text: JSON.stringify(answer) };
  });
}

/** The dashboard's figures, from the ledger and the parameters in force. */
async function figures(ctx: AppContext, today: string) {
  const [totals, price, output, subscribed, params] = await Promise.all([
    platformTotals(ctx.db),
    currentPrice(ctx),
    networkOutput(ctx.db),
    fixedSubscribed(ctx.db),
    earnParams(ctx.db, ctx.config.earn, today),
  ]);
  return {
    totalAmount: formatUnits(totals.subscribed),
    price: price.price,
    priceRate: price.rate,
    pool1: formatUnits(totals.pool1),
    pool2: formatUnits(totals.pool2),
    pool: formatUnits(totals.pool1 + usdtInAic(totals.pool2, price.price)),
    figures: {
      networkOutput: formatUnits(output.total),
      lastOutput: formatUnits(output.last),
      lastOutputDay: output.lastDay,
      supercomputingPool: formatUnits(totals.pool1),
      treasury: formatUnits(totals.treasury),
      // Every fixed-term product, in registry order.
      stable: productsOfKind('fixed').map((product) => {
        const dailyRate = dailyRateOf(params, product) ?? '0';
        return { product, subscribed: formatUnits(subscribed.get(product) ?? 0n), dailyRate, apr: aprOf(dailyRate), termDays: productOf(product).termDays ?? 0 };
      }),
    },
  };
}
