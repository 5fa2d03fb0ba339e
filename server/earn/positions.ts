import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { sql } from 'kysely';
import { PRODUCTS } from '../../contract/products.ts';
import { PositionsData } from '../../contract/dual.ts';
import { formatUnits } from '../../contract/money.ts';
import { PATHS } from '../../contract/paths.ts';
import { userIdOf } from '../auth/guard.ts';
import type { AppContext } from '../context.ts';
import type { Db } from '../db/connect.ts';
import type { Asset, Product } from '../db/schema.ts';
import { answers, ok } from '../http/schemas.ts';
import { gathered } from '../platform/batch.ts';
import { perOwner } from '../platform/cache.ts';
import { currentPrice } from '../platform/price.ts';

type Line = {
  user_id: bigint;
  asset: Asset | null;
  kind: string | null;
  product: Product | null;
  amount: bigint;
  income: bigint;
  running: bigint;
  matured: bigint;
  power: bigint;
};

/** A holder's own wallet balances per asset: what can be spent, and the withdrawals under review. */
export type WalletBalances = Record<Asset, { available: bigint; pending: bigint }>;

/** Balances of nothing, per asset. */
export const noWalletBalances = (): WalletBalances => ({ AIC: { available: 0n, pending: 0n }, USDT: { available: 0n, pending: 0n } });

const ACCOUNT_FIELDS: Record<string, 'available' | 'pending'> = { wallet: 'available', withdrawals_pending: 'pending' };

function emptyHoldings() {
  return {
    wallet: noWalletBalances(),
    products: PRODUCTS.map((product) => ({ product, principal: 0n, income: 0n, running: 0n, power: 0n })),
    claimable: { rewards: 0n, network: 0n, fixed: 0n },
    /** Network income not yet unlocked (locked_rewards, AIC). */
    locked: 0n,
    /** What the orders hold, as the books have it (the earning account, AIC). */
    earning: 0n,
    /** What the holder owns per asset: the sum of their owned accounts (contract/owned.ts), their proof leaf's. */
    owned: { AIC: 0n, USDT: 0n } as Record<Asset, bigint>,
  };
}

export type Holdings = ReturnType<typeof emptyHoldings>;

/** Adds one line of `holder_holdings` to the holder's figures. */
function addLine(held: Holdings, line: Line): void {
  if (line.product !== null) {
    const product = held.products.find((p) => p.product === line.product);
    if (product) Object.assign(product, { principal: line.amount, income: line.income, running: line.running, power: line.power });
    held.claimable.fixed += line.matured;
    return;
  }
  if (line.asset === null) return;
  held.owned[line.asset] += line.amount;
  if (line.asset === 'AIC' && line.kind === 'locked_rewards') held.locked = line.amount;
  if (line.asset === 'AIC' && line.kind === 'earning') held.earning = line.amount;
  const field = ACCOUNT_FIELDS[line.kind ?? ''];
  if (field) held.wallet[line.asset][field] = line.amount;
  else if (line.asset === 'AIC' && line.kind === 'rewards') held.claimable.rewards = line.amount;
  else if (line.asset === 'AIC' && line.kind === 'network_rewards') held.claimable.network = line.amount;
}

/**
 * The holdings of several holders in one statement (holdingsFunction.ts): `holder_holdings`, or
 * with `books` `holder_accounts`, the accounts alone (the products' lines left at zero).
 */
async function holdingsOfMany(db: Db, userIds: bigint[], books: boolean): Promise<Map<bigint, Holdings>> {
  const fn = sql.raw(books ? 'holder_accounts' : 'holder_holdings');
  const { rows } = await sql<Line>`select * from ${fn}(${userIds}::bigint[])`.execute(db);
  const found = new Map<bigint, Holdings>(userIds.map((id) => [id, emptyHoldings()]));
  for (const line of rows) {
    const held = found.get(line.user_id);
    if (held) addLine(held, line);
  }
  return found;
}

const gatheredOf = perOwner((db: Db) => gathered((ids: bigint[]) => holdingsOfMany(db, ids, false), emptyHoldings));
const gatheredBooks = perOwner((db: Db) => gathered((ids: bigint[]) => holdingsOfMany(db, ids, true), emptyHoldings));

/**
 * What a holder holds, in units, read together with the holders asking in the same moment: the
 * wallet's balances per asset; per product, principal and income of the orders still held, and
 * the AIC the running ones hold (`running`: matured orders are in `claimable.fixed` instead); and
 * what can be claimed now; the locked network income; and per asset what the holder owns (the
 * ledger's accounts their proof leaf sums). The wallet (server/wallet/routes.ts) reads the same
 * accounts through `booksOf`; its "in products" is the earning account, which holds what these
 * products hold (the reliability suite and wallet/total.test.ts hold the two to each other).
 */
export function holdingsOf(db: Db, userId: bigint): Promise<Holdings> {
  return gatheredOf(db)(userId);
}

/**
 * The holder's accounts alone, for the wallet: `products` and `claimable.fixed` stay at zero, and
 * `earning` is what all the products hold. A read that does not grow with the holder's orders.
 */
export function booksOf(db: Db, userId: bigint): Promise<Holdings> {
  return gatheredBooks(db)(userId);
}

/** The holder's positions as the dual-currency view shows them: decimal strings. */
async function positions(db: Db, userId: bigint) {
  const held = await holdingsOf(db, userId);
  return {
    products: held.products.map((p) => ({
      product: p.product,
      principal: formatUnits(p.principal),
      income: formatUnits(p.income),
      power: formatUnits(p.power),
    })),
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
