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

/**
 * A holder's earn figures in units, in one statement (`holdings_of`, holdingsFunction.ts): per
 * product, principal and income of the orders still held, and the AIC the running ones hold
 * (`running`: matured orders are in `claimable.fixed` instead); and what can be claimed now. The
 * wallet's total (server/wallet/routes.ts) reads the same figures, so the two screens cannot
 * disagree.
 */
export async function holdingsOf(db: Db, userId: bigint) {
  type Row = { rewards: bigint; network: bigint; fixed: bigint; product: Product | null; principal: bigint; income: bigint; running: bigint };
  const { rows } = await sql<Row>`select * from holdings_of(${userId})`.execute(db);
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
