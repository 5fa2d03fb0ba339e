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

/**
 * A holder's earn figures in units, read by user id in one statement: per product, principal and
 * income of the orders still held, and the AIC the running ones hold (`running`: matured orders
 * are in `claimable.fixed` instead); and what can be claimed now, on every row (on the one row of
 * nulls for a holder of no order). The wallet's total (server/wallet/routes.ts) reads the same
 * figures, so the two screens cannot disagree.
 */
export async function holdingsOf(db: Db, userId: bigint) {
  type Row = { rewards: bigint; network: bigint; fixed: bigint; product: Product | null; principal: bigint; income: bigint; running: bigint };
  // `running` is what the holder's earning account holds for running orders: a pool order's
  // income was paid out (or, reinvested, added to its principal), the others' is in the order.
  const { rows } = await sql<Row>`
    select c.rewards, c.network, c.fixed, p.product, p.principal, p.income, p.running
    from (
      select
        (select coalesce(sum(balance), 0) from accounts
          where user_id = ${userId} and asset = 'AIC' and kind = 'rewards')::bigint as rewards,
        (select coalesce(sum(balance), 0) from accounts
          where user_id = ${userId} and asset = 'AIC' and kind = 'network_rewards')::bigint as network,
        (select coalesce(sum(principal + income), 0) from orders
          where user_id = ${userId} and product in ${productsIn('fixed')} and status = 'redeemable')::bigint as fixed
    ) c
    left join (
      select product, coalesce(sum(principal), 0)::bigint as principal, coalesce(sum(income), 0)::bigint as income,
        coalesce(sum(case when product in ${productsIn('pool')} then principal else principal + income end)
          filter (where status in ${ORDERS.active}), 0)::bigint as running
      from orders where user_id = ${userId} and status in ${ORDERS.held}
      group by product
    ) p on true`.execute(db);
  const c = rows[0];
  return {
    products: PRODUCTS.map((product) => {
      const row = rows.find((r) => r.product === product);
      return { product, principal: row?.principal ?? 0n, income: row?.income ?? 0n, running: row?.running ?? 0n };
    }),
    claimable: { rewards: c?.rewards ?? 0n, network: c?.network ?? 0n, fixed: c?.fixed ?? 0n },
  };
}

/** The holder's positions as the dual-currency view shows them: decimal strings. */
async function positions(db: Db, userId: bigint) {
  const held = await holdingsOf(db, userId);
  return {
    products: held.products.map((p) => ({ product: p.product, principal: formatUnits(p.principal), income: formatUnits(p.income) })),
    claimable: {
      rewards: formatUnits(held.claimable.rewards),
      network: formatUnits(held.claimable.network),
      fixed: formatUnits(held.claimable.fixed),
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
