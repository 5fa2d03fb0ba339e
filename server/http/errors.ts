import { type Server, STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyHttpOptions, FastifyRequest } from 'fastify';
import { ERRORS, type ErrorName } from '../../contract/errors.ts';
import type { Config } from '../config.ts';
import { isDatabaseUnavailable, isStatementCancelled, isValueRefusedByDatabase } from '../db/failures.ts';
import { InsufficientBalance } from '../ledger/ledger.ts';
import { messageLanguage, translate } from './messages.ts';

/** A failure the caller can act on: it carries a stable code from the catalogue. */
export class AppError extends Error {
  constructor(
    readonly errorName: ErrorName,
    readonly detail?: string,
  ) {
    super(detail ?? errorName);
  }
}

function toAppError(error: FastifyError | Error): AppError {
  if (error instanceof AppError) return error;
  if (error instanceof InsufficientBalance) return new AppError('BALANCE');
  if (isStatementCancelled(error)) return new AppError('SERVER_BUSY', error.message);
  if (isDatabaseUnavailable(error)) return new AppError('UNAVAILABLE', error.message);
  if (isValueRefusedByDatabase(error)) return new AppError('PARAM', error.message);
  const fastifyError = error as FastifyError;
  if (fastifyError.validation) return new AppError('PARAM', error.message);
  if (fastifyError.statusCode === 429) return new AppError('RATE_LIMITED');
  if (fastifyError.statusCode === 413) return new AppError('PAYLOAD_TOO_LARGE', error.message);
  if (fastifyError.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return new AppError('BAD_REQUEST', error.message);
  if (fastifyError.statusCode && fastifyError.statusCode >= 400 && fastifyError.statusCode < 500) {
    return new AppError('BAD_REQUEST', error.message);
  }
  return new AppError('INTERNAL');
}

function sendError(request: FastifyRequest, reply: FastifyReply, error: AppError) {
  const entry = ERRORS[error.errorName];
  const msg = translate(entry.message, messageLanguage(request.headers['x-lang']));
  // A static file that failed after its headers were chosen (it vanished as it was opened, say,
  // a build swapped under a running server) leaves its type and encoding on the reply: the
  // envelope is plain JSON.
  reply.removeHeader('content-encoding');
  // Busy: the same request may pass in a moment (the web app waits this long, then asks again).
  if (error.errorName === 'SERVER_BUSY' && !reply.hasHeader('retry-after')) reply.header('retry-after', String(BUSY_RETRY_AFTER_SECONDS));
  return reply.status(entry.http).type('application/json; charset=utf-8').send({ code: entry.code, msg, data: null });
}

/** What a SERVER_BUSY answer's Retry-After asks the client to wait, in seconds. */
const BUSY_RETRY_AFTER_SECONDS = 2;

/** The SERVER_BUSY envelope's text per language, made once. */
const busyBodies = new Map<string, string>();

/**
 * A shed request's answer, sent from the hook that sheds it: the SERVER_BUSY envelope and its
 * Retry-After, as the error handler words them, without an error raised and mapped. Under load
 * the server answers many more of these than anything else, and each one's cost is time taken
 * from the requests it admitted.
 */
export function sendBusy(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const language = messageLanguage(request.headers['x-lang']);
  let body = busyBodies.get(language);
  if (body === undefined) {
    const entry = ERRORS.SERVER_BUSY;
    body = JSON.stringify({ code: entry.code, msg: translate(entry.message, language), data: null });
    busyBodies.set(language, body);
  }
  return reply
    .status(ERRORS.SERVER_BUSY.http)
    .header('retry-after', String(BUSY_RETRY_AFTER_SECONDS))
    .type('application/json; charset=utf-8')
    .send(body);
}

/** The caller's X-Lang by connection, for failures Node reports on the socket (408, 505). */
const languageBySocket = new WeakMap<object, unknown>();

/** The HTTP versions this server speaks; any other request line gets 505. */
const HTTP_VERSIONS = new Set(['1.0', '1.1']);
/** Parser failures that mean "a version we do not speak": HTTP/1.2, HTTP/3.0, an h2c preface. */
const VERSION_PARSE_ERRORS = new Set(['HPE_INVALID_VERSION', 'HPE_PAUSED_H2_UPGRADE']);

function envelopeText(name: ErrorName, language: unknown): string {
  const entry = ERRORS[name];
  return JSON.stringify({ code: entry.code, msg: translate(entry.message, messageLanguage(language)), data: null });
}

/**
 * Failures Node's HTTP parser reports before Fastify sees a request: a request not received
 * in full within REQUEST_TIMEOUT_MS (408), a version we do not speak (505), anything else it
 * cannot read (400). Each gets the envelope, in the caller's language when its headers arrived.
 */
function clientErrorHandler(error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const name: ErrorName =
    error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 'TIMEOUT' : VERSION_PARSE_ERRORS.has(error.code ?? '') ? 'HTTP_VERSION' : 'BAD_REQUEST';
  // Never write into a response that has started (Node's own rule).
  const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (socket.writable && !inFlight?.headersSent) {
    const status = ERRORS[name].http;
    const body = envelopeText(name, languageBySocket.get(socket));
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}

/** Fastify options of the low-level failures: the request timeout (408) and the handler above. */
export function lowLevelOptions(config: Pick<Config, 'requestTimeoutMs'>): FastifyHttpOptions<Server> {
  const timeout = config.requestTimeoutMs;
  return {
    requestTimeout: timeout,
    // Node wants the headers timeout within the request timeout, and checks every interval.
    http: timeout > 0 ? { headersTimeout: timeout, connectionsCheckingInterval: Math.min(30_000, Math.max(25, Math.floor(timeout / 4))) } : null,
    clientErrorHandler,
  };
}

/** A failed call to the exchange's servers: 504 when it timed out, otherwise 502. */
export function upstreamError(error: unknown, what: string): AppError {
  let timedOut = false;
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    if (e.name === 'TimeoutError' || (e as { code?: unknown }).code === 'OAUTH_TIMEOUT') timedOut = true;
  }
  const detail = `${what}: ${error instanceof Error ? error.message : String(error)}`;
  return new AppError(timedOut ? 'GATEWAY_TIMEOUT' : 'BAD_GATEWAY', detail);
}

/**
 * 404 or 501: a method that no route implements (PUT, DELETE, PROPFIND...), or one this path
 * does not implement (PUT /api/home), is "service not implemented"; any other miss is 404.
 * The routes come from the table the auth guard keeps of every route as registered.
 */
function notImplemented(request: FastifyRequest): boolean {
  const routes = request.server.routeTable ?? [];
  const path = request.url.split('?')[0] ?? request.url;
  const pattern = (url: string) =>
    new RegExp(`^${url.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/:[^/]+/g, '[^/]+').replace(/\*/g, '.*')}$`);
  return !routes.some((route) => route.method === request.method) || routes.some((route) => pattern(route.url).test(path));
}

/** One handler maps every failure to a stable code; internals never reach the caller. */
export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const appError = toAppError(error);
    if (appError.errorName === 'INTERNAL') request.log.error({ err: error }, 'unhandled error');
    // A write refused for want of a synchronous standby (an AppError) is not logged each time:
    // /readyz and aic_db_synchronous_standbys say it once.
    else if (appError.errorName === 'UNAVAILABLE') {
      if (!(error instanceof AppError)) request.log.warn({ err: error }, 'database unavailable');
    }
    else if (appError.errorName === 'SERVER_BUSY') {
      // A shed request (an AppError) is counted in aic_requests_shed_total, not logged: a line
      // each would add to the load it is shed for. A statement cancelled by its timeout is.
      if (!(error instanceof AppError)) request.log.warn({ err: error }, 'statement cancelled');
    } else request.log.info({ code: ERRORS[appError.errorName].code, detail: appError.detail }, 'refused');
    return sendError(request, reply, appError);
  });
  app.setNotFoundHandler((request, reply) =>
    sendError(request, reply, new AppError(notImplemented(request) ? 'NOT_IMPLEMENTED' : 'NOT_FOUND')),
  );
  app.addHook('onRequest', (request, _reply, done) => {
    languageBySocket.set(request.raw.socket, request.headers['x-lang']);
    done(HTTP_VERSIONS.has(request.raw.httpVersion) ? undefined : new AppError('HTTP_VERSION'));
  });
}
