import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  AuditData,
  ClockAdvanceBody,
  LedgerCheckData,
  ParamBody,
  ParamListData,
  ParamsData,
  SettleBody,
  SettleData,
  UnbindBody,
  UnbindData,
} from '../../contract/operator.ts';
import { PATHS } from '../../contract/paths.ts';
import type { AppContext } from '../context.ts';
import { AppError } from '../http/errors.ts';
import { idempotent, idempotentClaimFirst, sendAnswer } from '../http/idempotency.ts';
import { answers, ok } from '../http/schemas.ts';
import { DAY_MS, utcDay } from '../platform/clock.ts';
import { assertDayEnded, settleDay, settleDue } from '../settlement/settle.ts';
import { unbindFromCycle } from '../team/binding.ts';
import { audit, auditLog } from './audit.ts';
import { ledgerReport, paramDefaults, scheduleParam } from './console.ts';
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
      if (day) assertDayEnded(day, ctx.clock.now());
      const answer = await idempotentClaimFirst(ctx, request, operator, async () => {
        const reports = day ? [await settleDay(ctx, day)] : await settleDue(ctx);
        await audit(ctx.db, { operatorId: operator, action: 'settle', target: day ?? 'due', detail: { days: reports.map((r) => r.day) }, at: ctx.clock.now() });
        return { now: ctx.clock.now().toISOString(), reports };
      });
      return sendAnswer(reply, answer);
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
          // Every process's clock moves, not only this one's, before the day is settled.
          await ctx.clock.flush?.();
          reports.push(...(await settleDue(ctx)));
        }
        request.log.info({ operator: String(operator), days: request.body.days, today: utcDay(ctx.clock.now()) }, 'clock advanced');
        await audit(ctx.db, { operatorId: operator, action: 'clock_advance', target: `${request.body.days} days`, at: ctx.clock.now() });
        return { now: ctx.clock.now().toISOString(), reports };
      });
      return sendAnswer(reply, answer);
    },
  );

  app.get(
    PATHS.operatorParams,
    { schema: { tags, summary: "Every scheduled parameter version, and each parameter's configured default", ...secured, response: answers(ParamListData) } },
    async (request) => {
      operatorIdOf(ctx, request);
      const rows = await ctx.db.selectFrom('params').select(['name', 'value', 'effective_day']).orderBy('name').orderBy('effective_day', 'desc').execute();
      return ok({
        items: rows.map((r) => ({ name: r.name, value: r.value, effectiveDay: String(r.effective_day) })),
        defaults: paramDefaults(ctx.config),
      });
    },
  );

  app.post(
    PATHS.operatorParams,
    { schema: { tags, summary: 'Schedule a price, rate, quota or coefficient parameter from a day on', operationId: 'scheduleOperatorParam', ...secured, body: ParamBody, response: answers(ParamsData) } },
    async (request, reply) => {
      const operator = operatorIdOf(ctx, request);
      const body = request.body as import('../../contract/operator.ts').ParamBody;
      const answer = await idempotent(ctx, request, operator, async (trx) => {
        await scheduleParam(ctx, trx, body);
        await audit(trx, { operatorId: operator, action: 'set_param', target: body.name, detail: { value: body.value, effectiveDay: body.effectiveDay }, at: ctx.clock.now() });
        return { items: [{ name: body.name, value: body.value, effectiveDay: body.effectiveDay }] };
      });
      return sendAnswer(reply, answer);
    },
  );

  app.get(
    PATHS.operatorLedger,
    { schema: { tags, summary: 'The ledger check and payout coverage, green or red', ...secured, response: answers(LedgerCheckData) } },
    async (request) => {
      operatorIdOf(ctx, request);
      return ok(await ledgerReport(ctx));
    },
  );

  app.post(
    PATHS.operatorUnbind,
    {
      schema: {
        tags,
        summary: 'Unbind a holder who is on a referral cycle the tree check found (audited)',
        ...secured,
        body: UnbindBody,
        response: answers(UnbindData),
      },
    },
    async (request, reply) => {
      const operator = operatorIdOf(ctx, request);
      const userId = BigInt(request.body.userId);
      const answer = await idempotent(ctx, request, operator, async (trx) => {
        const { formerInviter, cycle, pathsRewritten } = await unbindFromCycle(trx, userId);
        const detail = { formerInviter: String(formerInviter), cycle: cycle.map(String), pathsRewritten };
        await audit(trx, { operatorId: operator, action: 'unbind', target: `user:${userId}`, detail, at: ctx.clock.now() });
        return { userId: String(userId), ...detail };
      });
      return sendAnswer(reply, answer);
    },
  );

  app.get(
    PATHS.operatorAudit,
    { schema: { tags, summary: 'Operator actions, newest first', ...secured, response: answers(AuditData) } },
    async (request) => {
      operatorIdOf(ctx, request);
      return ok({ items: await auditLog(ctx.db) });
    },
  );
};
