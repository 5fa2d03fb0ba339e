import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
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
import { idempotentPost } from '../http/idempotentPost.ts';
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
  const caller = (request: FastifyRequest) => operatorIdOf(ctx, request);

  idempotentPost(
    app,
    ctx,
    PATHS.operatorSettle,
    {
      tags,
      summary: 'Settle a finished day, or everything due',
      body: SettleBody,
      data: SettleData,
      caller,
      claimFirst: true,
      check: ({ body }) => {
        if (body?.day) assertDayEnded(body.day, ctx.clock.now());
      },
    },
    async ({ userId: operator, body }) => {
      const day = body?.day;
      const reports = day ? [await settleDay(ctx, day)] : await settleDue(ctx);
      await audit(ctx.db, { operatorId: operator, action: 'settle', target: day ?? 'due', detail: { days: reports.map((r) => r.day) }, at: ctx.clock.now() });
      return { now: ctx.clock.now().toISOString(), reports };
    },
  );

  idempotentPost(
    app,
    ctx,
    PATHS.operatorClockAdvance,
    {
      tags,
      summary: 'Move the clock forward by whole days and settle (demo only)',
      body: ClockAdvanceBody,
      data: SettleData,
      caller,
      claimFirst: true,
      check: () => {
        if (!ctx.config.clockAdjustable) throw new AppError('FORBIDDEN', 'clock is not adjustable here');
      },
    },
    async ({ userId: operator, body, request }) => {
      // Day by day, so each day's cycles and accruals settle as they would have.
      const reports = [];
      for (let i = 0; i < body.days; i++) {
        ctx.clock.advance(DAY_MS);
        // Every process's clock moves, not only this one's, before the day is settled.
        await ctx.clock.flush?.();
        reports.push(...(await settleDue(ctx)));
      }
      request.log.info({ operator: String(operator), days: body.days, today: utcDay(ctx.clock.now()) }, 'clock advanced');
      await audit(ctx.db, { operatorId: operator, action: 'clock_advance', target: `${body.days} days`, at: ctx.clock.now() });
      return { now: ctx.clock.now().toISOString(), reports };
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

  idempotentPost(
    app,
    ctx,
    PATHS.operatorParams,
    {
      tags,
      summary: 'Schedule a price, rate, quota or coefficient parameter from a day on',
      // The GET of this path is operatorParams.
      operationId: 'scheduleOperatorParam',
      body: ParamBody,
      data: ParamsData,
      caller,
    },
    async ({ userId: operator, body: sent }, trx) => {
      // The schema's union of names is built from a list, so its type says less than ParamBody.
      const body = sent as ParamBody;
      await scheduleParam(ctx, trx, body);
      await audit(trx, { operatorId: operator, action: 'set_param', target: body.name, detail: { value: body.value, effectiveDay: body.effectiveDay }, at: ctx.clock.now() });
      return { items: [{ name: body.name, value: body.value, effectiveDay: body.effectiveDay }] };
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

  idempotentPost(
    app,
    ctx,
    PATHS.operatorUnbind,
    {
      tags,
      summary: 'Unbind a holder who is on a referral cycle the tree check found (audited)',
      body: UnbindBody,
      data: UnbindData,
      caller,
    },
    async ({ userId: operator, body }, trx) => {
      const userId = BigInt(body.userId);
      const { formerInviter, cycle, pathsRewritten } = await unbindFromCycle(trx, userId);
      const detail = { formerInviter: String(formerInviter), cycle: cycle.map(String), pathsRewritten };
      await audit(trx, { operatorId: operator, action: 'unbind', target: `user:${userId}`, detail, at: ctx.clock.now() });
      return { userId: String(userId), ...detail };
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
