import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AutoRenewBody, BindBody, BindData, BuyBody, ClaimData, DailyIncomeData, Order, OrderIdBody, OrderIdQuery, OrderListData, OrderListQuery, ProductInfoData, RedeemCurrentBody, RewardLogData, RewardLogQuery, UserLogData, UserLogQuery } from '../../contract/earn.ts';
import { RateHistoryData } from '../../contract/rates.ts';
import { formatUnits, parseRate } from '../../contract/money.ts';
import { PATHS } from '../../contract/paths.ts';
import { userIdOf } from '../auth/guard.ts';
import type { AppContext } from '../context.ts';
import { amountFrom } from '../http/amount.ts';
import { AppError } from '../http/errors.ts';
import { idempotent, sendAnswer } from '../http/idempotency.ts';
import { idempotentPost } from '../http/idempotentPost.ts';
import { answers, ok } from '../http/schemas.ts';
import { addDays, utcDay } from '../platform/clock.ts';
import { bindInviter } from '../team/binding.ts';
import { coefficientScaled, dailyRateOf, daysBetween, formatScaled } from './params.ts';
import { holderFigures, platformFigures } from './productInfo.ts';
import { rateHistory, upcomingFor } from './rates.ts';
import { listOrders, orderOf, toOrder } from './repository.ts';
import { claimRewards, redeemCurrent, redeemRegular, setAutoRenew, setReinvest } from './service.ts';
import { dailyIncome, rewardLog, userLog } from './logs.ts';
import { subscribe } from './subscribe.ts';
import { termDates } from './termDates.ts';
import type { Product } from '../db/schema.ts';
import { PRODUCTS, productOf, renews } from '../../contract/products.ts';

/** The income chart's days: today and the 29 before it, "the last 30 days" as it says. */
export const INCOME_DAYS = 30;

const secured = { security: [{ bearer: [] }] };
const tags = ['earn'];

/** The dates each termed product's order bought at `now` would have (the form shows them). */
const termedDates = (now: Date) =>
  PRODUCTS.flatMap((product) => {
    const { termDays } = productOf(product);
    return termDays === null ? [] : [{ product, dates: termDates(termDays, now) }];
  });

/** Daily rate × 365 as a percentage with two decimals, exact. */
export function aprOf(dailyRate: string): string {
  const { numerator, denominator } = parseRate(dailyRate);
  const hundredths = (numerator * 365n * 10_000n) / denominator;
  return `${hundredths / 100n}.${(hundredths % 100n).toString().padStart(2, '0')}`;
}

