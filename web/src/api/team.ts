import { queryOptions, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import type { Static } from 'typebox';
import type { ClaimData } from '../../../contract/earn.ts';
import { PATHS } from '../../../contract/paths.ts';
import type { InviterData, InviteRecordsData, PlatformInviteCodeData, ZeroLogData, ZeroProfitData } from '../../../contract/team.ts';
import { apiGet, apiPost } from './client.ts';
import { MONEY_QUERIES, queryKeys } from './queries.ts';
import { useIdempotentAction } from './useIdempotentAction.ts';

const TEAM_PAGE_SIZE = 20;

/** Network income: claimable, locked, the next release and the unlock tier. */
export const zeroProfitQuery = queryOptions({ queryKey: queryKeys.zeroProfit, queryFn: () => apiGet<ZeroProfitData>(PATHS.zeroProfit) });

export const useZeroProfit = () => useQuery(zeroProfitQuery);

/** The network income's daily lock-ups, newest first, page by page. */
export const useZeroLog = () =>
  useInfiniteQuery({
    queryKey: queryKeys.zeroLog,
    queryFn: ({ pageParam, signal }) =>
      apiGet<ZeroLogData>(PATHS.zeroLog, { cursor: pageParam, limit: TEAM_PAGE_SIZE }, { signal }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });

/** Direct invitees and their branches, newest first, page by page; optionally those who bound in [from, to). */
export const useInviteRecords = (range: { from?: string; to?: string } = {}) =>
  useInfiniteQuery({
    queryKey: [...queryKeys.inviteRecords, range],
    queryFn: ({ pageParam, signal }) =>
      apiGet<InviteRecordsData>(PATHS.inviteRecords, { ...range, cursor: pageParam, limit: TEAM_PAGE_SIZE }, { signal }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });

/** Claims the unlocked network income into the wallet (a20 when there is none). */
export const useReceiveProfit = () =>
  useIdempotentAction<Record<string, never>, Static<typeof ClaimData>>({
    run: (body, idempotencyKey) => apiPost(PATHS.receiveProfit, body, { idempotencyKey }),
    fingerprint: () => 'receive-profit',
    invalidate: MONEY_QUERIES,
  });

/**
 * Whose invitation code this is (display name, masked UID), asked before the bind's confirmation.
 * No toast: the bind step shows the refusal (own, unknown, malformed) under the field.
 */
export const lookUpInviter = (code: string) => apiGet<InviterData>(PATHS.inviter, { code }, { toast: false });

/** The platform's code to offer a holder who came without an invitation link (null: none to offer). */
export const usePlatformInviteCode = () =>
  useQuery({
    queryKey: [...queryKeys.team, 'platformInviteCode'],
    // Only an offer: if it cannot be read, the step works without it, so no toast.
    queryFn: () => apiGet<PlatformInviteCodeData>(PATHS.platformInviteCode, undefined, { toast: false }),
  });
