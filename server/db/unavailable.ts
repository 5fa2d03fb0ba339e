/** Socket failures on the way to the database server. */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
/** SQLSTATEs of a server that is going away or full: shutting down, starting up, no slots. */
const SERVER_CODES = new Set(['57P01', '57P02', '57P03', '53300']);
/** What node-postgres says, without a code, when a connection breaks or cannot be had in time. */
const DRIVER_MESSAGES = /Connection terminated|timeout exceeded when trying to connect|is not queryable|Cannot use a pool after calling end/;

/**
 * Whether an error means "the database cannot be reached right now" (not "the request is
 * wrong" and not a bug): the HTTP layer answers it 503 UNAVAILABLE, which a client may retry
 * with the same Idempotency-Key. Looks through `cause` and AggregateError's `errors`.
 */
export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (!(error instanceof Error) || depth > 4) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && (NETWORK_CODES.has(code) || SERVER_CODES.has(code) || code.startsWith('08'))) return true;
  if (DRIVER_MESSAGES.test(error.message)) return true;
  const nested = [error.cause, ...(error instanceof AggregateError ? error.errors : [])];
  return nested.some((inner) => isDatabaseUnavailable(inner, depth + 1));
}
