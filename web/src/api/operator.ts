import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import type { Static } from 'typebox';
import type {
  AuditData,
  ClockAdvanceBody,
  FundBody,
  LedgerCheckData,
  ParamBody,
  ParamListData,
  ParamsData,
  SettleBody,
  SettleData,
  UnbindBody,
  UnbindData,
} from '../../../contract/operator.ts';
import { PATHS } from '../../../contract/paths.ts';
import type { FundingRecord, FundingsData, ReconciliationData, ResolveBody, ReviewQueueData, TransferRecord } from '../../../contract/wallet.ts';
import { apiGet, apiPost } from './client.ts';
import { queryKeys } from './queries.ts';
import { useIdempotentAction } from './useIdempotentAction.ts';

/** Settling days can take minutes on a large book: wait longer than other calls. */
const SETTLE_TIMEOUT_MS = 10 * 60_000;

export type ReviewItem = ReviewQueueData['items'][number];
export type ParamVersion = Static<typeof ParamsData>['items'][number];
export type AuditEntry = AuditData['items'][number];

/** Every operator query starts with this key: invalidate it after any operator action. */
export const operatorKeys = {
  all: ['operator'] as const,
  reviews: ['operator', 'reviews'] as const,
  ledger: ['operator', 'ledger'] as const,
  params: ['operator', 'params'] as const,
  audit: ['operator', 'audit'] as const,
  reconciliation: ['operator', 'reconciliation'] as const,
  fundings: ['operator', 'fundings'] as const,
};

const REVIEWS_PAGE_SIZE = 20;

