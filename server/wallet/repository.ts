import type { Transaction } from 'kysely';
import type { FundingRecord, TransferRecord, TransferRecordsQuery, TransferStatus, TransferType } from '../../contract/wallet.ts';
import { formatUnits } from '../../contract/money.ts';
import type { Db } from '../db/connect.ts';
import type { Asset, Database } from '../db/schema.ts';
import { queryTime } from '../http/queryTime.ts';
import { gatheredCalls, idCursor, MAX_BIGINT } from '../platform/readCalls.ts';

type Executor = Db | Transaction<Database>;

export const COLUMNS = [
  'id', 'user_id', 'type', 'asset', 'amount', 'status', 'reason', 'created_at', 'reviewed_at', 'reviewed_by',
  'exchange_id', 'request_key', 'request_user', 'attempts', 'account', 'requested_by',
] as const;

export type Row = {
  id: bigint;
  user_id: bigint;
  /** A holder's move, or a funding of user 0's treasury or pool (`funding.ts`). */
  type: TransferType | 'funding';
  asset: Asset;
  amount: bigint;
  status: TransferStatus;
  reason: string | null;
  created_at: Date;
  reviewed_at: Date | null;
  reviewed_by: bigint | null;
  exchange_id: string | null;
  request_key: string | null;
  request_user: bigint | null;
  attempts: number;
  account: 'treasury' | 'supercomputing_pool' | null;
  requested_by: bigint | null;
};

/** A holder's transfer as the API shows it (a funding is user 0's, never a holder's: `funding.ts`). */
export const toRecord = (row: Row): TransferRecord => ({
  id: String(row.id),
  type: row.type as TransferType,
  asset: row.asset,
  amount: formatUnits(row.amount),
  status: row.status,
  reason: row.reason,
  createdAt: row.created_at.toISOString(),
  reviewedAt: row.reviewed_at?.toISOString() ?? null,
});

/** A funding as the operators' console shows it. */
export const toFundingRecord = (row: Row): FundingRecord => ({
  id: String(row.id),
  account: row.account as FundingRecord['account'],
  asset: row.asset,
  amount: formatUnits(row.amount),
  status: row.status,
  reason: row.reason,
  requestedBy: String(row.requested_by),
  reviewedBy: row.reviewed_by === null ? null : String(row.reviewed_by),
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

/** A holder's withdrawal (or, `funding`, a funding) under review, locked for the reviewer's transaction. */
export async function lockPendingTransfer(trx: Transaction<Database>, id: bigint, funding = false): Promise<Row | undefined> {
  return trx
    .selectFrom('transfers')
    .select(COLUMNS)
    .where('id', '=', id)
    .where('status', '=', 'under_review')
    .where('type', funding ? '=' : '!=', 'funding')
    .forUpdate()
    .executeTakeFirst();
}

export async function transferExists(db: Executor, id: bigint, funding = false): Promise<boolean> {
  const row = await db.selectFrom('transfers').select('id').where('id', '=', id).where('type', funding ? '=' : '!=', 'funding').executeTakeFirst();
  return Boolean(row);
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

const transferPage = gatheredCalls<Row>('transfer_page', ['bigint', 'text', 'timestamptz', 'timestamptz', 'bigint', 'int']);

/**
 * A user's movements, newest first, one page after the cursor (`transfer_page`,
 * transferFunctions.ts), gathered with the pages asked at once. A cursor past PostgreSQL's bigint
 * asks from the newest (`idCursor`).
 */
export async function listTransfers(
  db: Db,
  userId: bigint,
  query: TransferRecordsQuery,
): Promise<{ items: TransferRecord[]; nextCursor: string | null }> {
  const limit = query.limit ?? 20;
  const rows = await transferPage(
    db,
    userId,
    query.type || null,
    queryTime(query.from),
    queryTime(query.to),
    query.cursor ? idCursor(query.cursor) : MAX_BIGINT,
    limit + 1,
  );
  const page = rows.slice(0, limit);
  const more = rows.length > limit;
  return { items: page.map(toRecord), nextCursor: more ? String(page.at(-1)?.id) : null };
}

/** Requests under review, oldest first, one page after the cursor (`after`), optionally one holder's. */
export async function reviewQueue(
  db: Db,
  query: { after?: bigint; limit?: number; userId?: bigint } = {},
): Promise<{ items: (TransferRecord & { userId: string })[]; nextCursor: string | null }> {
  const limit = query.limit ?? 100;
  let q = db.selectFrom('transfers').select(COLUMNS).where('status', '=', 'under_review').where('type', '!=', 'funding');
  if (query.userId !== undefined) q = q.where('user_id', '=', query.userId);
  if (query.after !== undefined) q = q.where('id', '>', query.after);
  const rows = await q.orderBy('id').limit(limit + 1).execute();
  const page = rows.slice(0, limit);
  const more = rows.length > limit;
  return {
    items: page.map((row) => ({ ...toRecord(row), userId: String(row.user_id) })),
    nextCursor: more ? String(page.at(-1)?.id) : null,
  };
}
