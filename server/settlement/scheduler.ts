import type { FastifyBaseLogger } from 'fastify';
import type { Histogram } from 'prom-client';
import type { AppContext } from '../context.ts';
import { mergePastIncome } from '../income/days.ts';
import { mergePastPostings } from '../ledger/days.ts';
import { utcDay } from '../platform/clock.ts';
import { purgeExpired } from '../platform/housekeeping.ts';
import { repeat } from '../platform/repeat.ts';
import { runChecks } from './checks.ts';
import { settleDue } from './settle.ts';

/**
 * The figures the scheduler records. `operator/observability.ts`'s `Metrics` has them, passed in
 * by `main.ts`, so settlement imports nothing of operator.
 */
type SchedulerMetrics = { settlementSeconds: Histogram<'step'> };

/**
 * Looks for settlement work every interval: finished current cycles and finished days (and,
 * once a day, removes expired records and merges past days' partitions into weeks and
 * quarters). Any number of server processes may run it; the per-day lock and the keyed income
 * rows make sure each effect happens once.
 */
export function startScheduler(ctx: AppContext, log: FastifyBaseLogger, metrics: SchedulerMetrics): () => void {
  if (ctx.config.settlementIntervalMs <= 0) return () => {};
  let checked = false;
  let purgedOn = '';
  let merging: Promise<unknown> | undefined;
  return repeat(ctx.config.settlementIntervalMs, log, 'settlement failed; will retry', async () => {
    const stop = metrics.settlementSeconds.startTimer({ step: 'due' });
    const reports = await settleDue(ctx);
    stop();
    for (const report of reports) log.info({ settlement: report }, 'day settled');
    // The ledger check reads every posting: run it at start and after each settled day.
    if (!checked || reports.length > 0) {
      const { ledger: check, tree, incomeTotals } = await runChecks(ctx);
      if (!check.ok) log.error({ check }, 'LEDGER CHECK FAILED');
      if (incomeTotals > 0) log.error({ incomeTotals }, 'INCOME TOTALS CHECK FAILED: holders whose totals differ from their lines');
      if (!tree.ok) log.error({ tree }, 'TREE CHECK FAILED: stale paths, a referral cycle or self-paid rebates');
      checked = true;
    }
    // Housekeeping once a day per process; deleting what has expired twice is harmless.
    const today = utcDay(ctx.clock.now());
    if (purgedOn !== today) {
      log.info({ purged: await purgeExpired(ctx) }, 'expired records removed');
      purgedOn = today;
      // A merge copies a past week's or quarter's rows, long at scale: beside the loop, so
      // settlement does not wait.
      if (!merging) {
        merging = mergePastDays(ctx, today)
          .then((merged) => merged.length > 0 && log.info({ merged }, 'past days merged into weeks and quarters'))
          .catch((error: unknown) => log.error({ err: error }, 'merging past days failed; will retry tomorrow'))
          .finally(() => {
            merging = undefined;
          });
      }
    }
  });
}

/** Past days of `income` and `postings` merged into a partition per week, past quarters' into one per quarter. */
async function mergePastDays(ctx: AppContext, today: string): Promise<string[]> {
  return [...(await mergePastIncome(ctx.db, today)), ...(await mergePastPostings(ctx.db, today))];
}
