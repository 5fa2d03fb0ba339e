import { type Static, Type } from 'typebox';
import { AmountString } from './envelope.ts';

export const ASSETS = ['AIC', 'USDT'] as const;
export const Asset = Type.Union([Type.Literal('AIC'), Type.Literal('USDT')]);
export type Asset = Static<typeof Asset>;

/** Wallet movements: in from the exchange (once it confirms the debit) or out to it (reviewed first). */
export const TransferType = Type.Union([
  Type.Literal('recharge'),
  Type.Literal('transfer_in'),
  Type.Literal('transfer_out'),
  Type.Literal('withdraw'),
]);
export type TransferType = Static<typeof TransferType>;
export const TRANSFER_TYPES: readonly TransferType[] = ['recharge', 'transfer_in', 'transfer_out', 'withdraw'];
export const INBOUND: readonly TransferType[] = ['recharge', 'transfer_in'];

/**
 * requested: sent to the exchange, not yet confirmed; under_review: waiting for an operator;
 * sending: approved, on its way to the exchange; unknown: the exchange's answer did not arrive
 * and the platform is finding out; success and failure are final (server/wallet/transfers.ts).
 */
export const TransferStatus = Type.Union([
  Type.Literal('requested'),
  Type.Literal('under_review'),
  Type.Literal('sending'),
  Type.Literal('unknown'),
  Type.Literal('success'),
  Type.Literal('failure'),
]);
export type TransferStatus = Static<typeof TransferStatus>;

/** The holder's available balance at the exchange, as the exchange said; null when it could not say. */
const ExchangeFigure = Type.Union([AmountString, Type.Null()]);

/** GET /api/getAsset */
const AssetBalance = Type.Object({
  asset: Asset,
  available: AmountString,
  /** Held for withdrawals and transfers out under review. */
  pending: AmountString,
  /**
   * The user's balance on the exchange side, from the server's copy of the exchange's answer when
   * `exchangeFresh`; null when the exchange could not say, or when there is no fresh copy.
   */
  exchange: ExchangeFigure,
});
/** What the holder owns of one asset (contract/owned.ts: the accounts their proof leaf sums). */
const OwnedAsset = Type.Object({
  asset: Asset,
  total: AmountString,
  /** `total` in USD: AIC at the price in force, USDT one for one; truncated at 1e-8. */
  usd: AmountString,
});

/**
 * Total assets, as the Wallet screen shows them: per asset what the holder owns (`owned`, the
 * same sum as the statement's closing balance and the holder's proof leaf), never one asset
 * counted in another; the AIC total's four lines; and the whole in USD at the price in force. The
 * figures of earn products are those of the dual-currency view (GET /api/user/positions), read by
 * the same code.
 */
export const AssetData = Type.Object({
  /** The platform wallet's AIC: available and under review. */
  walletAic: AmountString,
  /** AIC held in earn orders (current, 30-day, 360-day), matured ones not yet redeemed among them: principal and the income credited to them. */
  earnAic: AmountString,
  /** What a tap on Claim moves to the wallet now: 360-day rewards and unlocked network income. */
  claimableAic: AmountString,
  /** Network income not yet unlocked. */
  lockedAic: AmountString,
  /** What the holder owns in AIC: walletAic + earnAic + claimableAic + lockedAic, the AIC of `owned`. */
  totalAic: AmountString,
  /** Per asset, in ASSETS order. */
  owned: Type.Array(OwnedAsset),
  /** The sum of `owned`'s USD values. */
  totalUsd: AmountString,
  price: Type.String({ description: 'AIC price in USD' }),
  balances: Type.Array(AssetBalance),
  /**
   * Whether each balance's `exchange` is the exchange's answer of the last few seconds
   * (EXCHANGE_BALANCE_TTL_MS). False: none that recent, each `exchange` is null, and the exchange
   * is asked apart from this answer: GET /api/wallet/exchange-balances gives its figures.
   */
  exchangeFresh: Type.Boolean(),
});
export type AssetData = Static<typeof AssetData>;

/**
 * GET /api/wallet/exchange-balances: the holder's balances at the exchange, the Wallet screen's
 * exchange line. From the server's copy while it is a few seconds old at most, else asked of the
 * exchange (once for every request of the holder's arriving meanwhile).
 */
export const ExchangeBalancesData = Type.Object({
  balances: Type.Array(Type.Object({ asset: Asset, exchange: ExchangeFigure })),
});
export type ExchangeBalancesData = Static<typeof ExchangeBalancesData>;

/** GET /api/transferPage: what the transfer forms need. */
export const TransferPageData = Type.Object({
  assets: Type.Array(
    Type.Object({
      asset: Asset,
      available: AmountString,
      /** As GET /api/wallet/exchange-balances gives it (the same copy): the POST checks the exchange itself. */
      exchange: ExchangeFigure,
      /** The least amount of a recharge or transfer in. */
      minimum: AmountString,
      fee: AmountString,
      /** The least amount of a withdrawal or transfer out (WITHDRAW_MINIMUM); less is refused with 129. */
      withdrawMinimum: AmountString,
    }),
  ),
  types: Type.Array(TransferType),
  /**
   * How long withdrawals and transfers out waited for an operator: the median of the requests
   * decided in the last `days` days, whole minutes rounded up and at least one (null when none
   * was), and how many.
   */
  review: Type.Object({
    medianMinutes: Type.Union([Type.Integer({ minimum: 1 }), Type.Null()]),
    reviewed: Type.Integer({ minimum: 0 }),
    days: Type.Integer({ minimum: 1 }),
  }),
});
export type TransferPageData = Static<typeof TransferPageData>;

