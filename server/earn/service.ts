import { sql, type Transaction } from 'kysely';
import type { Order } from '../../contract/earn.ts';
import { formatUnits } from '../../contract/money.ts';
import { checkRedemption } from '../../contract/redemption.ts';
import type { AppContext } from '../context.ts';
import type { Database, Product } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import { postEntry, sweepToWallet } from '../ledger/ledger.ts';
import { notifyOwnMove } from '../notify/notices.ts';
import { utcDay } from '../platform/clock.ts';
import { findOrder, type OrderRow, toOrder } from './repository.ts';
import { termDates } from './termDates.ts';
import { isActive, kindOf, productOf, renews } from '../../contract/products.ts';
import { coefficientScaled, type EarnParams, earnParams, formatScaled, powerOf } from './params.ts';

type Trx = Transaction<Database>;


/** Refusing a subscription over the quota: 102 (a3) when none is left today, else 300 (a9). */
async function quotaRefusal(trx: Trx, userId: bigint, day: string, quota: bigint): Promise<AppError> {
  return new AppError((await quotaUsed(trx, userId, day)) >= quota ? 'QUOTA' : 'DAILY_QUOTA');
}

/** Uses `amount` of the user's quota for the day, or refuses if it would go over. */
async function consumeQuota(trx: Trx, userId: bigint, day: string, amount: bigint, quota: bigint): Promise<void> {
  if (amount > quota) throw await quotaRefusal(trx, userId, day, quota);
  const row = await trx
    .insertInto('daily_quota')
    .values({ user_id: userId, day, used: amount })
    .onConflict((oc) =>
      oc
        .columns(['user_id', 'day'])
        .doUpdateSet({ used: sql`daily_quota.used + excluded.used` })
        .where(sql<boolean>`daily_quota.used + excluded.used <= ${quota}`),
    )
    .returning('used')
    .executeTakeFirst();
  if (!row) throw await quotaRefusal(trx, userId, day, quota);
}

async function quotaUsed(db: AppContext['db'], userId: bigint, day: string): Promise<bigint> {
  const row = await db
    .selectFrom('daily_quota')
    .select('used')
    .where('user_id', '=', userId)
    .where('day', '=', day)
    .executeTakeFirst();
  return row?.used ?? 0n;
}

/** What a holder asks to buy; `autoRenew` only for a product that renews (the route refuses it otherwise). */
export type BuyInput = { userId: bigint; product: Product; amount: bigint; autoRenew?: boolean };

/** A new order's row as it will be stored (id aside): what the buy inserts and answers. */
export function newOrder(params: EarnParams, input: BuyInput, now: Date): OrderRow {
  const today = utcDay(now);
  const { kind, termDays: term } = productOf(input.product);
  const dates = term === null ? null : termDates(term, now);
  const coefficient = kind === 'pool' ? coefficientScaled(params, today) : null;
  return {
    id: 0n,
    user_id: input.userId,
    product: input.product,
    principal: input.amount,
    income: 0n,
    power: coefficient === null ? 0n : powerOf(params, input.amount, coefficient),
    coefficient: coefficient === null ? null : formatScaled(coefficient),
    status: kind === 'flexible' ? 'in_progress' : 'confirming',
    reinvest: false,
    start_day: dates?.valueDay ?? today,
    created_at: now,
    cycle_start: kind === 'flexible' ? now : null,
    cycles_paid: 0,
    matures_day: dates?.maturesDay ?? null,
    auto_renew: input.autoRenew === true,
    renewed_from: null,
    renewed_to: null,
  };
}

/**
 * Subscribes AIC from the wallet: at least the minimum, inviter bound, within today's quota,
 * covered by the balance. Current runs in 24-hour cycles from now; fixed terms start earning
 * on the next UTC day and stay "confirming" until then. The route runs the same checks in one
 * statement (`earn_buy`, see subscribe.ts); this step-by-step version is its oracle in the tests.
 */
