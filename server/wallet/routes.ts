import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { formatUnits, parseAmount, type Units } from '../../contract/money.ts';
import { PATHS } from '../../contract/paths.ts';
import {
  ASSETS,
  AssetData,
  ExchangeBalancesData,
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
import { booksOf } from '../earn/positions.ts';
import { amountFrom } from '../http/amount.ts';
import { AppError } from '../http/errors.ts';
import { idempotentStart, isRepeat, sendAnswer } from '../http/idempotency.ts';
import { idempotentPost } from '../http/idempotentPost.ts';
import { messageLanguage } from '../http/messages.ts';
import { answers, ok } from '../http/schemas.ts';
import { utcDay } from '../platform/clock.ts';
import { currentPrice, inUsd } from '../platform/price.ts';
import type { Exchange } from './exchange.ts';
import { askExchange } from './exchangeBalances.ts';
import { listTransfers } from './repository.ts';
import { reviewTime } from './reviewTime.ts';
import { requestOutbound } from './service.ts';
import { answerFor, drive, insertInbound } from './transfers.ts';

/** An amount the exchange wrote (a decimal string), in units. */
const unitsOf = (text: string | null): bigint => {
  const parsed = parseAmount(text ?? '');
  return parsed.ok ? parsed.value : 0n;
};

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

export const walletRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext; exchange: Exchange }> = async (
  app,
  { ctx, exchange },
) => {
  app.get(
    PATHS.getAsset,
    {
      schema: {
        tags: ['wallet'],
        summary: 'Wallet balances, and total assets: wallet, earn products, claimable and locked, in AIC and USD',
        description:
          'From the platform’s own books, never waiting on the exchange: each balance’s `exchange` is this process’s copy of the exchange’s answer when one is fresh (`exchangeFresh`), else null while the exchange is asked in the background; GET /api/wallet/exchange-balances waits for it.',
        ...secured,
        response: answers(AssetData),
      },
    },
    async (request) => {
      const userId = userIdOf(request);
      const atExchange = exchange.balances.peek(userId);
      const [earn, price] = await Promise.all([booksOf(ctx.db, userId), currentPrice(ctx)]);
      const balances = earn.wallet;
      // In products: the earning account, which holds what the orders hold, matured 30-day orders
      // included until they are redeemed. "Claimable" is only what a tap on Claim moves to the
      // wallet (360-day rewards, unlocked network income).
      const inProducts = earn.earning;
      const claimable = earn.claimable.rewards + earn.claimable.network;
      const owned = ASSETS.map((asset) => ({ asset, total: earn.owned[asset], usd: inUsd(asset, earn.owned[asset], price.price) }));
      return ok({
        walletAic: formatUnits(balances.AIC.available + balances.AIC.pending),
        earnAic: formatUnits(inProducts),
        claimableAic: formatUnits(claimable),
        lockedAic: formatUnits(earn.locked),
        totalAic: formatUnits(earn.owned.AIC),
        owned: owned.map((o) => ({ asset: o.asset, total: formatUnits(o.total), usd: formatUnits(o.usd) })),
        totalUsd: formatUnits(owned.reduce((sum, o) => sum + o.usd, 0n)),
        price: price.price,
        balances: ASSETS.map((asset) => ({
          asset,
          available: formatUnits(balances[asset].available),
          pending: formatUnits(balances[asset].pending),
          exchange: atExchange?.[asset] ?? null,
        })),
        exchangeFresh: atExchange !== undefined,
      });
    },
  );

  app.get(
    PATHS.exchangeBalances,
    {
      schema: {
        tags: ['wallet'],
        summary: 'The holder’s balances at the exchange (the Wallet’s exchange line)',
        description:
          'From this process’s copy while it is at most EXCHANGE_BALANCE_TTL_MS old (a move of the holder’s drops it), else asked of the exchange, once for all the holder’s requests meanwhile. Null where the exchange cannot say right now.',
        ...secured,
        response: answers(ExchangeBalancesData),
      },
    },
    async (request) => {
      const atExchange = await exchange.balances.read(userIdOf(request));
      return ok({ balances: ASSETS.map((asset) => ({ asset, exchange: atExchange[asset] })) });
    },
  );

  app.get(
    PATHS.transferPage,
    { schema: { tags: ['wallet'], summary: 'What the transfer forms need', ...secured, response: answers(TransferPageData) } },
    async (request) => {
      const userId = userIdOf(request);
      // The copy may be a few seconds old: it only shows; the POST asks the exchange itself. The
      // platform's balances are the wallet screen's read (`booksOf`), gathered with the holders
      // asking at once.
      const [books, atExchange, review] = await Promise.all([
        booksOf(ctx.db, userId),
        exchange.balances.read(userId),
        reviewTime(ctx.db, utcDay(ctx.clock.now())),
      ]);
      const balances = books.wallet;
      const withdrawMinimum = formatUnits(withdrawMinimumOf(ctx));
      return ok({
        assets: ASSETS.map((asset) => ({
          asset,
          available: formatUnits(balances[asset].available),
          exchange: atExchange[asset],
          minimum: formatUnits(MINIMUM),
          fee: formatUnits(FEE),
          withdrawMinimum,
        })),
        types: [...TRANSFER_TYPES],
        review,
      });
    },
  );

  for (const move of MOVES.filter((m) => INBOUND.includes(m.type))) {
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
        const { asset } = request.body;
        const now = ctx.clock.now();
        const type = move.type as 'recharge' | 'transfer_in';
        // A first request only (a repeat gets its first answer): without consent to debit the holder
        // at the exchange there is nothing to send (sign in again); more than the exchange says
        // they hold there is refused before a transfer is made of it.
        if (!(await isRepeat(ctx, request, userId))) {
          const token = await exchange.accessToken(userId);
          if (!token) throw new AppError('EXCHANGE_CONSENT');
          const held = await askExchange(exchange, userId, token);
          if (held[asset] !== null && amount > unitsOf(held[asset])) throw new AppError('EXCHANGE_BALANCE');
        }
        // Ended outside the key's transaction, when the exchange confirms: not idempotentPost's kind.
        const started = await idempotentStart(ctx, request, userId, (trx, requestKey) =>
          insertInbound(trx, exchange.leaseMs, { userId, type, asset, amount, now, requestKey }),
        );
        if ('answer' in started) return sendAnswer(reply, started.answer);
        const row = await drive(ctx.db, exchange, started.started, { resume: false });
        return sendAnswer(reply, answerFor(row, messageLanguage(request.headers['x-lang'])));
      },
    );
  }

  for (const move of MOVES.filter((m) => !INBOUND.includes(m.type))) {
    idempotentPost(
      app,
      ctx,
      move.path,
      {
        tags: ['wallet'],
        summary: move.summary,
        body: MoveBody,
        data: TransferRecord,
        // An unreadable amount is refused before the key is claimed.
        check: ({ body }) => {
          amountFrom(body.amount);
        },
        insufficient: new AppError('WALLET_BALANCE'),
      },
      async ({ userId, body }, trx) => {
        const amount = amountFrom(body.amount);
        // Refused inside the key's transaction, so a repeat gets the same refusal.
        if (amount < withdrawMinimumOf(ctx)) throw new AppError('BELOW_TRANSFER_MINIMUM');
        return requestOutbound(trx, { userId, type: move.type, asset: body.asset, amount, now: ctx.clock.now() });
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
