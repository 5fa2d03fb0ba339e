import { queryOptions, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import type { Static } from 'typebox';
import type { BindData, BuyBody, ClaimData, DailyIncomeData, Order, OrderListData, ProductInfoData, RewardLogData } from '../../../contract/earn.ts';
import type { OrderStatus, Product } from '../../../contract/products.ts';
import { PATHS } from '../../../contract/paths.ts';
import { apiGet, apiPost } from './client.ts';
import { MONEY_QUERIES, queryKeys } from './queries.ts';
import { useIdempotentAction } from './useIdempotentAction.ts';

const PAGE_SIZE = 20;

/** Which order list: fixed terms (product-list) or every order (my-product-list). */
export type OrderListName = 'fixed' | 'all';
/** The order filter as sent: a product, a status and a UTC range (from inclusive, to exclusive). */
export type OrderQuery = { product?: Product; status?: OrderStatus; from?: string; to?: string };

const LIST_PATHS: Record<OrderListName, string> = { fixed: PATHS.productList, all: PATHS.myProductList };

/** The products with the holder's limits (available, quota left); a form re-reads it before refusing. */
export const productInfoQuery = queryOptions({
  queryKey: queryKeys.productInfo,
  queryFn: () => apiGet<ProductInfoData>(PATHS.productInfo),
});

export const useProductInfo = () => useQuery(productInfoQuery);

export const useOrders = (list: OrderListName, query: OrderQuery) =>
  useInfiniteQuery({
    queryKey: queryKeys.orders(list, query),
    queryFn: ({ pageParam, signal }) =>
      apiGet<OrderListData>(LIST_PATHS[list], { ...query, cursor: pageParam, limit: PAGE_SIZE }, { signal }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });

/** One of the user's orders, by id (a notice's link lands on it). */
export const useOrder = (id: string) =>
  useQuery({ queryKey: queryKeys.order(id), queryFn: ({ signal }) => apiGet<Order>(PATHS.product, { id }, { signal }) });

export const useRewardLog = (kind: string) =>
  useInfiniteQuery({
    queryKey: queryKeys.rewardLog(kind),
    queryFn: ({ pageParam, signal }) =>
      apiGet<RewardLogData>(PATHS.rewardLog, { kind, cursor: pageParam, limit: PAGE_SIZE }, { signal }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });

export const useDailyIncome = () =>
  useQuery({
    queryKey: queryKeys.dailyIncome,
    queryFn: () => apiGet<Static<typeof DailyIncomeData>>(PATHS.dailyIncome),
  });

export const useBuy = () =>
  useIdempotentAction<BuyBody, Order>({
    run: (body, idempotencyKey) => apiPost<Order>(PATHS.productBuy, body, { idempotencyKey }),
    fingerprint: (body) => `buy|${body.product}|${body.amount}|${body.autoRenew ?? ''}`,
    invalidate: MONEY_QUERIES,
  });

export const useBind = () =>
  useIdempotentAction<{ inviteCode: string }, Static<typeof BindData>>({
    run: (body, idempotencyKey) => apiPost(PATHS.bindInviter, body, { idempotencyKey }),
    fingerprint: (body) => `bind|${body.inviteCode}`,
    invalidate: MONEY_QUERIES,
  });

export const useClaim = () =>
  useIdempotentAction<Record<string, never>, Static<typeof ClaimData>>({
    run: (body, idempotencyKey) => apiPost(PATHS.receive, body, { idempotencyKey }),
    fingerprint: () => 'receive',
    invalidate: MONEY_QUERIES,
  });

/** The things one can do to an order: redeem, the 360-day reinvestment and the 30-day auto-renew switches. */
export type OrderAction = 'redeemCurrent' | 'redeemRegular' | 'oneRebuy' | 'cancelRebuy' | 'autoRenewOn' | 'autoRenewOff';

/** Each action's call: its path and what it sends besides the order's id. */
const ACTION_CALLS: Record<OrderAction, { path: string; body?: object }> = {
  redeemCurrent: { path: PATHS.redeemCurrent },
  redeemRegular: { path: PATHS.redeemRegular },
  oneRebuy: { path: PATHS.oneRebuy },
  cancelRebuy: { path: PATHS.cancelRebuy },
  autoRenewOn: { path: PATHS.autoRenew, body: { autoRenew: true } },
  autoRenewOff: { path: PATHS.autoRenew, body: { autoRenew: false } },
};

/** An order action's request: a current order's redemption may name the part (`amount`). */
export type OrderActionBody = { action: OrderAction; orderId: string; amount?: string };

export const useOrderAction = () =>
  useIdempotentAction<OrderActionBody, Order>({
    run: ({ action, orderId, amount }, idempotencyKey) =>
      apiPost<Order>(ACTION_CALLS[action].path, { orderId, ...(amount === undefined ? {} : { amount }), ...ACTION_CALLS[action].body }, { idempotencyKey }),
    fingerprint: ({ action, orderId, amount }) => `${action}|${orderId}|${amount ?? ''}`,
    invalidate: MONEY_QUERIES,
  });
