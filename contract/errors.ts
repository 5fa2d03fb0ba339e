/**
 * The error catalogue (spec section 8), one source for server and web.
 *
 * Every answer is the envelope {code, msg, data}; code 0 is success. Each failure has a
 * stable envelope code, the HTTP status it travels with, and the message key the web app
 * translates (the spec's a0..a21 where one fits, otherwise a key of our own under `err.`).
 */

type Entry = { readonly http: number; readonly message: string };

export const ERRORS = {
  // Envelope codes the spec names (100-106, 110, 300, 500), given their meaning here.
  /** 100: a parameter fails its schema (wrong type, unknown product, missing field). */
  PARAM: { code: 100, http: 400, message: 'a1' },
  /**
   * 101: what is left of the spec's "invitation code error" once 107-109 say the rest: a code
   * whose holder sits in one's own downline, so binding it would close a cycle.
   */
  INVITE_CODE: { code: 101, http: 422, message: 'a2' },
  /** 102: a subscription when nothing is left of today's quota (no purchase can pass today). */
  QUOTA: { code: 102, http: 422, message: 'a3' },
  /** 103: a subscription the platform wallet's AIC cannot pay (the ledger refuses the overdraft). */
  BALANCE: { code: 103, http: 422, message: 'a4' },
  /** 104: binding an inviter when one is bound already (once only). */
  INVITE_BOUND: { code: 104, http: 409, message: 'a5' },
  /** 105: redeeming an order that is not there, not one's own, or closed already. */
  REDEEM_NONE: { code: 105, http: 422, message: 'a6' },
  /** 106: claiming when nothing is claimable. */
  CLAIM_NONE: { code: 106, http: 422, message: 'a20' },
  /** 107: binding (or looking up) one's own invitation code. */
  INVITE_OWN: { code: 107, http: 422, message: 'err.inviteOwn' },
  /** 108: a well-formed invitation code that no holder has. */
  INVITE_UNKNOWN: { code: 108, http: 422, message: 'err.inviteUnknown' },
  /** 109: a code no holder could have: not the 8 characters codes are made of (contract/team.ts). */
  INVITE_MALFORMED: { code: 109, http: 400, message: 'err.inviteMalformed' },
  /** 110: subscribing before an inviter is bound. */
  BIND_FIRST: { code: 110, http: 422, message: 'a21' },
  /**
   * 300: a subscription larger than what is left of today's quota (a smaller one can pass).
   * The form refuses it before sending with err.dailyQuota (spec section 5's wording).
   */
  DAILY_QUOTA: { code: 300, http: 422, message: 'a9' },
  // HTTP-like codes of the spec: the envelope code is the HTTP status it travels with.
  /** 400: a request the server cannot read (malformed JSON, media type, oversized body, bad request line). */
  BAD_REQUEST: { code: 400, http: 400, message: 'a8' },
  /** 401: no session token, or one that is unknown, expired or revoked (the app logs out). */
  UNAUTHORIZED: { code: 401, http: 401, message: 'a11' },
  /** 403: a signed-in user calling what is not theirs (the operator calls). */
  FORBIDDEN: { code: 403, http: 403, message: 'a12' },
  /** 404: no route at this path, or no such record of the caller's. */
  NOT_FOUND: { code: 404, http: 404, message: 'a13' },
  /** 408: the request (headers and body) did not arrive in full within REQUEST_TIMEOUT_MS. */
  TIMEOUT: { code: 408, http: 408, message: 'a14' },
  /** 500: an unexpected failure inside the server (logged; no detail reaches the caller). */
  INTERNAL: { code: 500, http: 500, message: 'a10' },
  /** 501: a method the server implements for no route, or not for this path (PUT /api/home). */
  NOT_IMPLEMENTED: { code: 501, http: 501, message: 'a15' },
  /** 502: the exchange's sign-in server (OpenID provider) is unreachable or answers badly. */
  BAD_GATEWAY: { code: 502, http: 502, message: 'a16' },
  /** 503: the database is unreachable. */
  UNAVAILABLE: { code: 503, http: 503, message: 'a17' },
  /** 504: the exchange's sign-in server did not answer within UPSTREAM_TIMEOUT_MS. */
  GATEWAY_TIMEOUT: { code: 504, http: 504, message: 'a18' },
  /** 505: a request line with an HTTP version other than 1.0 and 1.1 (HTTP/2.0, HTTP/1.2, an h2c preface). */
  HTTP_VERSION: { code: 505, http: 505, message: 'a19' },
  // Codes the product adds where the spec is silent (see docs and PRODUCT.md).
  AMOUNT_REQUIRED: { code: 120, http: 400, message: 'err.amountRequired' },
  AMOUNT_INVALID: { code: 121, http: 400, message: 'err.amountInvalid' },
  AMOUNT_DECIMALS: { code: 122, http: 400, message: 'err.amountDecimals' },
  BELOW_MINIMUM: { code: 123, http: 422, message: 'err.belowMinimum' },
  NOT_MATURE: { code: 124, http: 422, message: 'err.notMature' },
  INVITE_EMPTY: { code: 125, http: 400, message: 'err.inviteEmpty' },
  WALLET_BALANCE: { code: 126, http: 422, message: 'err.insufficientBalance' }, // wallet moves
  ALREADY_REVIEWED: { code: 127, http: 409, message: 'err.alreadyReviewed' },
  IDEMPOTENCY_MISMATCH: { code: 130, http: 422, message: 'err.idempotencyMismatch' },
  IDEMPOTENCY_BUSY: { code: 131, http: 409, message: 'err.idempotencyBusy' },
  IDEMPOTENCY_REQUIRED: { code: 132, http: 400, message: 'err.idempotencyRequired' },
  LOGIN_FAILED: { code: 140, http: 401, message: 'err.loginFailed' },
  REDIRECT_NOT_ALLOWED: { code: 141, http: 400, message: 'err.redirectNotAllowed' },
  RATE_LIMITED: { code: 429, http: 429, message: 'err.rateLimited' },
  // A parameter change too soon for holders to be told (PARAM_NOTICE_DAYS), or for a settled day.
  NOTICE_TOO_SHORT: { code: 150, http: 422, message: 'err.noticeTooShort' },
  DAY_SETTLED: { code: 151, http: 422, message: 'err.daySettled' },
  /** 155: settling a UTC day that has not ended by the app's clock (it would pay for time not yet passed). */
  DAY_NOT_ENDED: { code: 155, http: 422, message: 'err.dayNotEnded' },
  /** 128: an operator reviewing their own withdrawal or transfer (maker-checker: another must). */
  OWN_REQUEST: { code: 128, http: 403, message: 'err.ownRequest' },
  /** 129: a withdrawal or transfer out below WITHDRAW_MINIMUM. */
  BELOW_TRANSFER_MINIMUM: { code: 129, http: 422, message: 'err.belowTransferMinimum' },
  /** 152: an operator unbinding a holder who is not on a referral cycle (bindings are otherwise final). */
  NOT_IN_CYCLE: { code: 152, http: 422, message: 'err.notInCycle' },
  /** 153: auto-renew asked of a product that does not renew (only the 30-day product does). */
  AUTO_RENEW_PRODUCT: { code: 153, http: 422, message: 'err.autoRenewProduct' },
  /** 154: auto-renew switched on an order that is no longer running (matured, redeemed, renewed). */
  AUTO_RENEW_CLOSED: { code: 154, http: 422, message: 'err.autoRenewClosed' },
  /** 156: a partial redemption of more than the current order holds. */
  REDEEM_MORE: { code: 156, http: 422, message: 'err.redeemMore' },
  /** 157: a partial redemption under the product's minimum. */
  REDEEM_BELOW_MINIMUM: { code: 157, http: 422, message: 'err.redeemBelowMinimum' },
  /** 158: a partial redemption that would leave more than zero but less than the minimum in the order. */
  REDEEM_REMAINDER: { code: 158, http: 422, message: 'err.redeemRemainder' },
  /** 160: a recharge or transfer in the exchange refused: the holder's exchange balance is short (nothing credited). */
  EXCHANGE_BALANCE: { code: 160, http: 422, message: 'err.exchangeBalance' },
  /** 161: a recharge or transfer in without the holder's consent at the exchange (withdrawn, or never given): sign in again. */
  EXCHANGE_CONSENT: { code: 161, http: 422, message: 'err.exchangeConsent' },
  /** 162: a reconciliation difference that is not there, or resolved already. */
  DIFFERENCE_NONE: { code: 162, http: 404, message: 'err.differenceNone' },
  /** 163: a funding over what one operator may ask for in a UTC day (FUNDING_DAILY_LIMIT). */
  FUNDING_LIMIT: { code: 163, http: 422, message: 'err.fundingLimit' },
  /**
   * 170: the server is too busy to take this request now, with a Retry-After: its event loop
   * lags or too many requests wait for a database connection (it sheds them at once, doing
   * nothing), or a read outside a transaction ran past READ_STATEMENT_TIMEOUT_MS.
   */
  SERVER_BUSY: { code: 170, http: 503, message: 'err.serverBusy' },
  /** 413: a request body over the limit (64 KB). */
  PAYLOAD_TOO_LARGE: { code: 413, http: 413, message: 'err.payloadTooLarge' },
} as const satisfies Record<string, { code: number } & Entry>;

