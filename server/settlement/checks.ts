import type { AppContext } from '../context.ts';
import { checkLedger } from '../ledger/ledger.ts';
import { recordCheck } from '../platform/healthChecks.ts';
import { checkTree } from '../team/tree.ts';
import { incomeTotalsMismatched } from '../income/totals.ts';

/**
 * The ledger check (every asset sums to zero, no balance negative) and the tree check (no stale
 * path, cycle or self-paid rebate), with their results kept for the alerting gauges; and how many
 * holders' income totals differ from their lines (logged: they are what the My screen shows).
 */
export async function runChecks(ctx: AppContext) {
  const [ledger, tree, incomeTotals] = await Promise.all([checkLedger(ctx.db), checkTree(ctx.db), incomeTotalsMismatched(ctx.db)]);
  const at = ctx.clock.now();
  await recordCheck(ctx.db, 'ledger', ledger.ok, at, { assetSums: ledger.assetSums, negativeUserAccounts: ledger.negativeUserAccounts });
  await recordCheck(ctx.db, 'tree', tree.ok, at, { stalePaths: tree.stalePaths, cycles: tree.cycles.length, selfRebateLines: tree.selfRebateLines });
  return { ledger, tree, incomeTotals };
}
