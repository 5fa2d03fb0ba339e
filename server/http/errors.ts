import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ERRORS, type ErrorName } from '../../contract/errors.ts';
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

export const fail = (name: ErrorName, detail?: string): AppError => new AppError(name, detail);

function toAppError(error: FastifyError | Error): AppError {
  if (error instanceof AppError) return error;
  if (error instanceof InsufficientBalance) return new AppError('BALANCE');
  const fastifyError = error as FastifyError;
  if (fastifyError.validation) return new AppError('PARAM', error.message);
  if (fastifyError.statusCode === 429) return new AppError('RATE_LIMITED');
  if (fastifyError.statusCode === 413 || fastifyError.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
    return new AppError('BAD_REQUEST', error.message);
  }
  if (fastifyError.statusCode && fastifyError.statusCode >= 400 && fastifyError.statusCode < 500) {
    return new AppError('BAD_REQUEST', error.message);
  }
  return new AppError('INTERNAL');
}

export function sendError(request: FastifyRequest, reply: FastifyReply, error: AppError) {
  const entry = ERRORS[error.errorName];
  const msg = translate(entry.message, messageLanguage(request.headers['x-lang']));
  return reply.status(entry.http).send({ code: entry.code, msg, data: null });
}

/** One handler maps every failure to a stable code; internals never reach the caller. */
export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const appError = toAppError(error);
    if (appError.errorName === 'INTERNAL') request.log.error({ err: error }, 'unhandled error');
    else request.log.info({ code: ERRORS[appError.errorName].code, detail: appError.detail }, 'refused');
    return sendError(request, reply, appError);
  });
  app.setNotFoundHandler((request, reply) => sendError(request, reply, new AppError('NOT_FOUND')));
}
