import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.ts';
import { AppError } from '../http/errors.ts';
import { authenticate, isTokenFormat, sessionNow } from './sessions.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** An /api route open without a session (the dashboard, the sign-in calls). */
    public?: boolean;
  }
  interface FastifyInstance {
    /** Every route as registered, for tests that walk the whole table. */
    routeTable: { method: string; url: string; public: boolean }[];
  }
}

/**
 * The session token of `Authorization: Bearer <userId>.<secret>`, spelled exactly so: one space,
 * a token of the session format. Anything else (padding, another scheme, a malformed token) is
 * no token at all, so one session never has two spellings (the rate limits count by session).
 */
export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (typeof header !== 'string' || !header.startsWith('Bearer ')) return undefined;
  const token = header.slice('Bearer '.length);
  return isTokenFormat(token) ? token : undefined;
}

/**
 * Every /api route needs a live session unless it says `config: { public: true }`, so a new
 * route is protected by default. Must be installed before the routes are registered.
 */
export function installAuthGuard(app: FastifyInstance, ctx: AppContext): void {
  app.decorateRequest('userId', null);
  app.decorateRequest('sessionKey', null);
  app.decorate('routeTable', []);
  app.addHook('onRoute', (route) => {
    const isPublic = route.config?.public === true;
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) app.routeTable.push({ method, url: route.url, public: isPublic });
    if (isPublic || !route.url.startsWith('/api/')) return;
    const existing = route.onRequest ? [route.onRequest].flat() : [];
    route.onRequest = [
      async (request: FastifyRequest, reply: FastifyReply) => {
        const refuse = (wait: number) => {
          reply.header('retry-after', String(wait));
          return new AppError('RATE_LIMITED');
        };
        // An address that keeps sending bad tokens is refused before any sessions lookup.
        const blocked = app.authFailures.blocked(request);
        if (blocked) throw refuse(blocked);
        const token = bearerToken(request);
        const session = token ? await authenticate(ctx.db, token, sessionNow(), ctx.config.sessionCacheMs) : undefined;
        if (session === undefined) {
          const wait = await app.authFailures.note(request);
          throw wait ? refuse(wait) : new AppError('UNAUTHORIZED');
        }
        request.userId = session.userId;
        request.sessionKey = session.tokenHash;
      },
      ...existing,
    ] as typeof route.onRequest;
  });
}

export { userIdOf } from '../http/caller.ts';
