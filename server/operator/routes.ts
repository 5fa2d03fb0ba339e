import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ClockAdvanceBody, SettleBody, SettleData } from '../../contract/operator.ts';
import { PATHS } from '../../contract/paths.ts';
import type { AppContext } from '../context.ts';
import { AppError } from '../http/errors.ts';
import { idempotentClaimFirst } from '../http/idempotency.ts';
import { answers } from '../http/schemas.ts';
import { DAY_MS, utcDay } from '../platform/clock.ts';
import { settleDay, settleDue } from '../settlement/settle.ts';
import { operatorIdOf } from './guard.ts';

const secured = { security: [{ bearer: [] }] };
const tags = ['operator'];

/**
 * Settlement by hand: run (or re-run) a day, and, where the deployment allows it (demo,
 * tests), move the clock forward so days can be tried without waiting.
 */
export const operatorRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.post(
    PATHS.operatorSettle,
    { schema: { tags, summary: 'Settle a finished day, or everything due', ...secured, body: SettleBody, response: answers(SettleData) } },
    async (request, reply) => {
      const operator = operatorIdOf(ctx, request);
      const day = request.body?.day;
      if (day && day >= utcDay(ctx.clock.now())) throw new AppError('PARAM', 'only finished days settle');
      const answer = await idempotentClaimFirst(ctx, request, operator, async () => ({
        now: ctx.clock.now().toISOString(),
        reports: day ? [await settleDay(ctx, day)] : await settleDue(ctx),
      }));
      return reply.code(answer.status).send(answer.body as never);
    },
  );

  app.post(
    PATHS.operatorClockAdvance,
    { schema: { tags, summary: 'Move the clock forward by whole days and settle (demo only)', ...secured, body: ClockAdvanceBody, response: answers(SettleData) } },
    async (request, reply) => {
      const operator = operatorIdOf(ctx, request);
      if (!ctx.config.clockAdjustable) throw new AppError('FORBIDDEN', 'clock is not adjustable here');
      const answer = await idempotentClaimFirst(ctx, request, operator, async () => {
        // Day by day, so each day's cycles and accruals settle as they would have.
        const reports = [];
        for (let i = 0; i < request.body.days; i++) {
          ctx.clock.advance(DAY_MS);
          reports.push(...(await settleDue(ctx)));
        }
        request.log.info({ operator: String(operator), days: request.body.days, today: utcDay(ctx.clock.now()) }, 'clock advanced');
        return { now: ctx.clock.now().toISOString(), reports };
      });
      return reply.code(answer.status).send(answer.body as never);
    },
  );
};
