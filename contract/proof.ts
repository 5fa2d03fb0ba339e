import { type Static, Type } from 'typebox';
import { AmountString } from './envelope.ts';
import { Asset } from './wallet.ts';

/**
 * Proof of liabilities (see docs/proof-of-liabilities.md): after each settled day, every
 * holder's balances go into a Merkle sum tree per asset; its root and total are published, and
 * each holder can download the path that ties their own leaf to that root.
 */

const Hex32 = Type.String({ pattern: '^[0-9a-f]{64}$', description: '32 bytes, lowercase hex' });
const Day = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'UTC day' });

/** GET /api/proof/root: the published roots of a day (the latest when no day is given). */
export const ProofRootQuery = Type.Object({ day: Type.Optional(Day) }, { additionalProperties: false });
export type ProofRootQuery = Static<typeof ProofRootQuery>;

export const PublishedRoot = Type.Object({
  asset: Asset,
  root: Hex32,
  total: AmountString,
  /** Holders with a positive balance in the asset: the tree's leaves. */
  holders: Type.Integer(),
});
export type PublishedRoot = Static<typeof PublishedRoot>;

export const ProofRootData = Type.Object({
  /** null until a first day has been settled and its tree built. */
  day: Type.Union([Day, Type.Null()]),
  builtAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  roots: Type.Array(PublishedRoot),
});
export type ProofRootData = Static<typeof ProofRootData>;

/** GET /api/proof/mine: the signed-in holder's own inclusion proof (the latest day by default). */
export const ProofMineQuery = Type.Object(
  { day: Type.Optional(Day), asset: Type.Optional(Asset) },
  { additionalProperties: false },
);
export type ProofMineQuery = Static<typeof ProofMineQuery>;

/** The leaf's balances: the holder's ledger accounts in that asset, in units of 1e-8 as decimals. */
const ProofBalances = Type.Object({
  wallet: AmountString,
  earning: AmountString,
  rewards: AmountString,
  lockedRewards: AmountString,
  networkRewards: AmountString,
  withdrawalsPending: AmountString,
});

const ProofStep = Type.Object({
  /** Which side the sibling is on when the two are hashed together. */
  side: Type.Union([Type.Literal('left'), Type.Literal('right')]),
  hash: Hex32,
  sum: AmountString,
});

export const InclusionProof = Type.Object({
  version: Type.Literal(1),
  day: Day,
  asset: Asset,
  root: Hex32,
  total: AmountString,
  leaf: Type.Object({
    userId: Type.String({ pattern: '^\\d{1,19}$' }),
    nonce: Hex32,
    balances: ProofBalances,
    sum: AmountString,
    hash: Hex32,
  }),
  /** Siblings from the leaf up to the root. */
  path: Type.Array(ProofStep),
});
export type InclusionProof = Static<typeof InclusionProof>;

/** In the operator's ledger report: the latest tree per asset against the ledger. */
export const ProofLedgerCheck = Type.Object({
  asset: Asset,
  day: Day,
  holders: Type.Integer(),
  total: AmountString,
  /** The user accounts' balances summed by the database in the same snapshot the tree was built from. */
  ledgerTotal: AmountString,
  /** The same accounts' balances now (money may have moved since). */
  ledgerNow: AmountString,
  matches: Type.Boolean(),
});
export type ProofLedgerCheck = Static<typeof ProofLedgerCheck>;
