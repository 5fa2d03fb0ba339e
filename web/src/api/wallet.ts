import { queryOptions, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { PATHS } from '../../../contract/paths.ts';
import type {
  AssetData,
  ExchangeBalancesData,
  MoveBody,
  TransferPageData,
  TransferRecord,
  TransferRecordsData,
  TransferType,
} from '../../../contract/wallet.ts';
import { apiGet, apiPost } from './client.ts';
import { queryKeys } from './queries.ts';

/** The records filter as sent: a type and a UTC range (from inclusive, to exclusive). */
export type RecordsFilter = { type?: TransferType; from?: string; to?: string };

const RECORDS_PAGE_SIZE = 20;

const MOVE_PATHS: Record<TransferType, string> = {
  recharge: PATHS.recharge,
  transfer_in: PATHS.transferIn,
  transfer_out: PATHS.transferOut,
  withdraw: PATHS.withdraw,
};

/**
 * The holder's balances on the platform, and at the exchange when the server has a fresh copy
 * (`exchangeFresh`); a move form re-reads it before refusing.
 */
export const assetQuery = queryOptions({ queryKey: queryKeys.asset, queryFn: () => apiGet<AssetData>(PATHS.getAsset) });

export const useAsset = () => useQuery(assetQuery);

const readExchangeBalances = (toast: boolean) => apiGet<ExchangeBalancesData>(PATHS.exchangeBalances, undefined, { toast });

/**
 * The holder's balances at the exchange, asked beside getAsset (which does not wait for them).
 * Its failure shows on the exchange line itself ("Not available right now"), not as a toast.
 */
const exchangeBalancesQuery = queryOptions({ queryKey: queryKeys.exchangeBalances, queryFn: () => readExchangeBalances(false) });

export const useExchangeBalances = () => useQuery(exchangeBalancesQuery);

/** The same, read again before a move form refuses: a failure then says why (a toast), as the form cannot go on. */
export const freshExchangeBalances = queryOptions({
  ...exchangeBalancesQuery,
  queryFn: () => readExchangeBalances(true),
  staleTime: 0,
});

export const useTransferPage = (enabled: boolean) =>
  useQuery({
    queryKey: queryKeys.transferPage,
    queryFn: () => apiGet<TransferPageData>(PATHS.transferPage, undefined, { toast: false }),
    enabled,
  });

export const useTransferRecords = (filter: RecordsFilter) =>
  useInfiniteQuery({
    queryKey: queryKeys.transferRecords(filter),
    queryFn: ({ pageParam, signal }) =>
      apiGet<TransferRecordsData>(
        PATHS.transferRecords,
        { ...filter, cursor: pageParam, limit: RECORDS_PAGE_SIZE },
        { signal },
      ),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });

/** One wallet move; the key is the user's confirmed action (the same key for its retries). */
export const postMove = (type: TransferType, body: MoveBody, idempotencyKey: string) =>
  apiPost<TransferRecord>(MOVE_PATHS[type], body, { idempotencyKey });