/** The body of POST /api/recharge, /api/transfer-in, /api/transfer-out and /api/withdraw. */
export const MoveBody = Type.Object({
  asset: Asset,
  /** A decimal string; validated by the server's amount rules (codes 120-122, 103). */
  amount: Type.String({ maxLength: 64 }),
});
export type MoveBody = Static<typeof MoveBody>;

export const TransferRecord = Type.Object({
  id: Type.String(),
  type: TransferType,
  asset: Asset,
  amount: AmountString,
  status: TransferStatus,
  reason: Type.Union([Type.String(), Type.Null()]),
  createdAt: Type.String({ format: 'date-time' }),
  reviewedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});
export type TransferRecord = Static<typeof TransferRecord>;

/** GET /api/transfer-records: newest first, by cursor. */
export const TransferRecordsQuery = Type.Object({
  type: Type.Optional(TransferType),
  /** Inclusive start and exclusive end, ISO dates or date-times (UTC). */
  from: Type.Optional(Type.String({ format: 'date-time', maxLength: 40 })),
  to: Type.Optional(Type.String({ format: 'date-time', maxLength: 40 })),
  cursor: Type.Optional(Type.String({ pattern: '^\\d{1,19}$' })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
});
export type TransferRecordsQuery = Static<typeof TransferRecordsQuery>;

const Page = <T extends ReturnType<typeof Type.Object>>(item: T) =>
  Type.Object({ items: Type.Array(item), nextCursor: Type.Union([Type.String(), Type.Null()]) });

export const TransferRecordsData = Page(TransferRecord);
export type TransferRecordsData = Static<typeof TransferRecordsData>;

/** Operator review of a withdrawal or transfer out. */
export const ReviewParams = Type.Object({ id: Type.String({ pattern: '^\\d{1,19}$' }) });
export const ReviewBody = Type.Object({ reason: Type.Optional(Type.String({ maxLength: 200 })) });
/** GET /api/operator/reviews: oldest first, by cursor (`after` = the last id seen), optionally one holder's. */
export const ReviewQueueQuery = Type.Object({
  after: Type.Optional(Type.String({ pattern: '^\\d{1,19}$', description: 'The last id of the previous page' })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 100 })),
  userId: Type.Optional(Type.String({ pattern: '^\\d{1,19}$', description: 'Only this holder’s requests' })),
});
export type ReviewQueueQuery = Static<typeof ReviewQueueQuery>;
const ReviewQueueItem = Type.Intersect([TransferRecord, Type.Object({ userId: Type.String() })]);
export const ReviewQueueData = Type.Object({
  items: Type.Array(ReviewQueueItem),
  /** Pass as `after` for the next page; null on the last one. */
  nextCursor: Type.Union([Type.String(), Type.Null()]),
});
export type ReviewQueueData = Static<typeof ReviewQueueData>;

/** A difference between the platform's transfers and the exchange's (server/wallet/reconcile.ts). */
const DifferenceKind = Type.Union([
  Type.Literal('missing_at_exchange'),
  Type.Literal('missing_on_platform'),
  Type.Literal('amount'),
  Type.Literal('status'),
  Type.Literal('omnibus'),
]);
export const ReconciliationDifference = Type.Object({
  id: Type.String(),
  day: Type.String({ format: 'date' }),
  kind: DifferenceKind,
  /** The platform's transfer id at the exchange; null for the omnibus balance. */
  transferId: Type.Union([Type.String(), Type.Null()]),
  asset: Type.Union([Type.String(), Type.Null()]),
  /** What the platform recorded, and what the exchange says (null where one side has nothing). */
  platform: Type.Unknown(),
  exchange: Type.Unknown(),
  foundAt: Type.String({ format: 'date-time' }),
});
export type ReconciliationDifference = Static<typeof ReconciliationDifference>;
/** GET /api/operator/reconciliation */
export const ReconciliationData = Type.Object({
  /** The last day compared with the exchange; null before the first. */
  lastDay: Type.Union([Type.String(), Type.Null()]),
  open: Type.Array(ReconciliationDifference),
});
export type ReconciliationData = Static<typeof ReconciliationData>;
export const ResolveParams = Type.Object({ id: Type.String({ pattern: '^\\d{1,18}$' }) });
/** What the operator found and did about it: kept in the audit log. */
export const ResolveBody = Type.Object({ note: Type.String({ minLength: 3, maxLength: 500 }) });

/** A funding of the treasury or the pool: asked by one operator, approved by another, moved at the exchange. */
export const FundingRecord = Type.Object({
  id: Type.String(),
  account: Type.Union([Type.Literal('treasury'), Type.Literal('supercomputing_pool')]),
  asset: Asset,
  amount: AmountString,
  status: TransferStatus,
  reason: Type.Union([Type.String(), Type.Null()]),
  requestedBy: Type.String(),
  reviewedBy: Type.Union([Type.String(), Type.Null()]),
  createdAt: Type.String({ format: 'date-time' }),
  reviewedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});
export type FundingRecord = Static<typeof FundingRecord>;
/** GET /api/operator/fundings: those waiting for a second operator, then the latest others. */
export const FundingsData = Type.Object({ items: Type.Array(FundingRecord) });
export type FundingsData = Static<typeof FundingsData>;
