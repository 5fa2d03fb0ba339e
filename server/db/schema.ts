import type { ColumnType } from 'kysely';
import type { OrderStatus, Product } from '../../contract/products.ts';

/** bigint columns come back as bigint (see db/connect.ts parsers); write bigint too. */
type Big = ColumnType<bigint, bigint | number | string, bigint | number | string>;
type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;

export type AccountKind =
  | 'wallet'
  | 'earning'
  | 'rewards'
  | 'locked_rewards'
  | 'exchange_wallet'
  | 'network_rewards'
  | 'treasury'
  | 'supercomputing_pool'
  | 'exchange'
  /** User 0: approved withdrawals and transfers out on their way to the exchange. */
  | 'exchange_clearing'
  | 'withdrawals_pending';

export type Asset = 'AIC' | 'USDT';

interface AccountsTable {
  /** 0 for system accounts; otherwise the owning user. Leads every key so it can be sharded. */
  user_id: Big;
  asset: Asset;
  kind: AccountKind;
  balance: Big;
  /** Only the outside-world counterpart may go below zero; the CHECK enforces the rest. */
  allow_negative: ColumnType<boolean, boolean | undefined, boolean>;
  /**
   * The account's figures for the latest month it moved in (migration 0038, kept by
   * ledger/balances.ts): the month's first moment (UTC), null until it first moves; whether they
   * hold every movement of that month (false for the month in which they began); its lowest entry
   * id; the credits and debits; and the money of entries that moved the holder's total in, as
   * earnings, or out, each such entry counted on one of its accounts.
   */
  month_start: ColumnType<Date | null, never, never>;
  month_known: ColumnType<boolean, never, never>;
  month_first_entry: ColumnType<bigint | null, never, never>;
  month_credits: ColumnType<bigint, never, never>;
  month_debits: ColumnType<bigint, never, never>;
  month_in: ColumnType<bigint, never, never>;
  month_earned: ColumnType<bigint, never, never>;
  month_out: ColumnType<bigint, never, never>;
  /** Every month of the account's life is kept: the row's, or `account_months`' (migration 0045). */
  history_known: ColumnType<boolean, never, never>;
}

/** An account's figures for a month it has moved on from (migration 0045), written by a trigger. */
interface AccountMonthsTable {
  user_id: Big;
  asset: Asset;
  kind: AccountKind;
  month_start: ColumnType<Date, never, never>;
  first_entry: ColumnType<bigint, never, never>;
  closing: ColumnType<bigint, never, never>;
  credits: ColumnType<bigint, never, never>;
  debits: ColumnType<bigint, never, never>;
  money_in: ColumnType<bigint, never, never>;
  earned: ColumnType<bigint, never, never>;
  money_out: ColumnType<bigint, never, never>;
}

interface JournalEntriesTable {
  id: ColumnType<bigint, never, never>;
  kind: string;
  ref: string | null;
  created_at: Timestamp;
}

interface PostingsTable {
  entry_id: Big;
  user_id: Big;
  asset: Asset;
  kind: AccountKind;
  amount: Big;
}

interface ParamsTable {
  name: string;
  /** The UTC day from which this value applies (inclusive). */
  effective_day: ColumnType<string, string, string>;
  value: string;
  created_at: Timestamp;
}

