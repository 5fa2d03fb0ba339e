import { BALANCE_KINDS, type BalanceKind } from './merkle.ts';

/**
 * What a holder owns, per asset: the ledger accounts the platform owes them, the same as their
 * leaf in the proof of liabilities commits to (contract/merkle.ts, in the leaf's order). The
 * Wallet's total, the statement's closing balance and the proof are each this one sum
 * (PRODUCT.md, "What a holder owns").
 */
const OWNED_ACCOUNTS = {
  wallet: 'wallet',
  earning: 'earning',
  rewards: 'rewards',
  lockedRewards: 'locked_rewards',
  networkRewards: 'network_rewards',
  withdrawalsPending: 'withdrawals_pending',
} as const satisfies Record<BalanceKind, string>;

export type OwnedAccount = (typeof OWNED_ACCOUNTS)[BalanceKind];

/** The owned accounts' ledger kinds, in the leaf's order. */
export const OWNED_KINDS: readonly OwnedAccount[] = BALANCE_KINDS.map((kind) => OWNED_ACCOUNTS[kind]);
