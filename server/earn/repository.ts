import type { Transaction } from 'kysely';
import type { Order, OrderListQuery } from '../../contract/earn.ts';
import { formatUnits } from '../../contract/money.ts';
import type { Db } from '../db/connect.ts';
import type { Database, OrderStatus, Product } from '../db/schema.ts';
import { queryTime } from '../http/queryTime.ts';
import { DAY_MS } from '../platform/clock.ts';
import { gatheredCalls, idCursor, MAX_BIGINT } from '../platform/readCalls.ts';
import { isActive, PRODUCTS, productOf } from '../../contract/products.ts';
import { countdownDays } from '../../contract/countdown.ts';
import { datesOf, maturesAt } from './termDates.ts';

type Executor = Db | Transaction<Database>;

const ORDER_COLUMNS = [
  'id',
  'user_id',
  'product',
  'principal',
  'income',
  'power',
  'coefficient',
  'status',
  'reinvest',
  'start_day',
  'created_at',
  'cycle_start',
  'cycles_paid',
  'matures_day',
  'auto_renew',
  'renewed_from',
  'renewed_to',
] as const;

export type OrderRow = {
  id: bigint;
  user_id: bigint;
  product: Product;
  principal: bigint;
  income: bigint;
  power: bigint;
  coefficient: string | null;
  status: OrderStatus;
  reinvest: boolean;
  start_day: string;
  created_at: Date;
  cycle_start: Date | null;
  cycles_paid: number;
  matures_day: string | null;
  auto_renew: boolean;
  renewed_from: bigint | null;
  renewed_to: bigint | null;
};


const seconds = (ms: number) => Math.max(0, Math.ceil(ms / 1000));

/** An order as the app shows it, at a moment. */
export function toOrder(row: OrderRow, now: Date): Order {
  const active = isActive(row.status);
  const holding = row.principal + row.income;
  let countdownSeconds: number | null = null;
  const { kind } = productOf(row.product);
  if (kind === 'flexible' && active && row.cycle_start) {
    countdownSeconds = seconds(row.cycle_start.getTime() + (row.cycles_paid + 1) * DAY_MS - now.getTime());
  } else if (row.matures_day && active) {
    countdownSeconds = seconds(maturesAt(row.matures_day).getTime() - now.getTime());
  }
  const redeemableNow =
    (kind === 'flexible' && active) || (kind === 'fixed' && row.status === 'redeemable');
  return {
    id: String(row.id),
    product: row.product,
    quantity: formatUnits(row.principal),
    income: formatUnits(row.income),
    redeemable: formatUnits(redeemableNow ? holding : 0n),
    status: row.status,
    reinvest: row.reinvest,
    autoRenew: row.auto_renew,
    renewedFrom: row.renewed_from === null ? null : String(row.renewed_from),
    renewedTo: row.renewed_to === null ? null : String(row.renewed_to),
    createdAt: row.created_at.toISOString(),
    startDay: row.start_day,
    maturesDay: row.matures_day,
    // The days the countdown to maturity shows: one figure, so the card's two never disagree.
    remainingDays: row.matures_day && countdownSeconds !== null ? countdownDays(countdownSeconds) : null,
    countdownSeconds,
    dates: row.matures_day ? datesOf(row.start_day, row.matures_day) : null,
    power: kind === 'pool' ? formatUnits(row.power) : null,
    coefficient: row.coefficient,
  };
}

/** One of the user's orders; `lock` (inside a transaction) holds it until commit. */
export async function findOrder(db: Executor, userId: bigint, id: bigint, lock = false): Promise<OrderRow | undefined> {
  let q = db.selectFrom('orders').select(ORDER_COLUMNS).where('user_id', '=', userId).where('id', '=', id);
  if (lock) q = q.forUpdate();
  return q.executeTakeFirst() as Promise<OrderRow | undefined>;
}

const orderPage = gatheredCalls<OrderRow>('order_page', ['bigint', 'text', 'text', 'timestamptz', 'timestamptz', 'bigint', 'int']);

/**
 * One of the holder's orders, as the order's screen reads it: the page of one order at or below
 * `id` (`order_page`), gathered with the reads asked at once. An id past PostgreSQL's bigint
 * names no order, and is answered before the call (a call that fails fails its turn).
 */
export async function orderOf(db: Db, userId: bigint, id: bigint): Promise<OrderRow | undefined> {
  if (id >= MAX_BIGINT) return undefined;
  const [row] = await orderPage(db, userId, PRODUCTS.join(','), null, null, null, id + 1n, 1);
  return row?.id === id ? row : undefined;
}

/** A page of the holder's orders, newest first (`order_page`, orderPageFunction.ts), gathered with the pages asked at once. */
export async function listOrders(
  db: Db,
  userId: bigint,
  query: OrderListQuery,
  products: readonly Product[],
): Promise<{ rows: OrderRow[]; nextCursor: string | null }> {
  const limit = query.limit ?? 20;
  const rows = await orderPage(
    db,
    userId,
    (query.product ? [query.product] : products).join(','),
    query.status ?? null,
    queryTime(query.from),
    queryTime(query.to),
    query.cursor ? idCursor(query.cursor) : MAX_BIGINT,
    limit + 1,
  );
  const page = rows.slice(0, limit);
  return { rows: page, nextCursor: rows.length > limit ? String(page.at(-1)?.id) : null };
}
