import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { FundBody } from '../../contract/operator.ts';
import { PATHS } from '../../contract/paths.ts';
import { FundingRecord, FundingsData, ReviewBody, ReviewParams } from '../../contract/wallet.ts';
import type { AppContext } from '../context.ts';
import { amountFrom } from '../http/amount.ts';
import { idempotentStart, sendAnswer } from '../http/idempotency.ts';
import { idempotentPost } from '../http/idempotentPost.ts';
import { answers, ok } from '../http/schemas.ts';
import { audit } from '../operator/audit.ts';
import { operatorIdOf } from '../operator/guard.ts';
import type { Exchange } from './exchange.ts';
import { approveFunding, listFundings, rejectFunding, requestFunding } from './funding.ts';
import { answerFor, drive } from './transfers.ts';

const tags = ['operator'];
const secured = { security: [{ bearer: [] }] };

/** Funding the treasury and the pool: asked by one operator, approved by another (funding.ts). */
export const fundingRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext; exchange: Exchange }> = async (app, { ctx, exchange }) => {
  const caller = (request: FastifyRequest) => operatorIdOf(ctx, request);

  idempotentPost(
    app,
    ctx,
    PATHS.operatorFund,
    {
      tags,
      summary: 'Ask to fund the treasury or the pool from the platform’s account at the exchange (another operator approves)',
      body: FundBody,
      data: FundingRecord,
      caller,
      // An unreadable amount is refused before the key is claimed.
      check: ({ body }) => {
        amountFrom(body.amount);
      },
    },
    async ({ userId: operator, body }, trx) => {
      const now = ctx.clock.now();
      const { account, asset } = body;
      const amount = amountFrom(body.amount);
      const record = await requestFunding(trx, { account, asset, operator, amount, now, limit: ctx.config.fundingDailyLimit[asset] });
      await audit(trx, { operatorId: operator, action: 'fund_request', target: `funding:${record.id}`, detail: { account, asset, amount: record.amount }, at: now });
      return record;
    },
  );

  app.get(
    PATHS.operatorFundings,
    { schema: { tags, summary: 'Fundings waiting for a second operator, then the latest', ...secured, response: answers(FundingsData) } },
    async (request) => {
      operatorIdOf(ctx, request);
      return ok({ items: await listFundings(ctx.db) });
    },
  );

  const approval = {
    tags,
    summary: 'Approve a funding: the exchange moves it into the omnibus account',
    ...secured,
    params: ReviewParams,
    body: ReviewBody,
    response: answers(FundingRecord),
  };

  // Ended outside the key's transaction, when the exchange confirms: not idempotentPost's kind.
  app.post(PATHS.operatorFundingApprove, { schema: approval }, async (request, reply) => {
    const reviewer = operatorIdOf(ctx, request);
    const reason = request.body?.reason?.trim() || null;
    const started = await idempotentStart(ctx, request, reviewer, async (trx, requestKey) => {
      const now = ctx.clock.now();
      const row = await approveFunding(trx, { id: BigInt(request.params.id), reviewer, reason, now, requestKey, leaseMs: exchange.leaseMs });
      await audit(trx, {
        operatorId: reviewer,
        action: 'fund',
        target: `funding:${row.id}`,
        detail: { account: row.account, asset: row.asset, amount: String(row.amount), requestedBy: String(row.requested_by) },
        at: now,
      });
      return row;
    });
    if ('answer' in started) return sendAnswer(reply, started.answer);
    return sendAnswer(reply, answerFor(await drive(ctx.db, exchange, started.started, { resume: false })));
  });

  idempotentPost(
    app,
    ctx,
    PATHS.operatorFundingReject,
    { tags, summary: 'Reject a funding', params: ReviewParams, body: ReviewBody, data: FundingRecord, caller },
    async ({ userId: reviewer, params, body }, trx) => {
      const reason = body?.reason?.trim() || null;
      const now = ctx.clock.now();
      const record = await rejectFunding(trx, { id: BigInt(params.id), reviewer, reason, now });
      await audit(trx, { operatorId: reviewer, action: 'fund_reject', target: `funding:${record.id}`, detail: { reason }, at: now });
      return record;
    },
  );
};
