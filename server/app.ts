import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyInstance } from 'fastify';
import { installAuthGuard } from './auth/guard.ts';
import { injectFetch } from './auth/injectFetch.ts';
import { SERVER_TIME_HEADER } from '../contract/paths.ts';
import { createOAuthClient } from './auth/oauth.ts';
import { mountEmbeddedProvider } from './auth/provider/embedded.ts';
import { authRoutes } from './auth/routes.ts';
import { sessionRoutes } from './auth/sessionRoutes.ts';
import { forgetSessions } from './auth/sessions.ts';
import { redisBroadcast, revocations } from './platform/broadcast.ts';
import type { AppContext } from './context.ts';
import { EXCHANGE_PREFIX } from '../contract/exchange.ts';
import { activityRoutes } from './activity/routes.ts';
import { dashboardRoutes } from './dashboard/routes.ts';
import { earnRoutes } from './earn/routes.ts';
import { positionsRoutes } from './earn/positions.ts';
import { notifyRoutes } from './notify/routes.ts';
import { operatorRoutes } from './operator/routes.ts';
import { teamRoutes } from './team/routes.ts';
import { seedTeamRules } from './team/rules.ts';
import { proofRoutes } from './proof/routes.ts';
import { appShellRoutes } from './http/appShell.ts';
import { installErrorHandling, lowLevelOptions } from './http/errors.ts';
import { installShedding, refuseWritesWithoutStandby, unlimitedOperatorReads } from './http/pressure.ts';
import { poolOf } from './db/pool.ts';
import { type StandbyWatch, watchStandby } from './db/standby.ts';
import { describeOperations } from './http/openapi.ts';
import { refuseNonFiniteNumbers } from './http/finite.ts';
import { requireIdempotencyKeys } from './http/idempotency.ts';
import { installSecurity } from './http/security.ts';
import { partValidators } from './http/validation.ts';
import { createMetrics, installObservability, type Metrics } from './operator/observability.ts';
import { type EmbeddedExchange, mountEmbeddedExchange } from './exchange/embedded.ts';
import { type Exchange, exchangeOf } from './wallet/exchange.ts';
import { httpExchangeClient } from './wallet/exchangeClient.ts';
import { webhookRoutes } from './wallet/webhookRoutes.ts';
import { reconcileRoutes } from './wallet/reconcileRoutes.ts';
import { fundingRoutes } from './wallet/fundingRoutes.ts';
import { statementRoutes } from './statement/routes.ts';
import { reviewRoutes } from './wallet/reviewRoutes.ts';
import { walletRoutes } from './wallet/routes.ts';

export type AppOptions = { logger?: boolean | object };

declare module 'fastify' {
  interface FastifyInstance {
    metrics: Metrics;
    /** The primary's synchronous standby as last read; `main.ts` starts its readings. */
    standby: StandbyWatch;
    /** The wallet's side of the exchange (its API client and the holders' consent). */
    exchange: Exchange;
    /** The embedded exchange when this process serves one (no OIDC_ISSUER): its faults, for tests. */
    embeddedExchange: EmbeddedExchange | undefined;
  }
}

/**
 * A session revoked on any process is forgotten by every process's copy at once, through Redis
 * when it is configured (else within SESSION_CACHE_MS).
 */
function shareRevocations(app: FastifyInstance, ctx: AppContext): void {
  if (!ctx.config.redisUrl) return;
  const broadcast = redisBroadcast(ctx.config.redisUrl, REVOCATIONS_CHANNEL, app.log);
  revocations(ctx.db).current = broadcast;
  broadcast.subscribe((userId) => {
    if (/^\d+$/.test(userId)) forgetSessions(ctx.db, BigInt(userId));
  });
  app.addHook('onClose', () => broadcast.close());
}

const REVOCATIONS_CHANNEL = 'aic-earn:sessions-revoked';

/** Each API answer says the server's clock (the demo clock where an operator moves it). */
function tellServerTime(app: FastifyInstance, ctx: AppContext): void {
  app.addHook('onRequest', (request, reply, done) => {
    if (request.url.startsWith('/api/')) reply.header(SERVER_TIME_HEADER, ctx.clock.now().toISOString());
    done();
  });
}

/** Trusts the nearest `hops` proxies, as proxy-addr does for a number. */
const trustHops = (hops: number) => (_address: string, hop: number) => hop < hops;

