import { sql, type Transaction } from 'kysely';
import type { Db } from '../db/connect.ts';
import type { AccountKind, Asset, Database } from '../db/schema.ts';
import { sqlStateOf } from '../db/failures.ts';
import { applyToBalances, monthOf } from './balances.ts';

/** System accounts belong to user 0. */
export const SYSTEM = 0n;

export type AccountKey = { userId: bigint; asset: Asset; kind: AccountKind };
type Posting = AccountKey & { amount: bigint };
/** `at` is the moment of the movement from the app's clock (statements are dated by it); without
 * it the database's own time is used. */
export type EntryInput = { kind: string; ref?: string | null; at?: Date; postings: Posting[] };

/** Thrown when a posting would take a balance below zero; the HTTP layer maps it to a4. */
export class InsufficientBalance extends Error {
  constructor() {
    super('insufficient balance');
  }
}

const keyOf = (p: AccountKey) => `${p.userId}|${p.asset}|${p.kind}`;

const compare = <T>(a: T, b: T) => (a < b ? -1 : a > b ? 1 : 0);

/** Key order: user id as a number, then asset and kind in byte order, as `applyToBalances`
 * (balances.ts) orders its rows, so every writer locks accounts in the same order. */
const byKey = (a: AccountKey, b: AccountKey) =>
  compare(a.userId, b.userId) || compare(a.asset, b.asset) || compare(a.kind, b.kind);

function assertBalanced(postings: Posting[]): void {
  const sums = new Map<Asset, bigint>();
  for (const p of postings) {
    if (p.amount === 0n) throw new Error('a posting of zero');
    sums.set(p.asset, (sums.get(p.asset) ?? 0n) + p.amount);
  }
  for (const [asset, sum] of sums) {
    if (sum !== 0n) throw new Error(`entry does not balance for ${asset}: ${sum}`);
  }
}

/**
 * Posts one journal entry inside the caller's transaction: the entry, its postings, and the
 * balance of every account it touches, all or nothing. The balances move in one statement, in a
 * fixed (key) order, so two movements over the same accounts cannot deadlock.
 */
export async function postEntry(trx: Transaction<Database>, input: EntryInput): Promise<bigint> {
  assertBalanced(input.postings);
  const merged = new Map<string, Posting>();
  for (const p of input.postings) {
    const prev = merged.get(keyOf(p));
    merged.set(keyOf(p), prev ? { ...prev, amount: prev.amount + p.amount } : { ...p });
  }
  const ordered = [...merged.values()]
    .filter((p) => p.amount !== 0n)
    .sort(byKey);

  const entry = await trx
    .insertInto('journal_entries')
    .values({ kind: input.kind, ref: input.ref ?? null, ...(input.at ? { created_at: input.at } : {}) })
    .returning(['id', 'created_at'])
    .executeTakeFirstOrThrow();

  await applyPostings(trx, { id: entry.id, kind: input.kind, at: entry.created_at }, ordered);

  await trx
    .insertInto('postings')
    .values(
      ordered.map((p) => ({
        entry_id: entry.id,
        user_id: p.userId,
        asset: p.asset,
        kind: p.kind,
        amount: p.amount,
      })),
    )
    .execute();
  return entry.id;
}

/**
 * Each user's net in the entry per asset, on the first of its postings (key order) and 0 on the
 * others: what `applyToBalances` counts as money in, earnings or out.
 */
function netsOf(ordered: Posting[]): bigint[] {
  const holding = (p: Posting) => `${p.userId}|${p.asset}`;
  const sums = new Map<string, bigint>();
  for (const p of ordered) sums.set(holding(p), (sums.get(holding(p)) ?? 0n) + p.amount);
  const seen = new Set<string>();
  return ordered.map((p) => {
    const key = holding(p);
    if (seen.has(key)) return 0n;
    seen.add(key);
    return sums.get(key) ?? 0n;
  });
}

/**
 * Every balance of the entry in one statement, `applyToBalances` (balances.ts), the one the
 * batch form and `ledger_move` run: rows in key order, credits create accounts, debits under the
 * CHECK, so the database refuses an overdraft (or a debit of a missing account) with SQLSTATE
 * 23514, answered here as `InsufficientBalance`.
 */
