import { sql, type Transaction } from 'kysely';
import type { Db } from '../db/connect.ts';
import type { AccountKind, Asset, Database } from '../db/schema.ts';
import { sqlStateOf } from '../db/failures.ts';

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

/** Only the outside world's counterpart may go negative: it is where money enters the books. */
const mayGoNegative = (key: AccountKey) => key.userId === SYSTEM && key.kind === 'exchange';

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
 * balance of every account it touches, all or nothing. Accounts are updated one by one in a
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
    .returning('id')
    .executeTakeFirstOrThrow();

  for (const posting of ordered) await applyPosting(trx, posting);

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
 * A credit creates the account if needed; a debit is an update the CHECK constraint guards, so
 * the database refuses an overdraft. (An upsert cannot debit: PostgreSQL checks the proposed
 * new row, negative, before it sees the conflict.)
 */
async function applyPosting(trx: Transaction<Database>, p: Posting): Promise<void> {
  if (p.amount > 0n || mayGoNegative(p)) {
    await trx
      .insertInto('accounts')
      .values({ user_id: p.userId, asset: p.asset, kind: p.kind, balance: p.amount, allow_negative: mayGoNegative(p) })
      .onConflict((oc) =>
        oc.columns(['user_id', 'asset', 'kind']).doUpdateSet({ balance: sql`accounts.balance + excluded.balance` }),
      )
      .execute();
    return;
  }
  try {
    const result = await trx
      .updateTable('accounts')
      .set({ balance: sql`balance + ${p.amount}` })
      .where('user_id', '=', p.userId)
      .where('asset', '=', p.asset)
      .where('kind', '=', p.kind)
      .executeTakeFirst();
    if (result.numUpdatedRows === 0n) throw new InsufficientBalance();
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
