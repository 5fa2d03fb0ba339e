import { type Static, Type } from 'typebox';
import { ProofLedgerCheck } from './proof.ts';
import { PARAM_NAMES } from './params.ts';

const DayReport = Type.Object({
  day: Type.String(),
  status: Type.String({ description: 'done, waiting_funds or already_done' }),
  fixed: Type.Integer(),
  staticRows: Type.Integer(),
  current: Type.Integer({ description: "current orders' cycles that ended by the day's end, paid with it" }),
  rebates: Type.Integer(),
  released: Type.Integer(),
  matured: Type.Integer({ description: '30-day orders that reached maturity' }),
  renewed: Type.Integer({ description: 'of them, those that renewed themselves (auto-renew)' }),
  ended: Type.Integer(),
  shortfall: Type.Union([Type.String(), Type.Null()]),
  durationMs: Type.Integer(),
});

export const SettleBody = Type.Object({
  day: Type.Optional(Type.String({ format: 'date', description: 'A finished UTC day; omitted: everything due' })),
});
export type SettleBody = Static<typeof SettleBody>;

export const SettleData = Type.Object({ now: Type.String({ format: 'date-time' }), reports: Type.Array(DayReport) });
export type SettleData = Static<typeof SettleData>;

export const ClockAdvanceBody = Type.Object({
  days: Type.Integer({ minimum: 1, maximum: 400 }),
});
export type ClockAdvanceBody = Static<typeof ClockAdvanceBody>;

export const FundBody = Type.Object({
  account: Type.Union([Type.Literal('treasury'), Type.Literal('supercomputing_pool')]),
  asset: Type.Union([Type.Literal('AIC'), Type.Literal('USDT')]),
  amount: Type.String({ maxLength: 64 }),
});
export type FundBody = Static<typeof FundBody>;

export { PARAM_NAMES };
export const ParamBody = Type.Object({
  name: Type.Union(PARAM_NAMES.map((n) => Type.Literal(n)) as [ReturnType<typeof Type.Literal>]),
  value: Type.String({ minLength: 1, maxLength: 200 }),
  effectiveDay: Type.String({ format: 'date' }),
});
export type ParamBody = { name: string; value: string; effectiveDay: string };
const ParamItems = Type.Array(Type.Object({ name: Type.String(), value: Type.String(), effectiveDay: Type.String() }));
export const ParamsData = Type.Object({ items: ParamItems });
/**
 * GET /api/operator/params: every stored version, and each parameter's configured default (what
 * is in force on a day before its first stored version), so the console can say the value in force.
 */
export const ParamListData = Type.Object({
  items: ParamItems,
  defaults: Type.Record(Type.String(), Type.String(), { description: "Each parameter's configured default, by name" }),
});
export type ParamListData = Static<typeof ParamListData>;

const TreeCheckData = Type.Object({
  ok: Type.Boolean(),
  /** Holders whose stored path is not their inviter's path plus the inviter. */
  stalePaths: Type.Integer(),
  staleSample: Type.Array(Type.String()),
  /** Referral cycles, each as its members' ids: an operator unbinds one member. */
  cycles: Type.Array(Type.Array(Type.String())),
  /** Rebate lines paying a holder on their own static earnings. */
  selfRebateLines: Type.Integer(),
});

/** Unbind a holder who is on a referral cycle (the only unbinding there is). */
export const UnbindBody = Type.Object({ userId: Type.String({ pattern: '^[1-9][0-9]{0,17}$' }) });
export type UnbindBody = Static<typeof UnbindBody>;
export const UnbindData = Type.Object({
  userId: Type.String(),
  formerInviter: Type.String(),
  /** The cycle as it was, from the unbound holder upward. */
  cycle: Type.Array(Type.String()),
  /** Paths written again below the holder. */
  pathsRewritten: Type.Integer(),
});
export type UnbindData = Static<typeof UnbindData>;

export const LedgerCheckData = Type.Object({
  ok: Type.Boolean(),
  assetSums: Type.Record(Type.String(), Type.String()),
  negativeUserAccounts: Type.Integer(),
  accountsNotMatchingPostings: Type.Integer(),
  coverage: Type.Object({
    treasury: Type.String(),
    pool: Type.String(),
    /** Fixed-term interest the treasury will pay tomorrow. */
    fixedNextDay: Type.String(),
    /** Days of fixed-term interest the treasury covers at that pace. */
    treasuryDays: Type.Union([Type.Integer(), Type.Null()]),
    covered: Type.Boolean(),
  }),
  days: Type.Array(Type.Object({ day: Type.String(), status: Type.String(), shortfall: Type.Union([Type.String(), Type.Null()]) })),
  /** The latest proof of liabilities per asset against the ledger (empty before the first). */
  proofs: Type.Array(ProofLedgerCheck),
  /** The referral tree's own check (its failures turn `ok` red too). */
  tree: TreeCheckData,
});
export type LedgerCheckData = Static<typeof LedgerCheckData>;

export const AuditData = Type.Object({
  items: Type.Array(
    Type.Object({
      id: Type.String(),
      operatorId: Type.String(),
      action: Type.String(),
      target: Type.Union([Type.String(), Type.Null()]),
      detail: Type.Record(Type.String(), Type.Unknown()),
      createdAt: Type.String({ format: 'date-time' }),
    }),
  ),
});
export type AuditData = Static<typeof AuditData>;
