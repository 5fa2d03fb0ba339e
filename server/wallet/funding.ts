import { sql, type Transaction } from 'kysely';
import { parseAmount } from '../../contract/money.ts';
import type { FundBody } from '../../contract/operator.ts';
import type { FundingRecord } from '../../contract/wallet.ts';
import type { Db } from '../db/connect.ts';
import type { Database } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import { SYSTEM } from '../ledger/ledger.ts';
import { utcDay } from '../platform/clock.ts';
import { COLUMNS, lockPendingTransfer, type Row, toFundingRecord, transferExists } from './repository.ts';
import { approved } from './transfers.ts';
import { LOCKS } from '../db/locks.ts';

/**
 * Funding the treasury or the supercomputing pool: one operator asks, another approves, and the
 * money comes from the platform's own account at the exchange into its omnibus account, as a
 * transfer there (transfers.ts drives it and books it when the exchange has applied it). Nobody
 * funds from nothing, and nobody alone: the asker cannot approve, and each operator may ask for at
 * most FUNDING_DAILY_LIMIT a day. A funding is user 0's transfer, never in a holder's lists.
 */

type Request = Pick<FundBody, 'account' | 'asset'> & { operator: bigint; amount: bigint; now: Date; limit: string };

/** What `operator` has asked to fund today in `asset`, not counting refused or rejected ones. */
async function askedToday(trx: Transaction<Database>, operator: bigint, asset: Row['asset'], now: Date): Promise<bigint> {
  const day = utcDay(now);
  const row = await trx
    .selectFrom('transfers')
    .select(sql<bigint>`coalesce(sum(amount), 0)::bigint`.as('total'))
    .where('user_id', '=', SYSTEM)
    .where('type', '=', 'funding')
    .where('requested_by', '=', operator)
    .where('asset', '=', asset)
    .where('status', '!=', 'failure')
    .where('created_at', '>=', new Date(`${day}T00:00:00Z`))
    .executeTakeFirstOrThrow();
  return row.total;
}

/** A funding asked for, waiting for another operator (FUNDING_LIMIT over the day's limit). */
export async function requestFunding(trx: Transaction<Database>, request: Request): Promise<FundingRecord> {
  // One operator's asks are counted in turn, so two at once cannot both pass the limit.
  await sql`select pg_advisory_xact_lock(${LOCKS.funding}, ${Number(request.operator % 2_147_483_647n)})`.execute(trx);
  const limit = parseAmount(request.limit);
  const asked = await askedToday(trx, request.operator, request.asset, request.now);
  if (!limit.ok || asked + request.amount > limit.value) throw new AppError('FUNDING_LIMIT');
  const row = await trx
    .insertInto('transfers')
    .values({
      user_id: SYSTEM,
      type: 'funding',
      account: request.account,
      asset: request.asset,
      amount: request.amount,
      status: 'under_review',
      requested_by: request.operator,
      created_at: request.now,
    })
    .returning(COLUMNS)
    .executeTakeFirstOrThrow();
  return toFundingRecord(row);
}

type Review = { id: bigint; reviewer: bigint; reason: string | null; now: Date };

async function pendingFunding(trx: Transaction<Database>, review: Review): Promise<Row> {
  const row = await lockPendingTransfer(trx, review.id, true);
  if (!row) throw new AppError((await transferExists(trx, review.id, true)) ? 'ALREADY_REVIEWED' : 'NOT_FOUND');
  // Maker-checker: the operator who asked never approves or rejects their own.
  if (row.requested_by === review.reviewer) throw new AppError('OWN_REQUEST');
  return row;
}

/** Approved: on its way to the exchange under the approver's lease; nothing is booked until it applies it. */
export async function approveFunding(
  trx: Transaction<Database>,
  review: Review & { requestKey: string; leaseMs: number },
): Promise<Row> {
  return approved(trx, await pendingFunding(trx, review), 'requested', review);
}

export async function rejectFunding(trx: Transaction<Database>, review: Review): Promise<FundingRecord> {
  const row = await pendingFunding(trx, review);
  const closed = await trx
    .updateTable('transfers')
    .set({ status: 'failure', reason: review.reason, reviewed_at: review.now, reviewed_by: review.reviewer })
    .where('user_id', '=', SYSTEM)
    .where('id', '=', row.id)
    .returning(COLUMNS)
    .executeTakeFirstOrThrow();
  return toFundingRecord(closed);
}

/** Fundings waiting for a second operator first (oldest first), then the latest 50 others. */
export async function listFundings(db: Db): Promise<FundingRecord[]> {
  const base = db.selectFrom('transfers').select(COLUMNS).where('user_id', '=', SYSTEM).where('type', '=', 'funding');
  const waiting = await base.where('status', '=', 'under_review').orderBy('id').limit(100).execute();
  const others = await base.where('status', '!=', 'under_review').orderBy('id', 'desc').limit(50).execute();
  return [...waiting, ...others].map(toFundingRecord);
}
