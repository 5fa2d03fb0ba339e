/**
 * The error catalogue (spec section 8), one source for server and web.
 *
 * Every answer is the envelope {code, msg, data}; code 0 is success. Each failure has a
 * stable envelope code, the HTTP status it travels with, and the message key the web app
 * translates (the spec's a0..a21 where one fits, otherwise a key of our own under `err.`).
 */
export const OK = 0;

type Entry = { readonly http: number; readonly message: string };

export const ERRORS = {
  // Envelope codes the spec names, given their meaning here.
  PARAM: { code: 100, http: 400, message: 'a1' }, // request parameter error
  INVITE_CODE: { code: 101, http: 422, message: 'a2' }, // invitation code unknown or not allowed
  QUOTA: { code: 102, http: 422, message: 'a3' }, // purchase failed, insufficient quota
  BALANCE: { code: 103, http: 422, message: 'a4' }, // purchase failed, insufficient balance
  INVITE_BOUND: { code: 104, http: 409, message: 'a5' }, // invitation code bound already
  REDEEM_NONE: { code: 105, http: 422, message: 'a6' }, // nothing (or not enough) to redeem
  CLAIM_NONE: { code: 106, http: 422, message: 'a20' }, // nothing available to claim
  BIND_FIRST: { code: 110, http: 422, message: 'a21' }, // bind an inviter before buying
  DAILY_QUOTA: { code: 300, http: 422, message: 'err.dailyQuota' }, // exceeded the daily quota
  // HTTP-like codes of the spec.
  BAD_REQUEST: { code: 400, http: 400, message: 'a8' },
  UNAUTHORIZED: { code: 401, http: 401, message: 'a11' },
  FORBIDDEN: { code: 403, http: 403, message: 'a12' },
  NOT_FOUND: { code: 404, http: 404, message: 'a13' },
  TIMEOUT: { code: 408, http: 408, message: 'a14' },
  INTERNAL: { code: 500, http: 500, message: 'a10' },
  NOT_IMPLEMENTED: { code: 501, http: 501, message: 'a15' },
  BAD_GATEWAY: { code: 502, http: 502, message: 'a16' },
  UNAVAILABLE: { code: 503, http: 503, message: 'a17' },
  GATEWAY_TIMEOUT: { code: 504, http: 504, message: 'a18' },
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
} as const satisfies Record<string, { code: number } & Entry>;

export type ErrorName = keyof typeof ERRORS;
export type ErrorCode = (typeof ERRORS)[ErrorName]['code'];

const BY_CODE = new Map<number, { name: ErrorName; http: number; message: string }>(
  (Object.keys(ERRORS) as ErrorName[]).map((name) => [ERRORS[name].code, { name, ...ERRORS[name] }]),
);

/** The message key for an envelope code; unknown codes get the generic error. */
export function messageKeyForCode(code: number): string {
  return BY_CODE.get(code)?.message ?? 'err.generic';
}

/**
 * The message key for an HTTP-level failure that carried no envelope (spec section 8:
 * the same statuses map to the same translated messages).
 */
export function messageKeyForHttpStatus(status: number): string {
  if (status === 0) return 'a0';
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
