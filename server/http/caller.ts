import type { FastifyRequest } from 'fastify';
import { AppError } from './errors.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The caller of a protected route, set by auth's guard; null before it or on a public route. */
    userId: bigint | null;
    /** The session of a protected route's caller (its token's hash), set by the guard: limits count by it. */
    sessionKey: string | null;
  }
}

/**
 * The signed-in user of a protected route (the guard has run). Here rather than in auth, so a
 * domain auth itself uses (notify: a sign-in from a new device) can read its caller too.
 */
export function userIdOf(request: FastifyRequest): bigint {
  if (request.userId === null) throw new AppError('UNAUTHORIZED');
  return request.userId;
}
