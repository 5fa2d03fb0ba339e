import type { IncomingMessage, ServerResponse } from 'node:http';
import rateLimit, { type FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import { createRequire } from 'node:module';
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { PATHS } from '../../contract/paths.ts';
import { type Config, StartupError } from '../config.ts';
import helmet, { type HelmetOptions } from 'helmet';
import { Redis } from 'ioredis';
import { AppError } from './errors.ts';

// The plugin's own Redis store (not exported from its entry point): the same counters and Lua as without a fallback.
const RedisStore = createRequire(import.meta.url)('@fastify/rate-limit/store/RedisStore.js') as new (
  continueExceeding: boolean,
  exponentialBackoff: boolean,
  redis: Redis,
  key: string,
) => unknown;

const SIGN_IN_ROUTES = ['/api/authorPage', '/api/login', '/signin/:uid'];
/** Reads that walk a holder's whole history: a lower limit of their own, on top of the GET limit. */
const HEAVY_READS: string[] = [PATHS.statementCsv, PATHS.statementMonthly];

/**
 * The headers helmet sets for these options, worked out once: @fastify/helmet builds helmet's
 * middleware again for every request (6% of the server's time under load), for the same headers.
 */
function helmetHeaders(options: HelmetOptions): [string, string][] {
  const headers = new Map<string, string>();
  const response = {
    setHeader: (name: string, value: unknown) => headers.set(name, String(value)),
    removeHeader: (name: string) => headers.delete(name),
  };
  helmet(options)({} as IncomingMessage, response as unknown as ServerResponse, () => {});
  return [...headers];
}

/**
 * Where a form may send the browser: this origin, the exchange's, and the app's allowed return
 * addresses. The embedded exchange's sign-in form ends in a redirect back to the app, which
 * form-action governs too: opened at http://127.0.0.1:3000 while the exchange is on localhost,
 * the way back is another origin.
 */
function formActions(config: Config): string[] {
  const origins = [...(config.oidcIssuer ? [config.oidcIssuer] : []), ...config.redirectUris].map((url) => new URL(url).origin);
  return ["'self'", ...new Set(origins)];
}

/** Where the counters live in Redis: every key of this app's limits starts with it. */
export const RATE_LIMIT_PREFIX = 'aic-earn:rate:';

/**
 * Whether the Redis at `url` answers, asked once with a connection of its own that does not try
 * again: the start stops with one line naming REDIS_URL (the socket's reason, not ioredis's
 * "Connection is closed"), before anything else has tried Redis and logged about it.
 */
export async function checkRedisAtStart(url: string): Promise<void> {
  let cause: Error | undefined;
  const redis = new Redis(url, { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 0, retryStrategy: () => null, connectTimeout: 5_000 });
  redis.on('error', (error: Error) => {
    cause ??= error;
  });
  try {
    await redis.connect();
    await redis.ping();
  } catch (error) {
    throw new StartupError(redisProblem(url, cause ?? error));
  } finally {
    redis.disconnect();
  }
}

/** One line on a Redis that does not answer: where, why, and what to do. */
function redisProblem(url: string, error: unknown): string {
  const reason = error instanceof Error ? error.message : String(error);
  return `REDIS_URL: cannot reach ${new URL(url).host} (${reason}): start Redis there, correct REDIS_URL, or unset it (each process then counts its own rate limits)`;
}

/**
 * The Redis the processes share their counters in. Commands fail at once while it is
 * unreachable (no queue, one retry), and each process then counts on its own (`FallbackStore`)
 * rather than every request waiting on it; it must answer at start, or the server does not start.
 */
async function sharedCounters(app: FastifyInstance, url: string): Promise<Redis> {
  let cause: Error | undefined;
  const redis = new Redis(url, { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 1 });
  redis.on('error', (error: Error) => {
    cause ??= error;
    app.log.debug({ err: error }, 'rate limits: redis error');
  });
  try {
    await redis.connect();
  } catch (error) {
    redis.disconnect();
    throw new StartupError(redisProblem(url, cause ?? error));
  }
  app.addHook('onClose', async () => {
    // A Redis gone by the time the server stops is no reason for the stop to fail.
    await redis.quit().catch(() => redis.disconnect());
  });
  return redis;
}

/**
 * Security headers (a CSP the app passes; HSTS only when served over TLS), and rate limits per
 * minute: sign-in per address; every /api POST per session; every protected GET per session,
 * and the heavy reads (CSV export, monthly statement) per session with a lower limit. With
 * REDIS_URL the counters are shared by every process (N processes allow the limit, not N times
 * it); without it each process counts alone.
 */
export async function installSecurity(app: FastifyInstance, config: Config): Promise<void> {
  const tls = config.publicUrl.startsWith('https:');
  const headers = helmetHeaders({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // antd-mobile sets style attributes; the sign-in page has its own small stylesheet.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        fontSrc: ["'self'", 'data:'],
        formAction: formActions(config),
        frameAncestors: ["'none'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        upgradeInsecureRequests: tls ? [] : null,
      },
    },
    hsts: tls ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    crossOriginEmbedderPolicy: false,
  });
  // On the raw response, as helmet does: answers written outside Fastify (the embedded exchange) get them too.
  app.addHook('onRequest', (_request, reply, done) => {
    for (const [name, value] of headers) reply.raw.setHeader(name, value);
    done();
  });

  const redis = config.redisUrl ? await sharedCounters(app, config.redisUrl) : undefined;
  await app.register(rateLimit, {
    global: false,
    // Room for this many callers' counters per process before the least recent are forgotten.
    cache: 100_000,
    ...(redis ? { store: fallbackStore(redis, app.log) } : {}),
  });
  // Each limiter counts apart: its name leads its keys (in Redis, all limiters share one store).
  const limiter = (name: string, max: number, key: (request: FastifyRequest) => string = keyOf) =>
    app.createRateLimit({ max, timeWindow: 60_000, keyGenerator: (request) => `${name}:${key(request)}` });
  const limits = {
    // Per holder, whichever of their sessions calls: four sessions do not get four budgets.
    posts: limiter('posts', config.rateLimitPostsPerMinute, holderKeyOf),
    gets: limiter('gets', config.rateLimitGetsPerMinute),
    heavy: limiter('heavy', config.rateLimitHeavyReadsPerMinute),
  };
  app.decorate('authFailures', authFailureGate(limiter('auth failures', config.rateLimitAuthFailuresPerMinute, addressOf)));
  app.decorate('limitByAddress', (name: string, max: number) => {
    const limit = limiter(name, max, addressOf);
    return async (request: FastifyRequest) => {
      const result = await limit(request);
      return !result.isAllowed && result.isExceeded ? result.ttlInSeconds : null;
    };
  });

  // Each route gets its limits as an onRequest hook placed after the auth guard's (which names the
  // session), so a refusal costs no body parsing, and goes through the one error handler.
  app.addHook('onRoute', (route) => {
    const methods = [route.method].flat();
    const read = methods.includes('GET') || methods.includes('HEAD');
    const api = route.url.startsWith('/api/');
    const protectedApi = api && route.config?.public !== true;
    const applied: Limiter[] = [];
    // Each sign-in step counts on its own (one sign-in passes through several).
    if (SIGN_IN_ROUTES.includes(route.url)) applied.push(limiter(`signin ${route.url}`, config.rateLimitSignInPerMinute));
    else if (api && methods.includes('POST')) applied.push(limits.posts);
    else if (protectedApi && read) {
      if (HEAVY_READS.includes(route.url)) applied.push(limits.heavy);
      applied.push(limits.gets);
    }
    if (applied.length === 0) return;
    const existing = route.onRequest ? [route.onRequest].flat() : [];
    route.onRequest = [
      ...existing,
      async (request: FastifyRequest, reply: FastifyReply) => {
        for (const limit of applied) {
          const result = await limit(request);
          if (!result.isAllowed && result.isExceeded) {
            reply.header('retry-after', String(result.ttlInSeconds));
            throw new AppError('RATE_LIMITED');
          }
        }
      },
    ] as typeof route.onRequest;
  });
}

