import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Transaction } from 'kysely';
import { PATHS } from '../../contract/paths.ts';
import { ReviewBody, ReviewParams, ReviewQueueData, ReviewQueueQuery, type TransferRecord as Record_, TransferRecord } from '../../contract/wallet.ts';
import type { AppContext } from '../context.ts';
import type { Database } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import { idempotentStart, sendAnswer } from '../http/idempotency.ts';
import { idempotentPost } from '../http/idempotentPost.ts';
import { answers, ok } from '../http/schemas.ts';
import { audit } from '../operator/audit.ts';
import { operatorIdOf } from '../operator/guard.ts';
import type { Exchange } from './exchange.ts';
import { reviewQueue, toRecord } from './repository.ts';
import { forgetReviewTime } from './reviewTime.ts';
import { approveTransfer, rejectTransfer } from './service.ts';
import { answerFor, drive } from './transfers.ts';

const secured = { security: [{ bearer: [] }] };

const MAX_ID = 2n ** 63n - 1n;

/** An id from the query (digits by its schema) that a bigint column can hold; otherwise 400. */
function idOf(text: string): bigint {
  const id = BigInt(text);
  if (id > MAX_ID) throw new AppError('PARAM', 'id out of range');
  return id;
}

async function auditReview(trx: Transaction<Database>, ctx: AppContext, reviewer: bigint, approve: boolean, record: Record_, reason: string | null) {
  await audit(trx, {
    operatorId: reviewer,
    action: approve ? 'approve' : 'reject',
    target: `transfer:${record.id}`,
    detail: { type: record.type, asset: record.asset, amount: record.amount, reason },
    at: ctx.clock.now(),
  });
}

/**
 * Operators review withdrawals and transfers out: approve (the funds go to the exchange, which
 * must confirm the credit), or reject (the funds return to the wallet).
 */
export const reviewRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext; exchange: Exchange }> = async (
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

  // A decision made here moves the review time the transfer forms show: read it again after it.
  app.addHook('onResponse', async (request, reply) => {
    if (request.method === 'POST' && reply.statusCode === 200) forgetReviewTime(ctx.db);
  });

  const approval = {
    tags: ['operator'],
    summary: 'Approve: the funds go to the exchange',
    ...secured,
    params: ReviewParams,
    body: ReviewBody,
    response: answers(TransferRecord),
  };

  // Ended outside the key's transaction, when the exchange confirms: not idempotentPost's kind.
  app.post(PATHS.operatorApprove, { schema: approval }, async (request, reply) => {
    const reviewer = operatorIdOf(ctx, request);
    const reason = request.body?.reason?.trim() || null;
    const started = await idempotentStart(ctx, request, reviewer, async (trx, requestKey) => {
      const now = ctx.clock.now();
      const row = await approveTransfer(trx, {
        id: BigInt(request.params.id),
        reason,
        reviewer,
        now,
        requestKey,
        leaseMs: exchange.leaseMs,
      });
      await auditReview(trx, ctx, reviewer, true, toRecord(row), reason);
      return row;
    });
    if ('answer' in started) return sendAnswer(reply, started.answer);
    return sendAnswer(reply, answerFor(await drive(ctx.db, exchange, started.started, { resume: false })));
  });

  idempotentPost(
    app,
    ctx,
    PATHS.operatorReject,
    {
      tags: ['operator'],
      summary: 'Reject: funds return to the wallet',
      params: ReviewParams,
      body: ReviewBody,
      data: TransferRecord,
      caller: (request) => operatorIdOf(ctx, request),
    },
    async ({ userId: reviewer, params, body }, trx) => {
      const reason = body?.reason?.trim() || null;
      const record = await rejectTransfer(trx, { id: BigInt(params.id), reason, reviewer, now: ctx.clock.now() });
      await auditReview(trx, ctx, reviewer, false, record, reason);
      return record;
    },
  );
};
