import type { Transaction } from 'kysely';
import type { TransferRecord, TransferType } from '../../contract/wallet.ts';
import type { Asset, Database } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import { postEntry } from '../ledger/ledger.ts';
import { notify } from '../notify/notices.ts';
import { closeTransfer, insertTransfer, lockPendingTransfer, type Row, toRecord, transferExists } from './repository.ts';
import { fromPending, startSending } from './transfers.ts';

export type Move = { userId: bigint; type: TransferType; asset: Asset; amount: bigint; now: Date };

/**
 * A withdrawal or transfer out, in the caller's transaction: the funds wait in the holder's
 * pending account until an operator reviews it (inbound moves are transfers.ts's `insertInbound`).
 */
export async function requestOutbound(trx: Transaction<Database>, move: Move): Promise<TransferRecord> {
  const row = await insertTransfer(trx, { ...move, status: 'under_review' });
  await postEntry(trx, {
    kind: move.type,
    ref: `transfer:${row.id}`,
    at: move.now,
    postings: [
      { userId: move.userId, asset: move.asset, kind: 'wallet', amount: -move.amount },
      { userId: move.userId, asset: move.asset, kind: 'withdrawals_pending', amount: move.amount },
    ],
  });
  return toRecord(row);
}

export type Review = { id: bigint; reason: string | null; reviewer: bigint; now: Date };

/** A pending move locked for its reviewer; maker-checker: never the reviewer's own (OWN_REQUEST). */
async function pendingFor(trx: Transaction<Database>, review: Review): Promise<Row> {
  const row = await lockPendingTransfer(trx, review.id);
  if (!row) throw new AppError((await transferExists(trx, review.id)) ? 'ALREADY_REVIEWED' : 'NOT_FOUND');
  if (row.user_id === review.reviewer) throw new AppError('OWN_REQUEST');
  return row;
}

/** Approve: the funds go to the clearing account and the transfer is sending (transfers.ts drives it). */
export async function approveTransfer(trx: Transaction<Database>, review: Review & { requestKey: string; leaseMs: number }): Promise<Row> {
  return startSending(trx, await pendingFor(trx, review), review);
}

/** Reject: the funds go back to the wallet, in this transaction. */
export async function rejectTransfer(trx: Transaction<Database>, review: Review): Promise<TransferRecord> {
  const row = await pendingFor(trx, review);
  await fromPending(trx, row, { userId: row.user_id, kind: 'wallet' }, 'transfer_rejected', review.now);
  const record = toRecord(await closeTransfer(trx, row, { status: 'failure', reason: review.reason, reviewer: review.reviewer, now: review.now }));
  const { id, type, asset, amount, reason } = record;
  await notify(trx, {
    userId: row.user_id,
    kind: 'transfer_rejected',
    key: `transfer:${row.id}`,
    params: { id, type, asset, amount, ...(reason ? { reason } : {}) },
    at: review.now,
  });
  return record;
}