type Limiter = ReturnType<FastifyInstance['createRateLimit']>;

declare module 'fastify' {
  interface FastifyInstance {
    /** Failed sign-ins by bearer token, per address (the auth guard's): too many answer 429, with no session lookup. */
    authFailures: AuthFailureGate;
    /** A limit per address and minute for a path the app serves outside its routes (the embedded exchange's pages):
     * answers the seconds to wait when exceeded, else null. */
    limitByAddress: (name: string, max: number) => (request: FastifyRequest) => Promise<number | null>;
  }
}

type AuthFailureGate = {
  /** The seconds this address must wait, having failed too often this minute (this process's own knowledge: no round trip); else 0. */
  blocked(request: FastifyRequest): number;
  /** Counts one failure; the seconds to wait when the address is now over its limit, else 0. */
  note(request: FastifyRequest): Promise<number>;
};

/**
 * Failed bearer tokens per address: each failure is counted (shared through Redis), and an
 * address over the limit is then refused by this process without a sessions lookup until its
 * minute is out. Other processes learn it on their own next failure from that address.
 */
function authFailureGate(limit: Limiter): AuthFailureGate {
  const blockedUntil = new Map<string, number>();
  return {
    blocked(request) {
      const until = blockedUntil.get(request.ip);
      if (until === undefined) return 0;
      if (until > Date.now()) return Math.ceil((until - Date.now()) / 1000);
      blockedUntil.delete(request.ip);
      return 0;
    },
    async note(request) {
      const result = await limit(request);
      if (result.isAllowed || !result.isExceeded) return 0;
      // Bounded like the counters: an address flood cannot grow it without end.
      if (blockedUntil.size > 100_000) blockedUntil.clear();
      blockedUntil.set(request.ip, Date.now() + result.ttl);
      return Math.max(1, result.ttlInSeconds);
    },
  };
}