interface UsersTable {
  /** Assigned by the database; test data may give its own. */
  id: ColumnType<bigint, bigint | undefined, never>;
  subject: string;
  name: string;
  invite_code: string;
  inviter_id: ColumnType<bigint | null, bigint | null | undefined, bigint | null>;
  path: ColumnType<bigint[], bigint[] | undefined, bigint[]>;
  /** Generated from the path (migration 0033): its last entry, and its length. */
  parent: ColumnType<bigint | null, never, never>;
  depth: ColumnType<number, never, never>;
  created_at: Timestamp;
  /** When the inviter was bound (server clock); null until then. */
  bound_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

interface SessionsTable {
  user_id: Big;
  token_hash: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  last_seen_at: Timestamp;
  revoked_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  user_agent: string | null;
}

interface OauthStatesTable {
  state: string;
  code_verifier: string;
  nonce: string;
  redirect_uri: string;
  redirect_refer: string | null;
  created_at: Timestamp;
  expires_at: Timestamp;
  consumed_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

interface EmbeddedProviderTable {
  name: string;
  value: ColumnType<unknown, string, string>;
}

interface ExchangeAccountsTable {
  subject: string;
  name: string;
  created_at: Timestamp;
}

interface TransfersTable {
  id: ColumnType<bigint, never, never>;
  user_id: Big;
  type: 'recharge' | 'transfer_in' | 'transfer_out' | 'withdraw' | 'funding';
  asset: Asset;
  amount: Big;
  /** A funding's system account (user 0's treasury or pool); null for a holder's transfer. */
  account: ColumnType<'treasury' | 'supercomputing_pool' | null, 'treasury' | 'supercomputing_pool' | null | undefined, never>;
  /** The operator who asked for a funding (another approves it). */
  requested_by: ColumnType<bigint | null, bigint | null | undefined, never>;
  status: 'requested' | 'under_review' | 'sending' | 'unknown' | 'success' | 'failure';
  reason: string | null;
  created_at: Timestamp;
  reviewed_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  reviewed_by: ColumnType<bigint | null, bigint | null | undefined, bigint | null>;
  /** The platform's transfer id at the exchange (its idempotency key). */
  exchange_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** The Idempotency-Key of the request that started it: its answer is stored when it ends. */
  request_key: ColumnType<string | null, string | null | undefined, string | null>;
  /** Whose key it is: the holder's for a recharge, the approving operator's for a withdrawal. */
  request_user: ColumnType<bigint | null, bigint | null | undefined, bigint | null>;
  /** When the exchange applied or refused it: the day it is reconciled on. */
  exchange_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  /** Until when one process drives it to the exchange (real time); others leave it alone. */
  lease_until: ColumnType<Date | null, Date | null | undefined, Date | null>;
  attempts: ColumnType<number, number | undefined, number>;
}

interface ExchangeGrantsTable {
  user_id: Big;
  /** The holder's subject at the exchange. */
  subject: string;
  /** Encrypted (wallet/tokens.ts). */
  access_token: string;
  refresh_token: string | null;
  access_expires_at: Timestamp;
  updated_at: Timestamp;
}

interface ClockOffsetTable {
  id: ColumnType<number, number | undefined, never>;
  offset_ms: ColumnType<bigint, bigint, bigint>;
  version: ColumnType<bigint, never, bigint>;
  set_at: ColumnType<Date, Date | undefined, Date>;
}

export type HealthCheckName = 'ledger' | 'tree';

interface HealthChecksTable {
  name: HealthCheckName;
  ok: boolean;
  checked_at: ColumnType<Date, Date, Date>;
  detail: ColumnType<unknown, string | undefined, string>;
}

interface ReconciliationsTable {
  day: ColumnType<string, string, string>;
  differences: number;
  checked_at: Timestamp;
}

export type DifferenceKind = 'missing_at_exchange' | 'missing_on_platform' | 'amount' | 'status' | 'omnibus';

interface ReconciliationDifferencesTable {
  id: ColumnType<bigint, never, never>;
  day: ColumnType<string, string, string>;
  kind: DifferenceKind;
  transfer_id: string | null;
  asset: string | null;
  platform: ColumnType<unknown, string | null, string | null>;
  exchange: ColumnType<unknown, string | null, string | null>;
  found_at: Timestamp;
  resolved_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  resolved_by: ColumnType<bigint | null, bigint | null | undefined, bigint | null>;
  note: ColumnType<string | null, string | null | undefined, string | null>;
}

/** The embedded exchange's books (server/exchange): not the platform's. */
interface XcAccountsTable {
  subject: string;
  asset: Asset;
  balance: Big;
  allow_negative: ColumnType<boolean, boolean | undefined, boolean>;
}

interface XcTransfersTable {
  client_id: string;
  transfer_id: string;
  seq: ColumnType<bigint, never, never>;
  direction: 'debit' | 'credit' | 'funding';
  subject: string;
  asset: Asset;
  amount: Big;
  status: 'applied' | 'refused';
  reason: string | null;
  at: Timestamp;
}

interface XcPostingsTable {
  seq: ColumnType<bigint, never, never>;
  entry: string;
  subject: string;
  asset: Asset;
  amount: Big;
  at: Timestamp;
}

interface IdempotencyKeysTable {
  user_id: Big;
  key: string;
  request_hash: string;
  response_status: number | null;
  response_body: ColumnType<unknown, string | null | undefined, string | null>;
  created_at: Timestamp;
  /** When a claim-first effect's work was claimed (migration 0049); null for the others. */
  claimed_at: ColumnType<Date | null, Date | undefined, Date>;
}

interface ProviderStoreTable {
  model: string;
  id: string;
  payload: ColumnType<unknown, string, string>;
  grant_id: string | null;
  uid: string | null;
  user_code: string | null;
  expires_at: ColumnType<Date | null, Date | null, Date | null>;
  consumed_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

// The products and their statuses are the registry's (contract/products.ts).
export type { OrderStatus, Product };

type NullableDate = ColumnType<Date | null, Date | null | undefined, Date | null>;

interface OrdersTable {
  id: ColumnType<bigint, never, never>;
  user_id: Big;
  product: Product;
  principal: Big;
  income: ColumnType<bigint, bigint | undefined, bigint>;
  power: ColumnType<bigint, bigint | undefined, bigint>;
  coefficient: string | null;
  status: OrderStatus;
  reinvest: ColumnType<boolean, boolean | undefined, boolean>;
  start_day: string;
  created_at: Timestamp;
  cycle_start: NullableDate;
  cycles_paid: ColumnType<number, number | undefined, number>;
  matures_day: ColumnType<string | null, string | null | undefined, string | null>;
  closed_at: NullableDate;
  auto_renew: ColumnType<boolean, boolean | undefined, boolean>;
  renewed_from: ColumnType<bigint | null, bigint | null | undefined, bigint | null>;
  renewed_to: ColumnType<bigint | null, bigint | null | undefined, bigint | null>;
  /** What the latest settlement step added, for that step's own statement (migration 0031). */
  last_income: ColumnType<bigint | null, never, bigint | null>;
}

interface IncomeTable {
  user_id: Big;
  order_id: Big;
  day: string;
  kind: string;
  amount: Big;
  /** What the line was computed from, on lines written before migrations 0027 and 0028; the columns below hold it since (income/inputs.ts). */
  inputs: ColumnType<unknown, string | null | undefined, string | null>;
  power: ColumnType<bigint | null, bigint | null | undefined, bigint | null>;
  reinvest: ColumnType<boolean | null, boolean | null | undefined, boolean | null>;
  source: ColumnType<bigint | null, bigint | null | undefined, bigint | null>;
  rate: ColumnType<string | null, string | null | undefined, string | null>;
  generation: ColumnType<number | null, number | null | undefined, number | null>;
  level: ColumnType<number | null, number | null | undefined, number | null>;
  earner: ColumnType<bigint | null, bigint | null | undefined, bigint | null>;
  branch: ColumnType<bigint | null, bigint | null | undefined, bigint | null>;
  rate_from: ColumnType<string | null, string | null | undefined, string | null>;
  cycle: ColumnType<number | null, number | null | undefined, number | null>;
  /** The journal entry that paid the line and the account it paid into: the line is that entry's posting (ledger_postings). */
  entry_id: ColumnType<bigint | null, bigint | null | undefined, bigint | null>;
  account: ColumnType<AccountKind | null, AccountKind | null | undefined, AccountKind | null>;
  created_at: Timestamp;
}

interface DailyQuotaTable {
  user_id: Big;
  day: string;
  used: Big;
}

interface SettlementDaysTable {
  day: string;
  status: string;
  pool_output: ColumnType<bigint | null, bigint | null | undefined, bigint | null>;
  total_power: ColumnType<bigint | null, bigint | null | undefined, bigint | null>;
  pool_balance: ColumnType<bigint | null, bigint | null | undefined, bigint | null>;
  shortfall: string | null;
  started_at: Timestamp;
  finished_at: NullableDate;
  duration_ms: number | null;
  notice_id: ColumnType<bigint | null, bigint | null | undefined, bigint | null>;
  notice_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  /** The figures every static line of the day shares, as its inputs show them (income/inputs.ts). */
  static_inputs: ColumnType<unknown, string | null | undefined, string | null>;
  /** The principal of the 360-day orders sharing the day's output, and what their shares paid (migration 0046). */
  static_principal: ColumnType<bigint | null, bigint | null | undefined, bigint | null>;
  static_paid: ColumnType<bigint | null, bigint | null | undefined, bigint | null>;
}

interface TeamStatsTable {
  user_id: Big;
  day: string;
  active: Big;
  team_quantity: Big;
  team_count: number;
  direct_count: number;
  effective: boolean;
  level: number;
  /** The downline inside the recruitment activity's window (migration 0040). */
  window_direct: Big;
  window_direct_effective: Big;
  window_members: Big;
  window_effective: Big;
  window_quantity: Big;
}

/** The earning 360-day orders' total power, one row written by the day's `confirm` step (migration 0040). */
interface PoolPowerTable {
  one: ColumnType<boolean, never, never>;
  total: Big;
  as_of: string | null;
}

/** A holder's income to date by kind and, for rebates, branch (0 otherwise): migration 0037. */
interface IncomeTotalsTable {
  user_id: Big;
  kind: string;
  branch: Big;
  amount: Big;
}

interface LockupsTable {
  user_id: Big;
  day: string;
  amount: Big;
  unlockable: Big;
  unlock_percent: string;
  unlock_day: string;
  released_on: string | null;
}

interface OperatorAuditTable {
  id: ColumnType<bigint, never, never>;
  operator_id: Big;
  action: string;
  target: string | null;
  detail: ColumnType<unknown, string | undefined, string>;
  created_at: Timestamp;
}

/** Proof of liabilities (server/proof): each holder's secret nonce, created on first need. */
interface ProofNoncesTable {
  user_id: Big;
  nonce: Uint8Array;
  created_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

interface ProofRootsTable {
  day: string;
  asset: Asset;
  root: Uint8Array;
  total: Big;
  holders: number;
  ledger_total: Big;
  /** The chunk height the day was built with: its stored levels start above chunks of 2^chunk_bits leaves. */
  chunk_bits: number;
  built_at: Timestamp;
}

interface ProofLeavesTable {
  user_id: Big;
  day: string;
  asset: Asset;
  position: number;
  wallet: Big;
  earning: Big;
  rewards: Big;
  locked_rewards: Big;
  network_rewards: Big;
  withdrawals_pending: Big;
  /** The leaf's hash as the build made it (migration 0044); null on days built before. */
  hash: Uint8Array | null;
}

interface ProofNodesTable {
  day: string;
  asset: Asset;
  level: number;
  idx: number;
  hash: Uint8Array;
  sum: Big;
}

interface NotificationsTable {
  user_id: Big;
  id: ColumnType<bigint, never, never>;
  kind: string;
  key: string;
  params: ColumnType<unknown, string, string>;
  created_at: Timestamp;
  read_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

interface NoticeMarksTable {
  user_id: Big;
  read_to: Big;
}

interface PushSubscriptionsTable {
  user_id: Big;
  id: ColumnType<bigint, never, never>;
  endpoint: string;
  p256dh: string;
  auth: string;
  language: string;
  after_id: Big;
  created_at: Timestamp;
}

interface PushDeliveriesTable {
  user_id: Big;
  subscription_id: Big;
  notification_id: Big;
  claimed_at: ColumnType<Date, Date | undefined, Date>;
  status: ColumnType<number | null, number | null | undefined, number | null>;
}

interface PushKeysTable {
  id: ColumnType<boolean, boolean | undefined, boolean>;
  public_key: string;
  private_key: string;
  created_at: ColumnType<Date, Date | undefined, Date>;
}

export interface Database {
  notifications: NotificationsTable;
  notice_marks: NoticeMarksTable;
  push_subscriptions: PushSubscriptionsTable;
  push_deliveries: PushDeliveriesTable;
  push_keys: PushKeysTable;
  proof_nonces: ProofNoncesTable;
  proof_roots: ProofRootsTable;
  proof_leaves: ProofLeavesTable;
  proof_nodes: ProofNodesTable;
  operator_audit: OperatorAuditTable;
  team_stats: TeamStatsTable;
  pool_power: PoolPowerTable;
  lockups: LockupsTable;
  orders: OrdersTable;
  income: IncomeTable;
  income_totals: IncomeTotalsTable;
  daily_quota: DailyQuotaTable;
  settlement_days: SettlementDaysTable;
  provider_store: ProviderStoreTable;
  transfers: TransfersTable;
  exchange_grants: ExchangeGrantsTable;
  reconciliations: ReconciliationsTable;
  clock_offset: ClockOffsetTable;
  health_checks: HealthChecksTable;
  reconciliation_differences: ReconciliationDifferencesTable;
  xc_accounts: XcAccountsTable;
  xc_transfers: XcTransfersTable;
  xc_postings: XcPostingsTable;
  idempotency_keys: IdempotencyKeysTable;
  users: UsersTable;
  sessions: SessionsTable;
  oauth_states: OauthStatesTable;
  embedded_provider: EmbeddedProviderTable;
  exchange_accounts: ExchangeAccountsTable;
  accounts: AccountsTable;
  account_months: AccountMonthsTable;
  journal_entries: JournalEntriesTable;
  postings: PostingsTable;
  /** Every amount the books moved: the rows of `postings` and settlement's income lines that name an entry (migration 0032). */
  ledger_lines: PostingsTable;
  /** Every posting: ledger_lines merged per entry and account. */
  ledger_postings: PostingsTable;
  params: ParamsTable;
}