export async function buy(ctx: AppContext, trx: Trx, input: BuyInput): Promise<Order> {
  const now = ctx.clock.now();
  const today = utcDay(now);
  const params = await earnParams(trx, ctx.config.earn, today);
  if (input.amount < params.minimum) throw new AppError('BELOW_MINIMUM');
  const user = await trx.selectFrom('users').select('inviter_id').where('id', '=', input.userId).executeTakeFirst();
  if (!user || user.inviter_id === null) throw new AppError('BIND_FIRST');
  await consumeQuota(trx, input.userId, today, input.amount, params.dailyQuota);

  const { id: _id, income: _income, reinvest: _reinvest, cycles_paid: _cycles, ...values } = newOrder(params, input, now);
  const row = (await trx
    .insertInto('orders')
    .values(values)
    .returning([
      'id', 'user_id', 'product', 'principal', 'income', 'power', 'coefficient', 'status', 'reinvest',
      'start_day', 'created_at', 'cycle_start', 'cycles_paid', 'matures_day', 'auto_renew', 'renewed_from', 'renewed_to',
    ])
    .executeTakeFirstOrThrow()) as OrderRow;

  const entryId = await postEntry(trx, {
    kind: 'subscribe',
    ref: `order:${row.id}`,
    at: now,
    postings: [
      { userId: input.userId, asset: 'AIC', kind: 'wallet', amount: -input.amount },
      { userId: input.userId, asset: 'AIC', kind: 'earning', amount: input.amount },
    ],
  });
  await notifyOwnMove(trx, { userId: input.userId, entryId, kind: 'subscribed', params: orderParams(row, input.amount), at: now });
  return toOrder(row, now);
}

/** A subscription's or redemption's notice figures: the order, its product, the AIC moved. */
const orderParams = (row: OrderRow, amount: bigint) => ({ order: String(row.id), product: row.product, amount: formatUnits(amount) });

/** Returns an order's holding to the wallet and closes it with `status`. */
async function payOut(ctx: AppContext, trx: Trx, row: OrderRow, status: 'redeemed' | 'redemption_successful') {
  const holding = row.principal + row.income;
  const now = ctx.clock.now();
  const entryId = await postEntry(trx, {
    kind: 'redeem',
    ref: `order:${row.id}`,
    at: now,
    postings: [
      { userId: row.user_id, asset: 'AIC', kind: 'earning', amount: -holding },
      { userId: row.user_id, asset: 'AIC', kind: 'wallet', amount: holding },
    ],
  });
  await notifyOwnMove(trx, { userId: row.user_id, entryId, kind: 'redeemed', params: orderParams(row, holding), at: now });
  await trx
    .updateTable('orders')
    .set({ status, closed_at: now })
    .where('user_id', '=', row.user_id)
    .where('id', '=', row.id)
    .execute();
  return toOrder({ ...row, status }, now);
}

/**
 * Current: principal and the income of completed cycles back to the wallet, any time, all or
 * part (PRODUCT.md): `amount`, when given, at least the product's minimum and leaving zero or at
 * least the minimum in the order; all of it (or none given) closes the order. A part comes from
 * the order's income first, then its principal; the running cycle pays at its end on what is left.
 */
export async function redeemCurrent(ctx: AppContext, trx: Trx, userId: bigint, orderId: bigint, amount?: bigint): Promise<Order> {
  const row = await findOrder(trx, userId, orderId, true);
  if (!row || kindOf(row) !== 'flexible' || !isActive(row.status)) throw new AppError('REDEEM_NONE');
  const holding = row.principal + row.income;
  if (amount === undefined || amount === holding) return payOut(ctx, trx, row, 'redeemed');
  const now = ctx.clock.now();
  const { minimum } = await earnParams(trx, ctx.config.earn, utcDay(now));
  const verdict = checkRedemption(holding, amount, minimum);
  if (!verdict.ok) throw new AppError(verdict.refusal);
  return payPart(trx, row, amount, now);
}

