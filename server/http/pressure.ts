import underPressure from '@fastify/under-pressure';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteHandlerMethod } from 'fastify';
import { EXCHANGE_PREFIX } from '../../contract/exchange.ts';
import type { Config } from '../config.ts';
import type { PoolWatch } from '../db/pool.ts';
import type { StandbyWatch } from '../db/standby.ts';
import { withoutReadTimeout } from '../db/statementTimeout.ts';
import { AppError, sendBusy } from './errors.ts';

/** Why a request was shed: the label of aic_requests_shed_total. */
export type ShedReason = 'event_loop' | 'pool' | 'in_flight';

/** Never shed: the load balancer's and Prometheus's view of the process must stay true under load. */
const NEVER_SHED = new Set(['/healthz', '/readyz', '/metrics']);

/**
 * Neither shed nor counted: the paths above; the embedded exchange, which stands in for
 * another company's service (the wallet's calls to it come from requests admitted already, and
 * counting them took the room of the holders' own requests); and the web app's page and files,
 * which cost little: a shed API call is retried by the app with backoff, a shed page load leaves
 * the holder on the browser's error page.
 */
const exempt = (request: FastifyRequest) =>
  NEVER_SHED.has(request.routeOptions.url ?? '') ||
  request.url.startsWith(`${EXCHANGE_PREFIX}/`) ||
  (request.method === 'GET' && !request.url.startsWith('/api/'));

/** The refusal of a shed request; the error handler adds its Retry-After. */
function shed(reason: ShedReason, onShed: (reason: ShedReason) => void): AppError {
  onShed(reason);
  return new AppError('SERVER_BUSY', `shed: ${reason}`);
}

/** Answers a shed request from its hook at once (a hook that answers does not call `done`). */
function refuse(request: FastifyRequest, reply: FastifyReply, reason: ShedReason, onShed: (reason: ShedReason) => void): void {
  onShed(reason);
  sendBusy(request, reply);
}

/**
 * Load shedding: past a bound, a request is answered 503 SERVER_BUSY with a Retry-After at once,
 * before its session is looked up or its body read, so one slow route cannot queue every other
 * behind it. Two bounds, each off at 0:
 * - the event loop's delay (SHED_EVENT_LOOP_DELAY_MS), by @fastify/under-pressure: the mean delay
 *   of the last second's samples, past their 10 ms resolution;
 * - the wait for a database connection (SHED_POOL_WAIT_MS): how long the longest-waiting checkout
 *   has waited, by a hook of our own at each request, where under-pressure's `healthCheck` would
 *   poll on an interval (and answer from a stale reading in between). A wait, not a count: at full
 *   throughput many requests queue for a few milliseconds each, which is no reason to refuse one.
 * - requests admitted and not yet answered (SHED_IN_FLIGHT), `limitInFlight`.
 * Installed before the routes, so its hooks run before any route's own (the auth guard's).
 */
export async function installShedding(
  app: FastifyInstance,
  config: Pick<Config, 'shedEventLoopDelayMs' | 'shedPoolWaitMs' | 'shedInFlight'>,
  pool: PoolWatch | undefined,
  onShed: (reason: ShedReason) => void,
): Promise<void> {
  if (config.shedEventLoopDelayMs > 0) {
    await app.register(underPressure, {
      maxEventLoopDelay: config.shedEventLoopDelayMs,
      // Our envelope through the one error handler; a rejected promise is passed on as the error.
      pressureHandler: async (request) => {
        if (!exempt(request)) throw shed('event_loop', onShed);
      },
    });
  }
  const bound = config.shedPoolWaitMs;
  if (pool && bound > 0) {
    app.addHook('onRequest', (request, reply, done) => {
      if (pool.oldestWaitMs() > bound && !exempt(request)) return refuse(request, reply, 'pool', onShed);
      done();
    });
  }
  if (config.shedInFlight > 0) limitInFlight(app, config.shedInFlight, onShed);
}

/**
 * At most `limit` requests admitted at once (SHED_IN_FLIGHT): past it, a request is shed. The
 * queues a request can wait in besides the pool's (the buys' batches, the event loop's turn)
 * grow with the requests admitted, so bounding those bounds an admitted request's wait. A
 * request leaves when its socket's answer is done or the client is gone, whichever comes first.
 */
function limitInFlight(app: FastifyInstance, limit: number, onShed: (reason: ShedReason) => void): void {
  let inFlight = 0;
  app.addHook('onRequest', (request, reply, done) => {
    if (exempt(request)) return done();
    if (inFlight >= limit) return refuse(request, reply, 'in_flight', onShed);
    inFlight++;
    let left = false;
    const leave = () => {
      if (left) return;
      left = true;
      inFlight--;
    };
    reply.raw.once('close', leave);
    // A client that gave up before this hook ran closed the answer already: its 'close' has
    // fired and will not again, and counting it would keep it admitted for good.
    if (reply.raw.closed || request.raw.socket?.destroyed) leave();
    done();
  });
}

/**
 * The operators' calls run without READ_STATEMENT_TIMEOUT_MS: the ledger check reads every
 * posting, and an operator waits for it on purpose. Installed before the routes (onRoute).
 */
export function unlimitedOperatorReads(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api/operator/')) return;
    const handler = route.handler as (this: FastifyInstance, ...args: Parameters<RouteHandlerMethod>) => unknown;
    route.handler = function (this: FastifyInstance, request, reply) {
      return withoutReadTimeout(() => handler.call(this, request, reply));
    } as RouteHandlerMethod;
  });
}

/**
 * While the primary has no synchronous standby (db/standby.ts), a write would wait for one to
 * come back: a POST is refused at once instead, 503 UNAVAILABLE, and its retry with the same
 * Idempotency-Key runs once the standby streams again. Reads go on.
 */
export function refuseWritesWithoutStandby(app: FastifyInstance, standby: StandbyWatch): void {
  // A callback hook, not an async one: every request passes it, and a promise per request costs.
  app.addHook('onRequest', (request, _reply, done) => {
    if (request.method === 'POST' && standby.synchronousStandbys() === 0) {
      return done(new AppError('UNAVAILABLE', 'no synchronous standby: writes wait for one'));
    }
    done();
  });
}
