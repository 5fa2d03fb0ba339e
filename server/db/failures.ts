/** Socket failures on the way to the database server. */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
/**
 * SQLSTATEs of a server that is going away or full (shutting down, starting up, no slots), or
 * that is a standby (25006: a write reached a server in recovery, as one can in the moment a
 * cluster's router has not yet seen a failover).
 */
const SERVER_CODES = new Set(['57P01', '57P02', '57P03', '53300', '25006']);
/** What node-postgres says, without a code, when a connection breaks or cannot be had in time. */
const DRIVER_MESSAGES = /Connection terminated|timeout exceeded when trying to connect|is not queryable|Cannot use a pool after calling end/;

/**
 * Whether an error means "the database cannot be reached right now" (not "the request is
 * wrong" and not a bug): the HTTP layer answers it 503 UNAVAILABLE, which a client may retry
 * with the same Idempotency-Key. Looks through `cause` and AggregateError's `errors`.
 */
export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (!(error instanceof Error) || depth > 4) return false;
  const code = sqlStateOf(error);
  if (code !== undefined && (NETWORK_CODES.has(code) || SERVER_CODES.has(code) || code.startsWith('08'))) return true;
  if (DRIVER_MESSAGES.test(error.message)) return true;
  const nested = [error.cause, ...(error instanceof AggregateError ? error.errors : [])];
  return nested.some((inner) => isDatabaseUnavailable(inner, depth + 1));
}

/**
 * Whether a statement was cancelled (57014 query_canceled): by READ_STATEMENT_TIMEOUT_MS
 * (db/statementTimeout.ts), or by an operator's pg_cancel_backend. Nothing it did is kept, and
 * the same request may succeed a moment later: the HTTP layer answers 503 SERVER_BUSY.
 */
export function isStatementCancelled(error: unknown): boolean {
  return sqlStateOf(error) === '57014';
}

/**
 * SQLSTATEs of a value the database cannot take: a number beyond bigint (22003), an impossible
 * date (22007, 22008), a NUL character (22021), text that is no number (22P02), text too long
 * (22001). Raised on request input, such as an id of twenty digits or a day of 2026-99-99, they
 * mean a parameter error (400), not a failure of the server.
 */
const VALUE_CODES = new Set(['22001', '22003', '22007', '22008', '22021', '22P02']);

export function isValueRefusedByDatabase(error: unknown): boolean {
  return error instanceof Error && VALUE_CODES.has(sqlStateOf(error) ?? '');
}

/**
 * The SQLSTATE of a database error (the `code` node-postgres and PGlite give it), if it has one;
 * a socket's failure carries its errno name there instead (ECONNRESET).
 */
export function sqlStateOf(error: unknown): string | undefined {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'string' ? code : undefined;
}
