import { type Static, Type } from 'typebox';
import { AmountString } from './envelope.ts';
import { Asset } from './wallet.ts';

/**
 * Statements: every ledger movement of a holder (docs/statements.md). A movement is one posting
 * on one of the holder's accounts; its type names the journal entry it belongs to.
 */
export const STATEMENT_TYPES = [
  'income',
  'rebate',
  'unlock',
  'maturity',
  'subscription',
  'redemption',
  'claim',
  'recharge',
  'transfer',
  'withdrawal',
  'withdrawal_returned',
  'demo_funding',
  'system',
  'other',
] as const;
export type StatementType = (typeof STATEMENT_TYPES)[number];
const StatementTypeSchema = Type.Enum(STATEMENT_TYPES);

/**
 * What a movement's entry is to the holder, from what it moved between the holder and anyone
 * else (the sum of the holder's postings of the asset in the entry): `in` money from outside
 * (recharge, transfer in, a withdrawal the exchange sent back), `earnings` income and rebates
 * paid by the platform, `out` money that left (a withdrawal or transfer out once approved), and
 * `internal` money between the holder's own accounts (subscriptions, redemptions, claims, a
 * withdrawal waiting for review), which is neither in nor out.
 */
const STATEMENT_FLOWS = ['in', 'earnings', 'out', 'internal'] as const;
export type StatementFlow = (typeof STATEMENT_FLOWS)[number];

/** The CSV's columns, in order (its header line). */
export const STATEMENT_COLUMNS = [
  'time',
  'entry_id',
  'type',
  'account',
  'asset',
  'amount',
  'balance_after',
  'reference',
  'flow',
] as const;

export const Movement = Type.Object({
  time: Type.String({ description: 'UTC ISO 8601' }),
  entryId: Type.String(),
  type: StatementTypeSchema,
  account: Type.String(),
  asset: Asset,
  amount: AmountString,
  balanceAfter: AmountString,
  reference: Type.Union([Type.String(), Type.Null()]),
  flow: Type.Enum(STATEMENT_FLOWS),
});
export type Movement = Static<typeof Movement>;

const Totals = {
  opening: AmountString,
  credits: AmountString,
  debits: AmountString,
  closing: AmountString,
};

/** GET /api/statement/monthly */
export const MonthlyQuery = Type.Object({
  month: Type.Optional(
    Type.String({ pattern: '^\\d{4}-(0[1-9]|1[0-2])$', description: 'YYYY-MM (UTC); the current month by default' }),
  ),
  asset: Type.Optional(Asset),
  cursor: Type.Optional(Type.String({ maxLength: 80 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200 })),
});
export type MonthlyQuery = Static<typeof MonthlyQuery>;

/**
 * An asset's month over all the holder's accounts: opening + moneyIn + earnings + moneyOut =
 * closing, exactly. Money between the holder's own accounts is in none of the three (the
 * accounts' own credits and debits show it).
 */
export const AssetStatement = Type.Object({
  asset: Asset,
  opening: AmountString,
  /** Money from outside: recharges, transfers in, withdrawals sent back. */
  moneyIn: AmountString,
  /** Income and rebates the platform paid. */
  earnings: AmountString,
  /** Money that left, negative: approved withdrawals and transfers out. */
  moneyOut: AmountString,
  closing: AmountString,
  accounts: Type.Array(Type.Object({ account: Type.String(), ...Totals })),
});
export type AssetStatement = Static<typeof AssetStatement>;

export const MonthlyData = Type.Object({
  month: Type.String(),
  from: Type.String({ description: 'first moment of the month, UTC ISO 8601 (inclusive)' }),
  to: Type.String({ description: 'first moment of the next month (exclusive)' }),
  assets: Type.Array(AssetStatement),
  movements: Type.Array(Movement),
  nextCursor: Type.Union([Type.String(), Type.Null()]),
});
export type MonthlyData = Static<typeof MonthlyData>;
