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
