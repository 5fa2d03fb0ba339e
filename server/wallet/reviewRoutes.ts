import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { PATHS } from '../../contract/paths.ts';
import { ReviewBody, ReviewParams, ReviewQueueData, ReviewQueueQuery, TransferRecord } from '../../contract/wallet.ts';
import type { AppContext } from '../context.ts';
import { AppError } from '../http/errors.ts';
import { idempotent, sendAnswer } from '../http/idempotency.ts';
import { answers, ok } from '../http/schemas.ts';
import { audit } from '../operator/audit.ts';
import { operatorIdOf } from '../operator/guard.ts';
import type { ExchangeAdapter } from './exchange.ts';
import { reviewQueue } from './repository.ts';
import { reviewTransfer } from './service.ts';

const secured = { security: [{ bearer: [] }] };

const MAX_ID = 2n ** 63n - 1n;

/** An id from the query (digits by its schema) that a bigint column can hold; otherwise 400. */
function idOf(text: string): bigint {
  const id = BigInt(text);
  if (id > MAX_ID) throw new AppError('PARAM', 'id out of range');
  return id;
}

/** Operators review withdrawals and transfers out: approve, or reject with funds back. */
export const reviewRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext; exchange: ExchangeAdapter }> = async (
  app,
  { ctx, exchange },
) => {
  app.get(
    PATHS.operatorReviews,
    {
      schema: {
        tags: ['operator'],
        summary: 'Withdrawals and transfers out under review, oldest first, by cursor',
        ...secured,
        querystring: ReviewQueueQuery,
        response: answers(ReviewQueueData),
      },
    },
    async (request) => {
      operatorIdOf(ctx, request);
      const { after, limit, userId } = request.query;
      return ok(
        await reviewQueue(ctx.db, {
          limit,
          ...(after === undefined ? {} : { after: idOf(after) }),
          ...(userId === undefined ? {} : { userId: idOf(userId) }),
        }),
      );
    },
  );

  for (const approve of [true, false]) {
    app.post(
      approve ? PATHS.operatorApprove : PATHS.operatorReject,
      {
        schema: {
          tags: ['operator'],
          summary: approve ? 'Approve: funds go to the exchange' : 'Reject: funds return to the wallet',
          ...secured,
          params: ReviewParams,
          body: ReviewBody,
          response: answers(TransferRecord),
        },
      },
      async (request, reply) => {
        const reviewer = operatorIdOf(ctx, request);
        const reason = request.body?.reason?.trim() || null;
        const answer = await idempotent(ctx, request, reviewer, async (trx) => {
          const record = await reviewTransfer(trx, exchange, { id: BigInt(request.params.id), approve, reason, reviewer, now: ctx.clock.now() });
          await audit(trx, {
            operatorId: reviewer,
            action: approve ? 'approve' : 'reject',
            target: `transfer:${record.id}`,
            detail: { type: record.type, asset: record.asset, amount: record.amount, reason },
            at: ctx.clock.now(),
          });
          return record;
        });
        return sendAnswer(reply, answer);
      },
    );
  }
};
