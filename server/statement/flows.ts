import type { StatementFlow, StatementType } from '../../contract/statement.ts';

/**
 * An entry's flow for the holder (contract/statement.ts), from its statement type and `net`: the
 * sum of the holder's postings of one asset in the entry. Between the holder's own accounts it
 * is zero; otherwise the platform paid (income, rebates), money came from outside, or it left.
 */
export function flowOf(type: StatementType, net: bigint): StatementFlow {
  if (net === 0n) return 'internal';
  if (net < 0n) return 'out';
  return type === 'income' || type === 'rebate' ? 'earnings' : 'in';
}

/** An asset's month in the three flows that are not internal; with the opening they make the closing. */
export type FlowTotals = { moneyIn: bigint; earnings: bigint; moneyOut: bigint };

/** Sums entries (`net` each, of one asset) into the flows: the page's "Money in", "Earnings", "Money out". */
export function flowTotals(entries: readonly { type: StatementType; net: bigint }[]): FlowTotals {
  const totals: FlowTotals = { moneyIn: 0n, earnings: 0n, moneyOut: 0n };
  for (const { type, net } of entries) {
    const flow = flowOf(type, net);
    if (flow === 'in') totals.moneyIn += net;
    else if (flow === 'earnings') totals.earnings += net;
    else if (flow === 'out') totals.moneyOut += net;
  }
  return totals;
}
