import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Transaction } from 'kysely';
import type { Static, TSchema } from 'typebox';
import type { AppContext } from '../context.ts';
import type { Database } from '../db/schema.ts';
import { userIdOf } from './caller.ts';
import type { AppError } from './errors.ts';
import { idempotent, idempotentClaimFirst, sendAnswer } from './idempotency.ts';
import { answers } from './schemas.ts';

/** What an idempotent POST's handler is given: its caller, and the request as its schemas type it. */
type PostCall<B extends TSchema, P extends TSchema> = {
  userId: bigint;
  body: Static<B>;
  params: Static<P>;
  request: FastifyRequest;
};

export type PostRoute<B extends TSchema, P extends TSchema, D extends TSchema> = {
  summary: string;
  tags: string[];
  /** The answer's `data`: the handler must return this type, and the reply is checked against it. */
  data: D;
  body?: B;
  params?: P;
  /** Only where the path's name in contract/paths.ts is taken by another method (http/openapi.ts). */
  operationId?: string;
  /** Who calls: the signed-in user unless said (an operator route gives `operatorIdOf`). */
  caller?: (request: FastifyRequest) => bigint;
  /** Checks before the key is claimed: a refusal here is not stored, so a retry is checked anew. */
  check?: (call: PostCall<B, P>) => void | Promise<void>;
  /** What a ledger `InsufficientBalance` in the effect is refused as (BALANCE unless said). */
  insufficient?: AppError;
};

type Effect<B extends TSchema, P extends TSchema, D extends TSchema> = (
  call: PostCall<B, P>,
  trx: Transaction<Database>,
) => Promise<Static<D>>;
type Work<B extends TSchema, P extends TSchema, D extends TSchema> = (call: PostCall<B, P>) => Promise<Static<D>>;

/**
 * A signed-in POST that runs at most once per Idempotency-Key: the caller is looked up, the
 * route's own checks run, then the effect runs in the key's transaction (`idempotent`) and its
 * answer, or its refusal, is sent and stored for a repeat. With `claimFirst`, the work runs its
 * own transactions after the key is claimed (`idempotentClaimFirst`: settlement, the clock).
 */
export function idempotentPost<D extends TSchema, B extends TSchema = TSchema, P extends TSchema = TSchema>(
  app: FastifyInstance,
  ctx: AppContext,
  path: string,
  route: PostRoute<B, P, D> & { claimFirst: true },
  work: Work<B, P, D>,
): void;
export function idempotentPost<D extends TSchema, B extends TSchema = TSchema, P extends TSchema = TSchema>(
  app: FastifyInstance,
  ctx: AppContext,
  path: string,
  route: PostRoute<B, P, D> & { claimFirst?: false },
  effect: Effect<B, P, D>,
): void;
export function idempotentPost<D extends TSchema, B extends TSchema, P extends TSchema>(
  app: FastifyInstance,
  ctx: AppContext,
  path: string,
  route: PostRoute<B, P, D> & { claimFirst?: boolean },
  handler: Effect<B, P, D>,
): void {
  const { summary, tags, data, body, params, operationId } = route;
  const schema = {
    tags,
    summary,
    ...(operationId ? { operationId } : {}),
    security: [{ bearer: [] }],
    // Documented for clients; a missing or malformed key is refused before validation (idempotency.ts).
    headers: { type: 'object', properties: { 'idempotency-key': { type: 'string', description: 'Names this attempt: a repeat with the same key gets the first answer' } } },
    ...(params ? { params } : {}),
    ...(body ? { body } : {}),
    response: answers(data),
  };
  app.post(path, { schema }, async (request, reply) => {
    const userId = (route.caller ?? userIdOf)(request);
    // The schemas validated these before the handler runs.
    const call: PostCall<B, P> = { userId, body: request.body as Static<B>, params: request.params as Static<P>, request };
    await route.check?.(call);
    const answer = route.claimFirst
      ? await idempotentClaimFirst(ctx, request, userId, () => (handler as Work<B, P, D>)(call))
      : await idempotent(ctx, request, userId, (trx) => handler(call, trx), route.insufficient);
    return sendAnswer(reply, answer);
  });
}
