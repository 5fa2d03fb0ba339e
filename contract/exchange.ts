import { type Static, Type } from 'typebox';
import { AmountString } from './envelope.ts';
import { Asset } from './wallet.ts';

/**
 * What the platform needs of the exchange, and what the embedded exchange serves under
 * `$PUBLIC_URL/exchange` (docs/exchange-api.md). Plain JSON, no envelope: it is the exchange's
 * API, not the app's. Every write names the platform's own transfer id; the exchange applies a
 * transfer id once per client and answers a repeat with the same transfer.
 */
export const EXCHANGE_PATHS = {
  /** Holder's access token (scope `transfers`): debit the holder into the platform's omnibus account. */
  debits: '/v1/debits',
  /** Platform's client credentials: credit a holder from the omnibus account. */
  credits: '/v1/credits',
  /** Client credentials: move the platform's own money at the exchange into its omnibus account (a funding). */
  fundings: '/v1/fundings',
  /** Client credentials: one transfer by the platform's transfer id. */
  transfer: '/v1/transfers/:transferId',
  /** Client credentials: the platform's transfers applied in a time range, oldest first. */
  transfers: '/v1/transfers',
  /** Client credentials: the omnibus account's balance at the start and end of a time range. */
  omnibus: '/v1/omnibus',
  /** Holder's access token: the holder's balances at the exchange. */
  balances: '/v1/balances',
} as const;

/** The prefix the embedded exchange's API is mounted under, beside `/oidc`. */
export const EXCHANGE_PREFIX = '/exchange';

/** The OAuth scope a holder grants at sign-in so that the platform may debit them. */
export const TRANSFER_SCOPE = 'transfers';

/** The platform's own id of a transfer: the exchange's idempotency key. */
const TransferId = Type.String({ pattern: '^[A-Za-z0-9_-]{8,64}$' });

export const DebitBody = Type.Object({ transferId: TransferId, asset: Asset, amount: AmountString });
export type DebitBody = Static<typeof DebitBody>;

export const CreditBody = Type.Object({
  transferId: TransferId,
  /** The holder's subject at the exchange (the `sub` of their ID token). */
  subject: Type.String({ minLength: 1, maxLength: 200 }),
  asset: Asset,
  amount: AmountString,
});
export type CreditBody = Static<typeof CreditBody>;

/** Why the exchange refused a transfer for good: the same id is refused the same way again. */
export const RefusalReason = Type.Union([
  Type.Literal('insufficient_balance'),
  Type.Literal('unknown_account'),
  Type.Literal('consent_revoked'),
]);
export type RefusalReason = Static<typeof RefusalReason>;

/** A funding: from the platform's own account at the exchange into its omnibus account. */
export const FundingBody = Type.Object({ transferId: TransferId, asset: Asset, amount: AmountString });
export type FundingBody = Static<typeof FundingBody>;

/** The subject a funding names: the platform's own account at the exchange. */
export const PLATFORM_SUBJECT = '@platform';

export const ExchangeTransfer = Type.Object({
  transferId: TransferId,
  /**
   * debit: from the holder into the omnibus account; credit: from it to the holder; funding: from
   * the platform's own account into the omnibus account (subject `@platform`).
   */
  direction: Type.Union([Type.Literal('debit'), Type.Literal('credit'), Type.Literal('funding')]),
  subject: Type.String(),
  asset: Asset,
  amount: AmountString,
  status: Type.Union([Type.Literal('applied'), Type.Literal('refused')]),
  reason: Type.Union([RefusalReason, Type.Null()]),
  /** When the exchange applied or refused it (its own clock): the day it is reconciled on. */
  at: Type.String({ format: 'date-time' }),
});
export type ExchangeTransfer = Static<typeof ExchangeTransfer>;

export const TransferParams = Type.Object({ transferId: TransferId });

/** A time range: inclusive start, exclusive end. */
export const RangeQuery = Type.Object({
  from: Type.String({ format: 'date-time' }),
  to: Type.String({ format: 'date-time' }),
  /** The last transferId of the previous page. */
  after: Type.Optional(Type.String({ maxLength: 200 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 500 })),
});
export type RangeQuery = Static<typeof RangeQuery>;

export const TransferList = Type.Object({
  items: Type.Array(ExchangeTransfer),
  /** Pass as `after` for the next page; null on the last one. */
  next: Type.Union([Type.String(), Type.Null()]),
});
export type TransferList = Static<typeof TransferList>;

export const OmnibusQuery = Type.Object({
  from: Type.String({ format: 'date-time' }),
  to: Type.String({ format: 'date-time' }),
});
export const OmnibusStatement = Type.Object({
  balances: Type.Array(Type.Object({ asset: Asset, opening: AmountString, closing: AmountString })),
});
export type OmnibusStatement = Static<typeof OmnibusStatement>;

export const HolderBalances = Type.Object({
  balances: Type.Array(Type.Object({ asset: Asset, available: AmountString })),
});
export type HolderBalances = Static<typeof HolderBalances>;

/** Every failure answer of the exchange's API. */
export const ExchangeError = Type.Object({
  error: Type.Union([
    Type.Literal('unauthorized'),
    Type.Literal('consent_revoked'),
    Type.Literal('not_found'),
    Type.Literal('mismatch'),
    Type.Literal('bad_request'),
    Type.Literal('unavailable'),
  ]),
  message: Type.String(),
});
export type ExchangeError = Static<typeof ExchangeError>;

/** Where the platform takes the exchange's webhooks (outside /api: no session, no Idempotency-Key). */
export const WEBHOOK_PATH = '/webhooks/exchange';

/**
 * A status change pushed to the platform (`POST /webhooks/exchange`), signed with the shared
 * webhook secret: header `x-exchange-signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body">`.
 * Only a hint: the platform reads the transfer by its id before it believes anything.
 */
export const WebhookBody = Type.Object({ transferId: TransferId });
export type WebhookBody = Static<typeof WebhookBody>;
export const WEBHOOK_SIGNATURE_HEADER = 'x-exchange-signature';
/** A webhook whose timestamp is further than this from the platform's clock is refused. */
export const WEBHOOK_TOLERANCE_S = 300;