export const earnRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get(
    PATHS.rateHistory,
    {
      schema: { tags, summary: 'Every version of the earn terms: defaults, changes in force and changes announced', response: answers(RateHistoryData) },
      config: { public: true },
    },
    async () => ok(await rateHistory(ctx.db, ctx.config, utcDay(ctx.clock.now()))),
  );

  app.get(
    PATHS.productInfo,
    { schema: { tags, summary: 'The products, rates, quota left and today’s coefficient', ...secured, response: answers(ProductInfoData) } },
    async (request) => {
      const userId = userIdOf(request);
      const today = utcDay(ctx.clock.now());
      const [platform, holder] = await Promise.all([platformFigures(ctx, today), holderFigures(ctx.db, userId, today)]);
      const { params, history, poolOutput, totalPower, poolRecent } = platform;
      return ok({
        products: PRODUCTS.map((product) => {
          const rate = dailyRateOf(params, product);
          const { termDays, cycleHours, kind } = productOf(product);
          const pool = kind === 'pool';
          const maxDailyRate = pool ? params.poolMaxDailyRate : null;
          const recent = pool && poolRecent ? { ...poolRecent, apr: aprOf(poolRecent.dailyRate) } : null;
          return {
            product,
            dailyRate: rate,
            apr: rate === null ? null : aprOf(rate),
            termDays,
            cycleHours,
            maxDailyRate,
            maxApr: maxDailyRate === null ? null : aprOf(maxDailyRate),
            recent,
            upcoming: upcomingFor(history, product),
          };
        }),
        minimum: formatUnits(params.minimum),
        dailyQuota: formatUnits(params.dailyQuota),
        quotaLeft: formatUnits(params.dailyQuota > holder.used ? params.dailyQuota - holder.used : 0n),
        coefficient: formatScaled(coefficientScaled(params, today)),
        coefficientBase: params.coefficientBase,
        coefficientDay: Math.min(daysBetween(params.launchDay, today), params.coefficientMaxDays),
        powerMultiplier: params.powerMultiplier.toString(),
        poolOutputToday: formatUnits(poolOutput),
        totalPower: formatUnits(totalPower),
        inviterBound: holder.inviterBound,
        available: formatUnits(holder.wallet),
        rewards: formatUnits(holder.rewards),
        termDates: termedDates(ctx.clock.now()),
      });
    },
  );

  app.post(
    PATHS.productBuy,
    { schema: { tags, summary: 'Subscribe AIC from the wallet to a product', ...secured, body: BuyBody, response: answers(Order) } },
    async (request, reply) => {
      const userId = userIdOf(request);
      const body = request.body as { product: Product; amount: string; autoRenew?: boolean };
      let amount: bigint;
      try {
        amount = amountFrom(body.amount);
        // Auto-renew is a choice of the products that renew (30-day); asked of another, refused.
        if (body.autoRenew !== undefined && !renews(body.product)) throw new AppError('AUTO_RENEW_PRODUCT');
      } catch (error) {
        // An unreadable amount is refused (and stored under the key) as every POST refuses.
        const answer = await idempotent(ctx, request, userId, async () => {
          throw error;
        });
        return sendAnswer(reply, answer);
      }
      const answer = await subscribe(ctx, request, { userId, product: body.product, amount, autoRenew: body.autoRenew === true });
      return sendAnswer(reply, answer);
    },
  );

  const listRoute = (path: string, summary: string, products: typeof PRODUCTS) =>
    app.get(
      path,
      { schema: { tags, summary, ...secured, querystring: OrderListQuery, response: answers(OrderListData) } },
      async (request) => {
        const { rows, nextCursor } = await listOrders(ctx.db, userIdOf(request), request.query, products);
        const now = ctx.clock.now();
        return ok({ items: rows.map((row) => toOrder(row, now)), nextCursor });
      },
    );
  const termed = PRODUCTS.filter((product) => productOf(product).termDays !== null);
  listRoute(PATHS.productList, 'Fixed-term orders (30-day and 360-day) with countdowns', termed);
  listRoute(PATHS.myProductList, 'All the user’s orders (records of participation)', PRODUCTS);

  app.get(
    PATHS.product,
    { schema: { tags, summary: 'One order', ...secured, querystring: OrderIdQuery, response: answers(Order) } },
    async (request) => {
      const row = await orderOf(ctx.db, userIdOf(request), BigInt(request.query.id));
      if (!row) throw new AppError('NOT_FOUND');
      return ok(toOrder(row, ctx.clock.now()));
    },
  );

  const byOrder = (path: string, summary: string, action: typeof redeemCurrent) =>
    idempotentPost(app, ctx, path, { tags, summary, body: OrderIdBody, data: Order }, ({ userId, body }, trx) =>
      action(ctx, trx, userId, BigInt(body.orderId)),
    );
  idempotentPost(
    app,
    ctx,
    PATHS.redeemCurrent,
    { tags, summary: 'Redeem a current order, all or part: principal and completed cycles’ income', body: RedeemCurrentBody, data: Order },
    ({ userId, body }, trx) =>
      redeemCurrent(ctx, trx, userId, BigInt(body.orderId), body.amount === undefined ? undefined : amountFrom(body.amount)),
  );
  byOrder(PATHS.redeemRegular, 'Redeem a matured 30-day order: principal plus income', redeemRegular);
  byOrder(PATHS.oneRebuy, 'Switch reinvestment on for a 360-day order', (c, trx, u, id) => setReinvest(c, trx, u, id, true));
  byOrder(PATHS.cancelRebuy, 'Switch reinvestment off for a 360-day order', (c, trx, u, id) =>
    setReinvest(c, trx, u, id, false),
  );

  idempotentPost(
    app,
    ctx,
    PATHS.autoRenew,
    {
      tags,
      summary: 'Switch auto-renew on or off for a running 30-day order (at maturity, principal plus income renew into a new order)',
      body: AutoRenewBody,
      data: Order,
    },
    ({ userId, body }, trx) => setAutoRenew(ctx, trx, userId, BigInt(body.orderId), body.autoRenew),
  );

  idempotentPost(
    app,
    ctx,
    PATHS.receive,
    { tags, summary: 'Claim rewards into the wallet', body: BindBody, data: ClaimData, insufficient: new AppError('CLAIM_NONE') },
    ({ userId }, trx) => claimRewards(trx, userId, ctx.clock.now()),
  );

  idempotentPost(
    app,
    ctx,
    PATHS.bindInviter,
    { tags, summary: 'Bind a superior’s invitation code (once)', body: BindBody, data: BindData },
    async ({ userId, body }, trx) => {
      await bindInviter(trx, userId, body.inviteCode, ctx.clock.now());
      return { inviterCode: (body.inviteCode ?? '').trim().toUpperCase() };
    },
  );

  app.get(
    PATHS.rewardLog,
    { schema: { tags, summary: 'Income lines with their inputs, newest first', ...secured, querystring: RewardLogQuery, response: answers(RewardLogData) } },
    async (request) => ok(await rewardLog(ctx.db, userIdOf(request), request.query)),
  );
  app.get(
    PATHS.dailyIncome,
    { schema: { tags, summary: 'Income per day for the last 30 days', ...secured, response: answers(DailyIncomeData) } },
    async (request) => {
      const today = utcDay(ctx.clock.now());
      return ok({ days: await dailyIncome(ctx.db, userIdOf(request), addDays(today, -(INCOME_DAYS - 1)), today) });
    },
  );
  app.get(
    PATHS.userLog,
    { schema: { tags, summary: 'Every movement of the user’s accounts, newest first', ...secured, querystring: UserLogQuery, response: answers(UserLogData) } },
    async (request) => ok(await userLog(ctx.db, userIdOf(request), request.query)),
  );
};