export type ErrorName = keyof typeof ERRORS;

const BY_CODE = new Map<number, { name: ErrorName; http: number; message: string }>(
  (Object.keys(ERRORS) as ErrorName[]).map((name) => [ERRORS[name].code, { name, ...ERRORS[name] }]),
);

/**
 * Failures with no answer from the server at all, decided by the web client (spec section 8):
 * no connection (a0), or no answer within the client's timeout (a7). Both carry code 0.
 */
export const NO_ANSWER = { code: 0, offline: 'a0', timeout: 'a7' } as const;

/** The message key for an envelope code; unknown codes get the generic error. */
export function messageKeyForCode(code: number): string {
  return BY_CODE.get(code)?.message ?? 'err.generic';
}

/**
 * The message key for an HTTP-level failure that carried no envelope (spec section 8:
 * the same statuses map to the same translated messages).
 */
export function messageKeyForHttpStatus(status: number): string {
  if (status === NO_ANSWER.code) return NO_ANSWER.offline;
  const direct = BY_CODE.get(status);
  if (direct && status >= 400) return direct.message;
  return 'err.generic';
}

export function httpStatusForCode(code: number): number {
  return BY_CODE.get(code)?.http ?? 500;
}

/** Every message key the catalogue uses: each must exist in every locale. */
export const ALL_MESSAGE_KEYS: readonly string[] = [
  ...new Set([
    ...Array.from({ length: 22 }, (_, i) => `a${i}`),
    ...Object.values(ERRORS).map((e) => e.message),
    'err.generic',
  ]),
];
