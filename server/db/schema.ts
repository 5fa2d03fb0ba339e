import type { ColumnType } from 'kysely';

/** bigint columns come back as bigint (see db/connect.ts parsers); write bigint too. */
type Big = ColumnType<bigint, bigint | number | string, bigint | number | string>;
type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;

export type AccountKind =
  | 'wallet'
  | 'earning'
  | 'rewards'
  | 'locked_rewards'
  | 'exchange_wallet'
  | 'treasury'
  | 'supercomputing_pool'
  | 'exchange'
  | 'withdrawals_pending';

export type Asset = 'AIC' | 'USDT';

export interface AccountsTable {
  /** 0 for system accounts; otherwise the owning user. Leads every key so it can be sharded. */
  user_id: Big;
  asset: Asset;
  kind: AccountKind;
  balance: Big;
  /** Only the outside-world counterpart may go below zero; the CHECK enforces the rest. */
  allow_negative: ColumnType<boolean, boolean | undefined, boolean>;
}

export interface JournalEntriesTable {
  id: ColumnType<bigint, never, never>;
  kind: string;
  ref: string | null;
  created_at: Timestamp;
}

export interface PostingsTable {
  entry_id: Big;
  user_id: Big;
  asset: Asset;
  kind: AccountKind;
  amount: Big;
}

export interface ParamsTable {
  name: string;
  /** The UTC day from which this value applies (inclusive). */
  effective_day: ColumnType<string, string, string>;
  value: string;
  created_at: Timestamp;
}

export interface Database {
  accounts: AccountsTable;
  journal_entries: JournalEntriesTable;
  postings: PostingsTable;
  params: ParamsTable;
}