const addressOf = (request: FastifyRequest) => `ip:${request.ip}`;
/** A signed-in holder's calls count together across their sessions; anyone else's by address. */
const holderKeyOf = (request: FastifyRequest) => (request.userId === null || request.userId === undefined ? keyOf(request) : `user:${request.userId}`);

type Counted = { current: number; ttl: number };
type StoreCallback = (error: Error | null, result: Counted | null) => void;
type CounterStore = {
  incr(key: string, cb: StoreCallback, timeWindow: number, max: number): void;
  read(key: string, cb: StoreCallback, timeWindow: number, max: number): void;
  child(options: unknown): CounterStore;
};

/** Whether the shared counters are unreachable and each process counts alone (a gauge reads it). */
export const rateLimitState = { local: false };

/** A window counter in this process's memory, at most `size` keys (the least recent go first). */
function localCounters(size = 100_000): Pick<CounterStore, 'incr' | 'read'> {
  const windows = new Map<string, { current: number; start: number }>();
  const alive = (key: string, timeWindow: number) => {
    const window = windows.get(key);
    return window && window.start + timeWindow > Date.now() ? window : undefined;
  };
  return {
    incr(key, cb, timeWindow) {
      const window = alive(key, timeWindow) ?? { current: 0, start: Date.now() };
      window.current++;
      windows.delete(key);
      windows.set(key, window);
      if (windows.size > size) windows.delete(windows.keys().next().value as string);
      cb(null, { current: window.current, ttl: window.start + timeWindow - Date.now() });
    },
    read(key, cb, timeWindow) {
      const window = alive(key, timeWindow);
      cb(null, window ? { current: window.current, ttl: window.start + timeWindow - Date.now() } : { current: 0, ttl: 0 });
    },
  };
}

/**
 * The rate-limit store: Redis's counters, shared by every process; while Redis cannot be reached,
 * this process's own, so the limits hold (each process allowing the limit) instead of none. The
 * switch either way is logged once and shown by `aic_rate_limits_local`.
 */
function fallbackStore(redis: Redis, log: FastifyBaseLogger) {
  const shared = new RedisStore(false, false, redis, RATE_LIMIT_PREFIX) as unknown as CounterStore;
  const local = localCounters();
  const switchTo = (isLocal: boolean, error?: Error) => {
    if (rateLimitState.local === isLocal) return;
    rateLimitState.local = isLocal;
    if (isLocal) log.warn({ err: error }, 'rate limits: redis unreachable, each process counts its own limits meanwhile');
    else log.info('rate limits: redis reachable again, the limits are shared again');
  };
  const either =
    (method: 'incr' | 'read') =>
    (key: string, cb: StoreCallback, timeWindow: number, max: number) => {
      shared[method](key, (error, result) => {
        if (!error) {
          switchTo(false);
          cb(null, result);
          return;
        }
        switchTo(true, error);
        local[method](key, cb, timeWindow, max);
      }, timeWindow, max);
    };
  const store: CounterStore = { incr: either('incr'), read: either('read'), child: () => store };
  // The plugin constructs its store with `new`; every limiter of this app shares this one.
  return function storeOfThisApp() {
    return store;
  } as unknown as FastifyRateLimitStoreCtor;
}

/**
 * What a limit counts by: the caller's session (named by the auth guard from a strictly parsed
 * `Authorization`, so no spelling of the header opens a new bucket), else the address (sign-in
 * and other public calls).
 */
function keyOf(request: FastifyRequest): string {
  return request.sessionKey ? `session:${request.sessionKey}` : `ip:${request.ip}`;
}
