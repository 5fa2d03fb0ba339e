import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../context.ts';
import { settleDue } from './settle.ts';

/**
 * Looks for settlement work every interval: finished current cycles and finished days. Any
 * number of server processes may run it; the per-day lock and the keyed income rows make sure
 * each effect happens once.
 */
export function startScheduler(ctx: AppContext, log: FastifyBaseLogger): () => void {
  if (ctx.config.settlementIntervalMs <= 0) return () => {};
  let running = false;
  const tick = async () => {
    if (running) return;
    running = true;
    try {
      const reports = await settleDue(ctx);
      for (const report of reports) log.info({ settlement: report }, 'day settled');
    } catch (error) {
      log.error({ err: error }, 'settlement failed; will retry');
    } finally {
      running = false;
    }
  };
  const timer = setInterval(() => void tick(), ctx.config.settlementIntervalMs);
  timer.unref();
  void tick();
  return () => clearInterval(timer);
}
