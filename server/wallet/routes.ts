import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { formatUnits, parseAmount, type Units } from '../../contract/money.ts';
import { PATHS } from '../../contract/paths.ts';
import {
  ASSETS,
  AssetData,
  MoveBody,
  TRANSFER_TYPES,
  TransferPageData,
  TransferRecord,
  TransferRecordsData,
  TransferRecordsQuery,
  type TransferType,
  INBOUND,
} from '../../contract/wallet.ts';
import { userIdOf } from '../auth/guard.ts';
import type { AppContext } from '../context.ts';
import { amountFrom } from '../http/amount.ts';
import { AppError } from '../http/errors.ts';
import { idempotent, sendAnswer } from '../http/idempotency.ts';
import { answers, ok } from '../http/schemas.ts';
import { currentPrice, usdtInAic } from '../platform/price.ts';
import type { ExchangeAdapter } from './exchange.ts';
import { listTransfers, walletBalances, walletBalancesGathered } from './repository.ts';
import { moveFunds } from './service.ts';

const MINIMUM = 1n; // recharge and transfer in: 1e-8, any amount above zero (PRODUCT.md, Asset wallet)
const FEE = 0n;

/** The least withdrawal or transfer out (WITHDRAW_MINIMUM, whole units of the asset), exactly. */
function withdrawMinimumOf(ctx: AppContext): Units {
  const parsed = parseAmount(ctx.config.withdrawMinimum);
  if (!parsed.ok) throw new Error('WITHDRAW_MINIMUM is not a decimal amount');
  return parsed.value;
}

const MOVES: { path: string; type: TransferType; summary: string }[] = [
  { path: PATHS.recharge, type: 'recharge', summary: 'Recharge the wallet from the exchange' },
  { path: PATHS.transferIn, type: 'transfer_in', summary: 'Transfer in from the exchange' },
  { path: PATHS.transferOut, type: 'transfer_out', summary: 'Transfer out to the exchange (reviewed)' },
  { path: PATHS.withdraw, type: 'withdraw', summary: 'Withdraw to the exchange (reviewed)' },
];

const secured = { security: [{ bearer: [] }] };

export const walletRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext; exchange: ExchangeAdapter }> = async (
  app,
  { ctx, exchange },
) => {
  app.get(
    PATHS.getAsset,
    { schema: { tags: ['wallet'], summary: 'Wallet balances and total assets', ...secured, response: answers(AssetData) } },
    async (request) => {
      const userId = userIdOf(request);
      const [balances, price] = await Promise.all([walletBalancesGathered(ctx.db, userId), currentPrice(ctx)]);
      const held = (asset: 'AIC' | 'USDT') => balances[asset].available + balances[asset].pending;
      return ok({
        totalAic: formatUnits(held('AIC') + usdtInAic(held('USDT'), price.price)),
        price: price.price,
        balances: ASSETS.map((asset) => ({
          asset,
          available: formatUnits(balances[asset].available),
          pending: formatUnits(balances[asset].pending),
          exchange: formatUnits(balances[asset].exchange),
        })),
      });
    },
  );

  app.get(
    PATHS.transferPage,
    { schema: { tags: ['wallet'], summary: 'What the transfer forms need', ...secured, response: answers(TransferPageData) } },
    async (request) => {
      const balances = await walletBalances(ctx.db, userIdOf(request));
      const withdrawMinimum = formatUnits(withdrawMinimumOf(ctx));
      return ok({
        assets: ASSETS.map((asset) => ({
          asset,
          available: formatUnits(balances[asset].available),
          exchange: formatUnits(balances[asset].exchange),
          minimum: formatUnits(MINIMUM),
          fee: formatUnits(FEE),
          withdrawMinimum,
        })),
        types: [...TRANSFER_TYPES],
      });
    },
  );

  for (const move of MOVES) {
    app.post(
      move.path,
      {
        schema: {
          tags: ['wallet'],
          summary: move.summary,
          ...secured,
          headers: { type: 'object', properties: { 'idempotency-key': { type: 'string' } } },
          body: MoveBody,
          response: answers(TransferRecord),
        },
      },
      async (request, reply) => {
        const userId = userIdOf(request);
        const amount = amountFrom(request.body.amount);
        const outbound = !INBOUND.includes(move.type);
        const answer = await idempotent(
          ctx,
          request,
          userId,
          async (trx) => {
            // Refused inside the key's transaction, so a repeat gets the same refusal.
            if (outbound && amount < withdrawMinimumOf(ctx)) throw new AppError('BELOW_TRANSFER_MINIMUM');
            return moveFunds(trx, exchange, { userId, type: move.type, asset: request.body.asset, amount, now: ctx.clock.now() });
          },
          new AppError('WALLET_BALANCE'),
        );
        return sendAnswer(reply, answer);
      },
    );
  }

  app.get(
    PATHS.transferRecords,
    {
      schema: {
        tags: ['wallet'],
        summary: 'Wallet movements, newest first, by cursor',
        ...secured,
        querystring: TransferRecordsQuery,
        response: answers(TransferRecordsData),
      },
    },
    async (request) => ok(await listTransfers(ctx.db, userIdOf(request), request.query)),
  );
};
