import type { Transaction } from 'kysely';
import type { TransferRecord, TransferRecordsQuery, TransferStatus, TransferType } from '../../contract/wallet.ts';
import { formatUnits } from '../../contract/money.ts';
import type { Db } from '../db/connect.ts';
import type { Asset, Database } from '../db/schema.ts';

type Executor = Db | Transaction<Database>;

const COLUMNS = ['id', 'user_id', 'type', 'asset', 'amount', 'status', 'reason', 'created_at', 'reviewed_at'] as const;

type Row = {
  id: bigint;
  user_id: bigint;
  type: TransferType;
  asset: Asset;
  amount: bigint;
  status: TransferStatus;
  reason: string | null;
  created_at: Date;
  reviewed_at: Date | null;
};

export const toRecord = (row: Row): TransferRecord => ({
  id: String(row.id),
  type: row.type,
  asset: row.asset,
  amount: formatUnits(row.amount),
  status: row.status,
  reason: row.reason,
  createdAt: row.created_at.toISOString(),
  reviewedAt: row.reviewed_at?.toISOString() ?? null,
});

export async function insertTransfer(
  trx: Transaction<Database>,
  input: { userId: bigint; type: TransferType; asset: Asset; amount: bigint; status: TransferStatus; now: Date },
): Promise<Row> {
  return trx
    .insertInto('transfers')
    .values({
      user_id: input.userId,
      type: input.type,
      asset: input.asset,
      amount: input.amount,
      status: input.status,
      created_at: input.now,
      reviewed_at: input.status === 'under_review' ? null : input.now,
    })
    .returning(COLUMNS)
    .executeTakeFirstOrThrow();
}

/** A transfer under review, locked for the reviewer's transaction. */
export async function lockPendingTransfer(trx: Transaction<Database>, id: bigint): Promise<Row | undefined> {
  return trx
    .selectFrom('transfers')
    .select(COLUMNS)
    .where('id', '=', id)
    .where('status', '=', 'under_review')
    .forUpdate()
    .executeTakeFirst();
}

export async function transferExists(db: Executor, id: bigint): Promise<boolean> {
  return Boolean(await db.selectFrom('transfers').select('id').where('id', '=', id).executeTakeFirst());
}

export async function closeTransfer(
  trx: Transaction<Database>,
  row: Row,
  outcome: { status: 'success' | 'failure'; reason: string | null; reviewer: bigint; now: Date },
): Promise<Row> {
  return trx
    .updateTable('transfers')
    .set({ status: outcome.status, reason: outcome.reason, reviewed_at: outcome.now, reviewed_by: outcome.reviewer })
    .where('user_id', '=', row.user_id)
    .where('id', '=', row.id)
    .returning(COLUMNS)
    .executeTakeFirstOrThrow();
}

/** A user's movements, newest first, one page after the cursor. */
export async function listTransfers(
  db: Db,
  userId: bigint,
  query: TransferRecordsQuery,
): Promise<{ items: TransferRecord[]; nextCursor: string | null }> {
  const limit = query.limit ?? 20;
  let q = db.selectFrom('transfers').select(COLUMNS).where('user_id', '=', userId);
  if (query.type) q = q.where('type', '=', query.type);
  if (query.from) q = q.where('created_at', '>=', new Date(query.from));
  if (query.to) q = q.where('created_at', '<', new Date(query.to));
  if (query.cursor) q = q.where('id', '<', BigInt(query.cursor));
  const rows = await q.orderBy('id', 'desc').limit(limit + 1).execute();
  const page = rows.slice(0, limit);
  const more = rows.length > limit;
  return { items: page.map(toRecord), nextCursor: more ? String(page.at(-1)?.id) : null };
}

export async function reviewQueue(db: Db, limit = 100) {
  const rows = await db
    .selectFrom('transfers')
    .select(COLUMNS)
    .where('status', '=', 'under_review')
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map((row) => ({ ...toRecord(row), userId: String(row.user_id) }));
}

export type WalletBalances = Record<Asset, { available: bigint; pending: bigint; exchange: bigint }>;

/** The user's wallet, pending and exchange balances per asset, in one read. */
export async function walletBalances(db: Executor, userId: bigint): Promise<WalletBalances> {
  const rows = await db
    .selectFrom('accounts')
    .select(['asset', 'kind', 'balance'])
    .where('user_id', '=', userId)
    .where('kind', 'in', ['wallet', 'withdrawals_pending', 'exchange_wallet'])
    .execute();
  const empty = () => ({ available: 0n, pending: 0n, exchange: 0n });
  const balances: WalletBalances = { AIC: empty(), USDT: empty() };
  for (const row of rows) {
    const field = row.kind === 'wallet' ? 'available' : row.kind === 'withdrawals_pending' ? 'pending' : 'exchange';
    balances[row.asset][field] = row.balance;
  }
  return balances;
}