async function applyPostings(trx: Transaction<Database>, entry: { id: bigint; kind: string; at: Date }, ordered: Posting[]): Promise<void> {
  const nets = netsOf(ordered);
  const rows = ordered.map(
    (p, i) =>
      sql`(${p.userId}::bigint, ${p.asset}::text, ${p.kind}::text, ${p.amount}::bigint, ${nets[i] ?? 0n}::bigint)`,
  );
  const source = `(select v.*, ${monthOf('e.at')} as month, e.id as entry_id, e.kind as entry_kind from v cross join e) l`;
  try {
    await sql`with v (user_id, asset, kind, amount, net) as (values ${sql.join(rows)}),
      e (id, kind, at) as (values (${entry.id}::bigint, ${entry.kind}::text, ${entry.at}::timestamptz))
      ${sql.raw(applyToBalances(source))}`.execute(trx);
  } catch (error) {
    if (isCheckViolation(error)) throw new InsufficientBalance();
    throw error;
  }
}

/** SQLSTATE 23514: a CHECK refused the row (here: `balance_not_negative`). */
export function isCheckViolation(error: unknown): boolean {
  return sqlStateOf(error) === '23514';
}

/** One account's balance (zero when it has never been touched). */
export async function balanceOf(db: Db | Transaction<Database>, key: AccountKey): Promise<bigint> {
  const row = await db
    .selectFrom('accounts')
    .select('balance')
    .where('user_id', '=', key.userId)
    .where('asset', '=', key.asset)
    .where('kind', '=', key.kind)
    .executeTakeFirst();
  return row?.balance ?? 0n;
}

/**
 * A claim: the whole AIC balance of one of the holder's accounts into their wallet, as one entry
 * of `kind`. Null when there is nothing to move (the caller refuses the claim).
 */
export async function sweepToWallet(
  trx: Transaction<Database>,
  claim: { userId: bigint; from: 'rewards' | 'network_rewards'; kind: string; at: Date },
): Promise<{ amount: bigint; entryId: bigint } | null> {
  const { userId, from } = claim;
  const amount = await balanceOf(trx, { userId, asset: 'AIC', kind: from });
  if (amount <= 0n) return null;
  const entryId = await postEntry(trx, {
    kind: claim.kind,
    ref: `claim:${userId}`,
    at: claim.at,
    postings: [
      { userId, asset: 'AIC', kind: from, amount: -amount },
      { userId, asset: 'AIC', kind: 'wallet', amount },
    ],
  });
  return { amount, entryId };
}

export type LedgerCheck = {
  ok: boolean;
  assetSums: Record<string, string>;
  negativeUserAccounts: number;
  accountsNotMatchingPostings: number;
};

/** The ledger's own check: every asset sums to zero, no user balance is negative, and every
 * balance equals the sum of its postings. */
export async function checkLedger(db: Db): Promise<LedgerCheck> {
  const sums = await db
    .selectFrom('accounts')
    .select(['asset', sql<bigint>`coalesce(sum(balance), 0)`.as('total')])
    .groupBy('asset')
    .execute();
  const negatives = await db
    .selectFrom('accounts')
    .select(sql<bigint>`count(*)`.as('n'))
    .where('balance', '<', 0n)
    .where('allow_negative', '=', false)
    .executeTakeFirstOrThrow();
  const mismatched = await sql<{ n: bigint }>`
    select count(*) as n from accounts a
    full join (select user_id, asset, kind, sum(amount) as total from ledger_lines
               group by user_id, asset, kind) p
      using (user_id, asset, kind)
    where coalesce(a.balance, 0) <> coalesce(p.total, 0)`.execute(db);
  const assetSums = Object.fromEntries(sums.map((s) => [s.asset, s.total.toString()]));
  const negativeUserAccounts = Number(negatives.n);
  const accountsNotMatchingPostings = Number(mismatched.rows[0]?.n ?? 0n);
  const ok =
    sums.every((s) => s.total === 0n) && negativeUserAccounts === 0 && accountsNotMatchingPostings === 0;
  return { ok, assetSums, negativeUserAccounts, accountsNotMatchingPostings };
}