/** Builds the whole server: API, docs and the built web app, around one context. */
export async function buildApp(ctx: AppContext, options: AppOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger:
      options.logger === false
        ? false
        : {
            level: ctx.config.logLevel,
            redact: ['req.headers.authorization', 'req.headers.cookie'],
            // Paths only: query strings carry one-time codes and states.
            serializers: {
              req: (req: { method: string; url: string; ip?: string }) => ({
                method: req.method,
                url: req.url.split('?')[0],
                ip: req.ip,
              }),
            },
            ...(typeof options.logger === 'object' ? options.logger : {}),
          },
    bodyLimit: 64 * 1024,
    // While the process closes (SIGTERM), a request arriving on a connection already open is
    // served, and its answer closes the connection, rather than refused with Fastify's own 503
    // body: the database is closed only after the last answer (main.ts).
    return503OnClosing: false,
    // Behind a proxy, the client's own address (sign-in limit, logs) from X-Forwarded-For, but
    // only as the proxies named in TRUST_PROXY write it; unset, the header is ignored.
    trustProxy: typeof ctx.config.trustProxy === 'number' ? trustHops(ctx.config.trustProxy) : ctx.config.trustProxy,
    ...lowLevelOptions(ctx.config),
    // `example` annotates a schema for the API document (OpenAPI 3.0); it validates nothing.
    ajv: { customOptions: { coerceTypes: 'array', removeAdditional: false, keywords: ['example'] } },
    // JSON bodies are validated without coercion (an amount is a string, never 5 or ["5"]).
    schemaController: { compilersFactory: { buildValidator: partValidators } },
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string' },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
  );
  installErrorHandling(app);
  const metrics = createMetrics();
  app.decorate('metrics', metrics);
  // First of the request hooks: a shed request costs no session lookup, rate count or body.
  await installShedding(app, ctx.config, poolOf(ctx.db), (reason) => metrics.requestsShed.inc({ reason }));
  const standby = watchStandby(ctx.db, ctx.dbKind);
  app.decorate('standby', standby);
  // The embedded database has no standby to wait for: no gate on its requests.
  if (ctx.dbKind === 'postgres') refuseWritesWithoutStandby(app, standby);
  unlimitedOperatorReads(app);
  installAuthGuard(app, ctx);
  describeOperations(app);
  shareRevocations(app, ctx);
  requireIdempotencyKeys(app);
  refuseNonFiniteNumbers(app);
  await installSecurity(app, ctx.config);
  installObservability(app, ctx, metrics, standby);
  tellServerTime(app, ctx);
  // The configured team rules become their first version, unless the database has one.
  await seedTeamRules(ctx.db, ctx.config.team, ctx.clock.now());

  await app.register(fastifySwagger, {
    openapi: {
      info: { title: `${ctx.config.appName} API`, version: '0.1.0' },
      // Relative: the API is on the host that serves this document (PUBLIC_URL, or a test's).
      servers: [{ url: '/' }],
      components: {
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
      },
    },
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/docs', staticCSP: true });

  const embedded = !ctx.config.oidcIssuer;
  // This process's own addresses (the embedded provider and exchange) without a network hop.
  const local = injectFetch(app, new URL(ctx.config.publicUrl).origin);
  const localFetch: typeof fetch = (url, init) => local(String(url), init as Parameters<typeof local>[1]);
  const provider = embedded ? await mountEmbeddedProvider(app, ctx) : undefined;
  app.decorate('embeddedExchange', provider ? await mountEmbeddedExchange(app, ctx, provider, localFetch) : undefined);
  const oauth = createOAuthClient(ctx, embedded ? local : undefined);
  const exchange = exchangeOf({
    db: ctx.db,
    key: ctx.config.exchangeTokenKey,
    refresh: (grant) => oauth.refresh(grant),
    // Longer than a transfer's calls can take: every try, and the backoff between them (at most 2 s).
    leaseMs: ctx.config.exchangeAttempts * (ctx.config.exchangeTimeoutMs + 2_000) + 5_000,
    balanceTtlMs: ctx.config.exchangeBalanceTtlMs,
    // The embedded exchange is reached through the same HTTP client as a real one.
    client: httpExchangeClient({
      baseUrl: ctx.config.exchangeApiUrl ?? `${ctx.config.publicUrl}${EXCHANGE_PREFIX}`,
      clientId: ctx.config.oidcClientId,
      clientSecret: ctx.config.oidcClientSecret,
      timeoutMs: ctx.config.exchangeTimeoutMs,
      attempts: ctx.config.exchangeAttempts,
      fetch: ctx.config.exchangeApiUrl ? fetch : localFetch,
    }),
  });
  app.decorate('exchange', exchange);
  await app.register(webhookRoutes(ctx, exchange));

  await app.register(dashboardRoutes, { ctx });
  await app.register(authRoutes, { ctx, oauth, exchange });
  await app.register(walletRoutes, { ctx, exchange });
  await app.register(reviewRoutes, { ctx, exchange });
  await app.register(reconcileRoutes, { ctx });
  await app.register(fundingRoutes, { ctx, exchange });
  await app.register(earnRoutes, { ctx });
  await app.register(operatorRoutes, { ctx });
  await app.register(teamRoutes, { ctx });
  await app.register(proofRoutes, { ctx });
  await app.register(statementRoutes, { ctx });
  await app.register(sessionRoutes, { ctx });
  await app.register(activityRoutes, { ctx });
  await app.register(positionsRoutes, { ctx });
  await app.register(notifyRoutes, { ctx });

  const webRoot = resolve(ctx.config.webDir);
  if (existsSync(resolve(webRoot, 'index.html'))) {
    appShellRoutes(app, webRoot, ctx.config.demo);
    await app.register(fastifyStatic, {
      root: webRoot,
      preCompressed: true,
      wildcard: false,
      // The app's page is rendered per visitor (appShell.ts).
      index: false,
      globIgnore: ['index.html', 'index.html.*'],
      // File names under assets/ carry their content hash: they never change, so keep them.
      setHeaders: (res, path) => {
        if (path.includes('/assets/')) res.header('cache-control', 'public, max-age=31536000, immutable');
        // The service worker: always asked again, so a new version is found on the next visit
        // (the worker then offers to switch to it). `path` is the file sent: sw.js.br or
        // sw.js.gz when the browser takes brotli or gzip.
        else if (/[\\/]sw\.js(\.br|\.gz)?$/.test(path)) res.header('cache-control', 'no-cache');
      },
    });
  }
  return app;
}
