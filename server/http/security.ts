import type { IncomingMessage, ServerResponse } from 'node:http';
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { PATHS } from '../../contract/paths.ts';
import type { Config } from '../config.ts';
import helmet, { type HelmetOptions } from 'helmet';
import { Redis } from 'ioredis';
import { AppError } from './errors.ts';

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
 * The Redis the processes share their counters in. Commands fail at once while it is
 * unreachable (no queue, one retry) and the limits are then skipped, logged, rather than every
 * request waiting on it; it must answer at start, or the server does not start.
 */
async function sharedCounters(app: FastifyInstance, url: string): Promise<Redis> {
  const redis = new Redis(url, { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 1 });
  redis.on('error', (error: Error) => app.log.warn({ err: error }, 'rate limits: redis unreachable, limits skipped meanwhile'));
  try {
    await redis.connect();
  } catch (error) {
    redis.disconnect();
    throw new Error(`REDIS_URL: cannot reach ${new URL(url).host} (${error instanceof Error ? error.message : String(error)})`);
  }
  app.addHook('onClose', async () => {
    await redis.quit();
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
    ...(redis ? { redis, nameSpace: RATE_LIMIT_PREFIX, skipOnError: true } : {}),
    // Room for this many callers' counters per process before the least recent are forgotten.
    cache: 100_000,
  });
  // Each limiter counts apart: its name leads its keys (in Redis, all limiters share one store).
  const limiter = (name: string, max: number) =>
    app.createRateLimit({ max, timeWindow: 60_000, keyGenerator: (request) => `${name}:${keyOf(request)}` });
  const limits = {
    posts: limiter('posts', config.rateLimitPostsPerMinute),
    gets: limiter('gets', config.rateLimitGetsPerMinute),
    heavy: limiter('heavy', config.rateLimitHeavyReadsPerMinute),
  };

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

/**
 * What a limit counts by: the caller's session (named by the auth guard from a strictly parsed
 * `Authorization`, so no spelling of the header opens a new bucket), else the address (sign-in
 * and other public calls).
 */
function keyOf(request: FastifyRequest): string {
  return request.sessionKey ? `session:${request.sessionKey}` : `ip:${request.ip}`;
}
