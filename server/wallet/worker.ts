import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../context.ts';
import { repeat } from '../platform/repeat.ts';
import type { Exchange } from './exchange.ts';
import { reconcileDue } from './reconcile.ts';
import { resumeTransfers } from './transfers.ts';

/**
 * Drives every unfinished transfer to a final state, every TRANSFER_WORKER_INTERVAL_MS, on every
 * process: a transfer's lease lets one process at a time drive it (transfers.ts). The process
 * that runs the scheduler also reconciles each ended day with the exchange.
 */
export function startTransferWorker(
  ctx: AppContext,
  exchange: Exchange,
  log: FastifyBaseLogger,
  options: { reconcile: boolean },
): () => void {
  if (ctx.config.transferWorkerIntervalMs <= 0) return () => {};
  return repeat(ctx.config.transferWorkerIntervalMs, log, 'transfer worker failed; will retry', async () => {
    const { resumed, finished } = await resumeTransfers(ctx.db, exchange);
    if (resumed > 0) log.info({ resumed, finished }, 'unfinished transfers driven');
    if (!options.reconcile) return;
    for (const { day, differences } of await reconcileDue(ctx.db, exchange.client, ctx.clock.now())) {
      if (differences) log.error({ day, differences }, 'RECONCILIATION: the exchange and the platform differ');
      else log.info({ day }, 'day reconciled with the exchange');
    }
  });
}
