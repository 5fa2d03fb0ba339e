import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.ts';
import { AppError } from '../http/errors.ts';
import { authenticate } from './sessions.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** An /api route open without a session (the dashboard, the sign-in calls). */
    public?: boolean;
  }
  interface FastifyRequest {
    userId: bigint | null;
  }
  interface FastifyInstance {
    /** Every route as registered, for tests that walk the whole table. */
    routeTable: { method: string; url: string; public: boolean }[];
  }
}

export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header?.startsWith('Bearer ')) return undefined;
  return header.slice('Bearer '.length).trim() || undefined;
}

/**
 * Every /api route needs a live session unless it says `config: { public: true }`, so a new
 * route is protected by default. Must be installed before the routes are registered.
 */
export function installAuthGuard(app: FastifyInstance, ctx: AppContext): void {
  app.decorateRequest('userId', null);
  app.decorate('routeTable', []);
  app.addHook('onRoute', (route) => {
    const isPublic = route.config?.public === true;
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) app.routeTable.push({ method, url: route.url, public: isPublic });
    if (isPublic || !route.url.startsWith('/api/')) return;
    const existing = route.onRequest ? [route.onRequest].flat() : [];
    route.onRequest = [
      async (request: FastifyRequest) => {
        const token = bearerToken(request);
        const userId = token ? await authenticate(ctx.db, token, ctx.clock.now()) : undefined;
        if (userId === undefined) throw new AppError('UNAUTHORIZED');
        request.userId = userId;
      },
      ...existing,
    ] as typeof route.onRequest;
  });
}

/** The signed-in user of a protected route (the guard has run). */
export function userIdOf(request: FastifyRequest): bigint {
  if (request.userId === null) throw new AppError('UNAUTHORIZED');
  return request.userId;
}
