import type { FastifyRequest } from 'fastify';
import { userIdOf } from '../auth/guard.ts';
import type { AppContext } from '../context.ts';
import { AppError } from '../http/errors.ts';

/** The signed-in operator (user ids from configuration); anyone else is refused with 403. */
export function operatorIdOf(ctx: AppContext, request: FastifyRequest): bigint {
  const userId = userIdOf(request);
  if (!ctx.config.operatorUserIds.includes(userId)) throw new AppError('FORBIDDEN');
  return userId;
}
