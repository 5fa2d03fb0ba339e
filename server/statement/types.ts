import type { StatementType } from '../../contract/statement.ts';

/**
 * The statement type of every journal entry kind the ledger posts. Settlement entries share one
 * kind; their reference ("settlement:<day>:<step>") says whether they paid income or rebates.
 */
const BY_KIND: Record<string, StatementType> = {
  subscribe: 'subscription',
  redeem: 'redemption',
  term_end: 'maturity',
  claim: 'claim',
  claim_network: 'claim',
  unlock: 'unlock',
  recharge: 'recharge',
  transfer_in: 'transfer',
  transfer_out: 'transfer',
  withdraw: 'withdrawal',
  transfer_approved: 'withdrawal',
  transfer_rejected: 'withdrawal_returned',
  // The exchange refused an approved withdrawal: back to the wallet. Once sent, nothing of the holder's moves.
  transfer_returned: 'withdrawal_returned',
  transfer_sent: 'system',
  demo_funding: 'demo_funding',
  seed: 'system',
  fund: 'system',
};

/** Settlement steps (server/settlement, server/team) and what they pay. */
const SETTLEMENT_STEPS: Record<string, StatementType> = {
  current: 'income',
  fixed: 'income',
  static: 'income',
  rebate: 'rebate',
};

/** Every entry kind the ledger is known to post (a test checks each maps to a real type). */
export const KNOWN_ENTRY_KINDS: readonly string[] = [...Object.keys(BY_KIND), 'settlement'];

/** A movement's type from its entry's kind and reference; an unknown kind is "other". */
export function statementType(kind: string, ref: string | null): StatementType {
  if (kind === 'settlement') {
    const step = ref?.split(':')[2] ?? '';
    return SETTLEMENT_STEPS[step] ?? 'income';
  }
  return BY_KIND[kind] ?? 'other';
}
