import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { PATHS } from '../../contract/paths.ts';
import { ReviewBody, ReviewParams, ReviewQueueData, TransferRecord } from '../../contract/wallet.ts';
import type { AppContext } from '../context.ts';
import { idempotent } from '../http/idempotency.ts';
import { answers, ok } from '../http/schemas.ts';
import { audit } from '../operator/audit.ts';
import { operatorIdOf } from '../operator/guard.ts';
import type { ExchangeAdapter } from './exchange.ts';
import { reviewQueue } from './repository.ts';
import { reviewTransfer } from './service.ts';

const secured = { security: [{ bearer: [] }] };

/** Operators review withdrawals and transfers out: approve, or reject with funds back. */
export const reviewRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext; exchange: ExchangeAdapter }> = async (
  app,
  { ctx, exchange },
) => {
  app.get(
    PATHS.operatorReviews,
    { schema: { tags: ['operator'], summary: 'Withdrawals and transfers out under review', ...secured, response: answers(ReviewQueueData) } },
    async (request) => {
      operatorIdOf(ctx, request);
      return ok({ items: await reviewQueue(ctx.db) });
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
        return reply.code(answer.status).send(answer.body as never);
      },
    );
  }
};