/** Returns `amount` of a current order's holding to the wallet, income first; the order runs on. */
async function payPart(trx: Trx, row: OrderRow, amount: bigint, now: Date): Promise<Order> {
  const fromIncome = amount < row.income ? amount : row.income;
  const entryId = await postEntry(trx, {
    kind: 'redeem',
    ref: `order:${row.id}`,
    at: now,
    postings: [
      { userId: row.user_id, asset: 'AIC', kind: 'earning', amount: -amount },
      { userId: row.user_id, asset: 'AIC', kind: 'wallet', amount },
    ],
  });
  await notifyOwnMove(trx, { userId: row.user_id, entryId, kind: 'redeemed', params: orderParams(row, amount), at: now });
  const left = { principal: row.principal - (amount - fromIncome), income: row.income - fromIncome };
  await trx.updateTable('orders').set(left).where('user_id', '=', row.user_id).where('id', '=', row.id).execute();
  return toOrder({ ...row, ...left }, now);
}

/** 30-day: principal plus income once matured; early redemption is refused. */
export async function redeemRegular(ctx: AppContext, trx: Trx, userId: bigint, orderId: bigint): Promise<Order> {
  const row = await findOrder(trx, userId, orderId, true);
  if (!row || kindOf(row) !== 'fixed') throw new AppError('REDEEM_NONE');
  if (isActive(row.status)) throw new AppError('NOT_MATURE');
  if (row.status !== 'redeemable') throw new AppError('REDEEM_NONE');
  return payOut(ctx, trx, row, 'redemption_successful');
}

/** Switches reinvestment of a 360-day order's daily earnings on or off. */
export async function setReinvest(ctx: AppContext, trx: Trx, userId: bigint, orderId: bigint, on: boolean) {
  const row = await findOrder(trx, userId, orderId, true);
  if (!row || kindOf(row) !== 'pool' || !isActive(row.status)) throw new AppError('REDEEM_NONE');
  const status = row.status === 'confirming' ? 'confirming' : on ? 'reinvested' : 'in_progress';
  await trx
    .updateTable('orders')
    .set({ reinvest: on, status })
    .where('user_id', '=', userId)
    .where('id', '=', orderId)
    .execute();
  return toOrder({ ...row, reinvest: on, status }, ctx.clock.now());
}

/**
 * Switches a 30-day order's auto-renew on or off while it runs (confirming or in progress): at
 * maturity settlement renews it or makes it redeemable by what the switch says then. Another
 * holder's order is unknown; an order of another product, or one no longer running, is refused
 * with its own code.
 */
export async function setAutoRenew(ctx: AppContext, trx: Trx, userId: bigint, orderId: bigint, on: boolean): Promise<Order> {
  const row = await findOrder(trx, userId, orderId, true);
  if (!row) throw new AppError('NOT_FOUND');
  if (!renews(row.product)) throw new AppError('AUTO_RENEW_PRODUCT');
  if (!isActive(row.status)) throw new AppError('AUTO_RENEW_CLOSED');
  await trx.updateTable('orders').set({ auto_renew: on }).where('user_id', '=', userId).where('id', '=', orderId).execute();
  return toOrder({ ...row, auto_renew: on }, ctx.clock.now());
}

/** Claims the rewards account (360-day static earnings) into the wallet; network income has its own claim (team/routes.ts). */
export async function claimRewards(trx: Trx, userId: bigint, now: Date): Promise<{ claimed: string }> {
  const swept = await sweepToWallet(trx, { userId, from: 'rewards', kind: 'claim', at: now });
  if (!swept) throw new AppError('CLAIM_NONE');
  const claimed = formatUnits(swept.amount);
  await notifyOwnMove(trx, { userId, entryId: swept.entryId, kind: 'claimed', params: { amount: claimed, what: 'rewards' }, at: now });
  return { claimed };
}