/** The review queue, oldest first, a page at a time (cursor `after`), optionally one holder's. */
export const useReviews = (userId?: string) =>
  useInfiniteQuery({
    queryKey: [...operatorKeys.reviews, { userId: userId ?? null }],
    queryFn: ({ pageParam, signal }) =>
      apiGet<ReviewQueueData>(PATHS.operatorReviews, { after: pageParam, limit: REVIEWS_PAGE_SIZE, userId }, { signal }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });

export const useLedgerCheck = () =>
  useQuery({ queryKey: operatorKeys.ledger, queryFn: () => apiGet<LedgerCheckData>(PATHS.operatorLedger) });

/** The last day compared with the exchange and the differences still open. */
export const useReconciliation = () =>
  useQuery({
    queryKey: operatorKeys.reconciliation,
    queryFn: () => apiGet<ReconciliationData>(PATHS.operatorReconciliation),
  });

/** Every stored parameter version, and each parameter's configured default (in force before its first). */
export const useParamVersions = () =>
  useQuery({ queryKey: operatorKeys.params, queryFn: () => apiGet<ParamListData>(PATHS.operatorParams) });

/** Fundings of the treasury or the pool: those under review first (oldest first), then the latest others. */
export const useFundings = () =>
  useQuery({ queryKey: operatorKeys.fundings, queryFn: () => apiGet<FundingsData>(PATHS.operatorFundings) });

export const useAuditLog = () =>
  useQuery({ queryKey: operatorKeys.audit, queryFn: () => apiGet<AuditData>(PATHS.operatorAudit) });

/** An action may change the queue, the books, the parameters, the log, and what holders see. */
const AFTER_ACTION = [operatorKeys.all, queryKeys.home, queryKeys.wallet] as const;

const reviewPath = (id: string, approve: boolean) =>
  (approve ? PATHS.operatorApprove : PATHS.operatorReject).replace(':id', encodeURIComponent(id));

/** Approve (funds go to the exchange) or reject (funds return, with a reason) one request. */
export const useReview = (id: string) =>
  useIdempotentAction<{ approve: boolean; reason?: string }, TransferRecord>({
    run: ({ approve, reason }, idempotencyKey) =>
      apiPost<TransferRecord>(reviewPath(id, approve), approve ? {} : { reason }, { idempotencyKey }),
    fingerprint: ({ approve, reason }) => `review|${id}|${approve}|${reason ?? ''}`,
    invalidate: AFTER_ACTION,
  });

/** Asking for a funding moves no money: it adds to the fundings list and the audit log. */
const AFTER_FUNDING_REQUEST = [operatorKeys.fundings, operatorKeys.audit] as const;

/** Ask to fund the treasury or the pool (under review until another operator approves it). */
export const useFund = () =>
  useIdempotentAction<FundBody, FundingRecord>({
    run: (body, idempotencyKey) => apiPost(PATHS.operatorFund, body, { idempotencyKey }),
    fingerprint: (body) => `fund|${body.account}|${body.asset}|${body.amount}`,
    invalidate: AFTER_FUNDING_REQUEST,
  });

/** An approved funding moves the platform's money into the account: the books and the pools on home change. */
const AFTER_FUNDING_REVIEW = [operatorKeys.fundings, operatorKeys.ledger, operatorKeys.audit, queryKeys.home] as const;

const fundingReviewPath = (id: string, approve: boolean) =>
  (approve ? PATHS.operatorFundingApprove : PATHS.operatorFundingReject).replace(':id', encodeURIComponent(id));

/** Approve (the exchange moves the money) or reject (with a reason) another operator's funding. */
export const useFundingReview = (id: string) =>
  useIdempotentAction<{ approve: boolean; reason?: string }, FundingRecord>({
    run: ({ approve, reason }, idempotencyKey) =>
      apiPost<FundingRecord>(fundingReviewPath(id, approve), approve ? {} : { reason }, { idempotencyKey }),
    fingerprint: ({ approve, reason }) => `funding|${id}|${approve}|${reason ?? ''}`,
    invalidate: AFTER_FUNDING_REVIEW,
  });

export const useScheduleParam = () =>
  useIdempotentAction<ParamBody, Static<typeof ParamsData>>({
    run: (body, idempotencyKey) => apiPost(PATHS.operatorParams, body, { idempotencyKey }),
    fingerprint: (body) => `param|${body.name}|${body.value}|${body.effectiveDay}`,
    invalidate: AFTER_ACTION,
  });

/** Settlement changes orders, rewards and balances everywhere. */
const AFTER_SETTLEMENT = [...AFTER_ACTION, queryKeys.earn, queryKeys.team, queryKeys.userInfo] as const;

export const useSettle = () =>
  useIdempotentAction<SettleBody, SettleData>({
    run: (body, idempotencyKey) => apiPost(PATHS.operatorSettle, body, { idempotencyKey, timeoutMs: SETTLE_TIMEOUT_MS }),
    fingerprint: (body) => `settle|${body.day ?? 'due'}`,
    invalidate: AFTER_SETTLEMENT,
  });

export const useAdvanceClock = () =>
  useIdempotentAction<ClockAdvanceBody, SettleData>({
    run: (body, idempotencyKey) => apiPost(PATHS.operatorClockAdvance, body, { idempotencyKey, timeoutMs: SETTLE_TIMEOUT_MS }),
    fingerprint: (body) => `advance|${body.days}`,
    invalidate: AFTER_SETTLEMENT,
  });

/** Unbind a holder who is on a referral cycle the tree check found (audited on the server). */
export const useUnbind = () =>
  useIdempotentAction<UnbindBody, UnbindData>({
    run: (body, idempotencyKey) => apiPost(PATHS.operatorUnbind, body, { idempotencyKey }),
    fingerprint: (body) => `unbind|${body.userId}`,
    invalidate: AFTER_ACTION,
  });

/** Resolving a difference changes the open list and writes the audit log; no balance moves. */
const AFTER_RESOLVE = [operatorKeys.reconciliation, operatorKeys.audit] as const;

/** Mark one reconciliation difference resolved, with the operator's note (3..500 characters). */
export const useResolveDifference = (id: string) =>
  useIdempotentAction<Static<typeof ResolveBody>, { id: string }>({
    run: (body, idempotencyKey) =>
      apiPost(PATHS.operatorResolveDifference.replace(':id', encodeURIComponent(id)), body, { idempotencyKey }),
    fingerprint: ({ note }) => `resolve|${id}|${note}`,
    invalidate: AFTER_RESOLVE,
  });
