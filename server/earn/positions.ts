import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { sql } from 'kysely';
import { PRODUCTS } from '../../contract/products.ts';
import { PositionsData } from '../../contract/dual.ts';
import { formatUnits } from '../../contract/money.ts';
import { PATHS } from '../../contract/paths.ts';
import { userIdOf } from '../auth/guard.ts';
import type { AppContext } from '../context.ts';
import type { Db } from '../db/connect.ts';
import type { Product } from '../db/schema.ts';
import { answers, ok } from '../http/schemas.ts';
import { currentPrice } from '../platform/price.ts';
import { ORDERS, productsIn } from '../db/statuses.ts';

/** The holder's positions: per product, principal and income of the orders still held; and what is claimable. */
async function positions(db: Db, userId: bigint) {
  const [byProduct, claimable] = await Promise.all([
    sql<{ product: Product; principal: bigint; income: bigint }>`
      select product, coalesce(sum(principal), 0)::bigint as principal, coalesce(sum(income), 0)::bigint as income
      from orders where user_id = ${userId} and status in ${ORDERS.held}
      group by product`.execute(db),
    sql<{ rewards: bigint; network: bigint; fixed: bigint }>`
      select
        (select coalesce(sum(balance), 0) from accounts
          where user_id = ${userId} and asset = 'AIC' and kind = 'rewards')::bigint as rewards,
        (select coalesce(sum(balance), 0) from accounts
          where user_id = ${userId} and asset = 'AIC' and kind = 'network_rewards')::bigint as network,
        (select coalesce(sum(principal + income), 0) from orders
          where user_id = ${userId} and product in ${productsIn('fixed')} and status = 'redeemable')::bigint as fixed`.execute(db),
  ]);
  const c = claimable.rows[0];
  return {
    products: PRODUCTS.map((product) => {
      const row = byProduct.rows.find((r) => r.product === product);
      return { product, principal: formatUnits(row?.principal ?? 0n), income: formatUnits(row?.income ?? 0n) };
    }),
    claimable: {
      rewards: formatUnits(c?.rewards ?? 0n),
      network: formatUnits(c?.network ?? 0n),
      fixed: formatUnits(c?.fixed ?? 0n),
    },
  };
}

/** GET /api/user/positions: the dual-currency view's figures in AIC, with the price in force. */
export const positionsRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get(
    PATHS.positions,
    {
      schema: {
        tags: ['earn'],
        summary: 'Positions per product, claimable amounts, and the AIC price (dual-currency view)',
        security: [{ bearer: [] }],
        response: answers(PositionsData),
      },
    },
    async (request) => {
      const [held, price] = await Promise.all([positions(ctx.db, userIdOf(request)), currentPrice(ctx)]);
      return ok({ price: price.price, ...held });
    },
  );
};
