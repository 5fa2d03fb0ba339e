import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { PATHS } from '../../contract/paths.ts';
import { ReconciliationData, ResolveBody, ResolveParams } from '../../contract/wallet.ts';
import type { AppContext } from '../context.ts';
import { AppError } from '../http/errors.ts';
import { idempotentPost } from '../http/idempotentPost.ts';
import { answers, ok } from '../http/schemas.ts';
import { audit } from '../operator/audit.ts';
import { operatorIdOf } from '../operator/guard.ts';
import { lastReconciledDay, openDifferences } from './reconcile.ts';

const secured = { security: [{ bearer: [] }] };

/** The operators' view of reconciliation: the open differences, and resolving one with a note (audited). */
export const reconcileRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get(
    PATHS.operatorReconciliation,
    {
      schema: {
        tags: ['operator'],
        summary: 'Differences between the platform’s transfers and the exchange’s, not yet resolved',
        ...secured,
        response: answers(ReconciliationData),
      },
    },
    async (request) => {
      operatorIdOf(ctx, request);
      return ok({ lastDay: await lastReconciledDay(ctx.db), open: await openDifferences(ctx.db) });
    },
  );

  idempotentPost(
    app,
    ctx,
    PATHS.operatorResolveDifference,
    {
      tags: ['operator'],
      summary: 'Resolve a reconciliation difference, saying what was found and done',
      params: ResolveParams,
      body: ResolveBody,
      data: Type.Object({ id: Type.String() }),
      caller: (request) => operatorIdOf(ctx, request),
    },
    async ({ userId: operator, params, body }, trx) => {
      const id = BigInt(params.id);
      const note = body.note.trim();
      const now = ctx.clock.now();
      const resolved = await trx
        .updateTable('reconciliation_differences')
        .set({ resolved_at: now, resolved_by: operator, note })
        .where('id', '=', id)
        .where('resolved_at', 'is', null)
        .returning(['id', 'day', 'kind', 'transfer_id', 'asset'])
        .executeTakeFirst();
      if (!resolved) throw new AppError('DIFFERENCE_NONE');
      await audit(trx, {
        operatorId: operator,
        action: 'resolve_difference',
        target: `difference:${id}`,
        detail: { day: String(resolved.day), kind: resolved.kind, transferId: resolved.transfer_id, asset: resolved.asset, note },
        at: now,
      });
      return { id: String(id) };
    },
  );
};
