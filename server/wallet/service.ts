import type { Transaction } from 'kysely';
import { INBOUND, type TransferRecord, type TransferType } from '../../contract/wallet.ts';
import type { Asset, Database } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import { postEntry } from '../ledger/ledger.ts';
import type { ExchangeAdapter } from './exchange.ts';
import { closeTransfer, insertTransfer, lockPendingTransfer, toRecord, transferExists } from './repository.ts';
import { notify } from '../notify/notices.ts';

export type Move = { userId: bigint; type: TransferType; asset: Asset; amount: bigint; now: Date };

/**
 * One wallet movement and its ledger entry, in the caller's transaction. Money coming in from
 * the exchange is available at once; money going out waits in the user's pending account until
 * an operator reviews it.
 */
export async function moveFunds(trx: Transaction<Database>, exchange: ExchangeAdapter, move: Move): Promise<TransferRecord> {
  const inbound = INBOUND.includes(move.type);
  const row = await insertTransfer(trx, { ...move, status: inbound ? 'success' : 'under_review' });
  const wallet = { userId: move.userId, asset: move.asset, kind: 'wallet' as const };
  const other = inbound
    ? exchange.counterpart(move.userId, move.asset)
    : { userId: move.userId, asset: move.asset, kind: 'withdrawals_pending' as const };
  const from = inbound ? other : wallet;
  const to = inbound ? wallet : other;
  await postEntry(trx, {
    kind: move.type,
    ref: `transfer:${row.id}`,
    at: move.now,
    postings: [
      { ...from, amount: -move.amount },
      { ...to, amount: move.amount },
    ],
  });
  return toRecord(row);
}

export type Review = { id: bigint; approve: boolean; reason: string | null; reviewer: bigint; now: Date };

/**
 * Approve (funds go to the exchange) or reject (funds back to the wallet) a pending move.
 * Maker-checker: an operator never reviews their own request (OWN_REQUEST); another must.
 */
export async function reviewTransfer(
  trx: Transaction<Database>,
  exchange: ExchangeAdapter,
  review: Review,
): Promise<TransferRecord> {
  const row = await lockPendingTransfer(trx, review.id);
  if (!row) {
    throw new AppError((await transferExists(trx, review.id)) ? 'ALREADY_REVIEWED' : 'NOT_FOUND');
  }
  if (row.user_id === review.reviewer) throw new AppError('OWN_REQUEST');
  const pending = { userId: row.user_id, asset: row.asset, kind: 'withdrawals_pending' as const };
  const target = review.approve
    ? exchange.counterpart(row.user_id, row.asset)
    : { userId: row.user_id, asset: row.asset, kind: 'wallet' as const };
  await postEntry(trx, {
    kind: review.approve ? 'transfer_approved' : 'transfer_rejected',
    ref: `transfer:${row.id}`,
    at: review.now,
    postings: [
      { ...pending, amount: -row.amount },
      { ...target, amount: row.amount },
    ],
  });
  const closed = await closeTransfer(trx, row, {
    status: review.approve ? 'success' : 'failure',
    reason: review.reason,
    reviewer: review.reviewer,
    now: review.now,
  });
  const record = toRecord(closed);
  const { id, type, asset, amount, reason } = record;
  await notify(trx, {
    userId: row.user_id,
    kind: review.approve ? 'transfer_approved' : 'transfer_rejected',
    key: `transfer:${row.id}`,
    params: { id, type, asset, amount, ...(reason ? { reason } : {}) },
    at: review.now,
  });
  return record;
}
