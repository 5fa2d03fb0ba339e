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

export const AssetStatement = Type.Object({
  asset: Asset,
  ...Totals,
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
