import { randomUUID } from 'node:crypto';
import { sql, type Transaction } from 'kysely';
import { ERRORS, type ErrorName } from '../../contract/errors.ts';
import type { ExchangeTransfer } from '../../contract/exchange.ts';
import { formatUnits } from '../../contract/money.ts';
import { INBOUND, type TransferRecord } from '../../contract/wallet.ts';
import type { Db } from '../db/connect.ts';
import type { AccountKind, Database } from '../db/schema.ts';
import { transact } from '../db/transact.ts';
import type { LanguageKey } from '../../contract/languages.ts';
import { translate } from '../http/messages.ts';
import { type AccountKey, postEntry, SYSTEM } from '../ledger/ledger.ts';
import { notify } from '../notify/notices.ts';
import type { ExchangeClient, Outcome } from './exchangeClient.ts';
import { COLUMNS, type Row, toFundingRecord, toRecord } from './repository.ts';

/**
 * A transfer across the exchange boundary is a state machine:
 *
 *   recharge, transfer in:      requested ──────────────▶ success | failure
 *   withdraw, transfer out:     under_review ─▶ sending ─▶ success | failure   (or rejected: failure)
 *   funding (user 0's):         under_review ─▶ requested ─▶ success | failure (or rejected: failure)
 *   any, when no answer said what happened:  ─▶ unknown ─▶ success | failure
 *
 * Money enters the wallet only when the exchange has applied the debit; an approved withdrawal
 * waits in the clearing account (user 0's `exchange_clearing`) until the exchange has applied the
 * credit, and goes back to the wallet if the exchange refuses it; a funding (`funding.ts`) reaches
 * the treasury or the pool only when the exchange has moved it. An unknown transfer is
 * resolved only by reading it by its id (and sent again under the same id if the exchange never
 * got it), never under a new id. Whoever holds a transfer's lease drives it: the request that
 * made it, or the worker (`resumeTransfers`) once the lease has run out.
 */

/** An unknown transfer is read again after this long, doubling per attempt up to an hour. */
const RETRY_BASE_MS = 2_000;

export type ExchangePort = {
  client: ExchangeClient;
  /**
   * How long one process may drive a transfer before another may take it over: longer than its
   * calls to the exchange can take. Overtaking a live driver costs a call, not money: the exchange
   * applies an id once and a transfer ends once.
   */
  leaseMs: number;
  /** The holder's access token (refreshed when `stale`); undefined without consent. */
  accessToken(userId: bigint, stale?: boolean): Promise<string | undefined>;
  /** The holder's subject at the exchange, for a credit. */
  subjectOf(userId: bigint): Promise<string>;
  /** A transfer of the holder's was sent or read (`drive`): what this process keeps of their balances at the exchange goes. */
  balancesMoved(userId: bigint): void;
};

const UNFINISHED = ['requested', 'sending', 'unknown'] as const;

/** Which way a transfer moves money at the exchange (contract/exchange.ts's `direction`). */
export const directionOf = (type: Row['type']): ExchangeTransfer['direction'] =>
  type === 'funding' ? 'funding' : INBOUND.includes(type) ? 'debit' : 'credit';
const leaseFrom = (ms: number) => new Date(Date.now() + ms);

/** A new transfer's id at the exchange: unique, and no reuse across databases or restores. */
const newExchangeId = () => randomUUID();

/** A recharge or transfer in, recorded as requested under the caller's lease. */
export async function insertInbound(
  trx: Transaction<Database>,
  leaseMs: number,
  move: { userId: bigint; type: 'recharge' | 'transfer_in'; asset: Row['asset']; amount: bigint; now: Date; requestKey: string },
): Promise<Row> {
  return trx
    .insertInto('transfers')
    .values({
      user_id: move.userId,
      type: move.type,
      asset: move.asset,
      amount: move.amount,
      status: 'requested',
      created_at: move.now,
      exchange_id: newExchangeId(),
      request_key: move.requestKey,
      request_user: move.userId,
      lease_until: leaseFrom(leaseMs),
    })
    .returning(COLUMNS)
    .executeTakeFirstOrThrow();
}

/** The stored answer of the request that started a transfer, written when the transfer ends. */
type Answer = { status: number; body: { code: number; msg: string; data: unknown } };

function refusalAnswer(name: ErrorName, language: LanguageKey): Answer {
  const entry = ERRORS[name];
  return { status: entry.http, body: { code: entry.code, msg: translate(entry.message, language), data: null } };
}

/**
 * What the request that started a transfer answers for where it stands: an inbound one the
 * exchange refused is a refusal (nothing was credited); anything else is the transfer's record.
 */
export function answerFor(row: Row, language: LanguageKey = 'en'): Answer {
  if (row.status === 'failure' && directionOf(row.type) === 'debit') {
    return refusalAnswer(row.reason === REASONS.consent_revoked ? 'EXCHANGE_CONSENT' : 'EXCHANGE_BALANCE', language);
  }
  return { status: 200, body: { code: 0, msg: 'success', data: row.type === 'funding' ? toFundingRecord(row) : toRecord(row) } };
}

/** The reasons the platform writes on a transfer the exchange refused (translated by the app). */
const REASONS = {
  insufficient_balance: 'exchange.insufficient_balance',
  unknown_account: 'exchange.unknown_account',
  consent_revoked: 'exchange.consent_revoked',
} as const;

async function storeAnswer(trx: Transaction<Database>, row: Row): Promise<void> {
  if (!row.request_key) return;
  const answer = answerFor(row);
  await trx
    .updateTable('idempotency_keys')
    .set({ response_status: answer.status, response_body: JSON.stringify(answer.body) })
    .where('user_id', '=', row.request_user ?? row.user_id)
    .where('key', '=', row.request_key)
    .where('response_status', 'is', null)
    .execute();
}

/** The transfer ends: its status, its money, its notice and its request's answer, in one transaction. */
async function finish(db: Db, row: Row, result: { applied: boolean; reason: string | null; at: Date }): Promise<Row> {
  return transact(db, async (trx) => {
    const closed = await trx
      .updateTable('transfers')
      .set({
        status: result.applied ? 'success' : 'failure',
        reason: result.reason,
        exchange_at: result.at,
        lease_until: null,
      })
      .where('user_id', '=', row.user_id)
      .where('id', '=', row.id)
      .where('status', 'in', [...UNFINISHED])
      .returning(COLUMNS)
      .executeTakeFirst();
    // Someone else ended it first (a webhook, the worker): theirs stands.
    if (!closed) return currentRow(trx, row);
    await book(trx, row, result);
    if (result.applied && (row.type === 'recharge' || row.type === 'transfer_in')) {
      const { id, type, asset, amount } = toRecord(closed);
      await notify(trx, { userId: row.user_id, kind: 'money_in', key: `transfer:${row.id}`, params: { id, type, asset, amount }, at: result.at });
    }
    if (directionOf(row.type) === 'credit') {
      const { id, type, asset, amount } = toRecord(closed);
      await notify(trx, {
        userId: row.user_id,
        kind: result.applied ? 'transfer_approved' : 'transfer_rejected',
        key: `transfer:${row.id}`,
        params: { id, type, asset, amount, ...(result.reason ? { reason: result.reason } : {}) },
        at: result.at,
      });
    }
    await storeAnswer(trx, closed);
    return closed;
  });
}

/**
 * The money of a transfer that ended: a debit the exchange applied comes in from the omnibus
 * account (user 0's `exchange`) to the wallet, a funding to the system account it was for; a
 * credit leaves the clearing account for the omnibus account, or goes back to the wallet when
 * refused. A refused debit or funding moved nothing.
 */
async function book(trx: Transaction<Database>, row: Row, result: { applied: boolean; at: Date }): Promise<void> {
  const direction = directionOf(row.type);
  const account = (userId: bigint, kind: AccountKind) => ({ userId, asset: row.asset, kind });
  const omnibus = account(SYSTEM, 'exchange');
  const legs =
    direction === 'credit'
      ? [account(SYSTEM, 'exchange_clearing'), result.applied ? omnibus : account(row.user_id, 'wallet')]
      : result.applied
        ? [omnibus, direction === 'funding' ? account(SYSTEM, row.account as AccountKind) : account(row.user_id, 'wallet')]
        : undefined;
  if (!legs) return;
  const [from, to] = legs as [AccountKey, AccountKey];
  await postEntry(trx, {
    // Money in: the entry named as before (a funding as `fund`); money out: sent or returned.
    kind: direction === 'debit' ? row.type : direction === 'funding' ? 'fund' : result.applied ? 'transfer_sent' : 'transfer_returned',
    ref: direction === 'funding' ? `fund:${row.account}` : `transfer:${row.id}`,
    at: result.at,
    postings: [
      { ...from, amount: -row.amount },
      { ...to, amount: row.amount },
    ],
  });
}

async function currentRow(db: Db | Transaction<Database>, row: Pick<Row, 'id' | 'user_id'>): Promise<Row> {
  return db.selectFrom('transfers').select(COLUMNS).where('user_id', '=', row.user_id).where('id', '=', row.id).executeTakeFirstOrThrow();
}

/** No answer said what happened: the transfer waits, unknown, to be read again later. */
async function leaveUnknown(db: Db, row: Row): Promise<Row> {
  const wait = Math.min(3_600_000, RETRY_BASE_MS * 2 ** Math.min(row.attempts, 20));
  return transact(db, async (trx) => {
    const updated = await trx
      .updateTable('transfers')
      .set({ status: 'unknown', attempts: sql`attempts + 1`, lease_until: leaseFrom(wait) })
      .where('user_id', '=', row.user_id)
      .where('id', '=', row.id)
      .where('status', 'in', [...UNFINISHED])
      .returning(COLUMNS)
      .executeTakeFirst();
    if (!updated) return currentRow(trx, row);
    await storeAnswer(trx, updated);
    return updated;
  });
}

/** Whether the exchange's answer is this transfer (its id, direction, asset and amount). */
function matches(row: Row, transfer: ExchangeTransfer): boolean {
  return (
    transfer.transferId === row.exchange_id &&
    transfer.direction === directionOf(row.type) &&
    transfer.asset === row.asset &&
    transfer.amount === formatUnits(row.amount)
  );
}

/** The transfer ends as the exchange's record of it says (unknown still if the record is not this transfer). */
function settle(db: Db, row: Row, transfer: ExchangeTransfer): Promise<Row> {
  if (!matches(row, transfer)) return leaveUnknown(db, row);
  const reason = transfer.reason ? REASONS[transfer.reason] : null;
  return finish(db, row, { applied: transfer.status === 'applied', reason, at: new Date(transfer.at) });
}

/** Sends the transfer under its id (a repeat is the same transfer at the exchange). */
async function send(port: ExchangePort, row: Row): Promise<Outcome> {
  const body = { transferId: row.exchange_id as string, asset: row.asset, amount: formatUnits(row.amount) };
  const direction = directionOf(row.type);
  if (direction === 'funding') return port.client.fund(body);
  if (direction === 'credit') return port.client.credit({ ...body, subject: await port.subjectOf(row.user_id) });
  let token = await port.accessToken(row.user_id);
  if (!token) return { kind: 'consent_revoked' };
  const first = await port.client.debit(token, body);
  if (first.kind !== 'unauthorized') return first;
  token = await port.accessToken(row.user_id, true);
  if (!token) return { kind: 'consent_revoked' };
  const again = await port.client.debit(token, body);
  return again.kind === 'unauthorized' ? { kind: 'consent_revoked' } : again;
}

/**
 * Drives a transfer this process holds the lease of to its next state. `resume`: it may have
 * reached the exchange already, so it is read first and sent only if the exchange never got it.
 */
export async function drive(db: Db, port: ExchangePort, row: Row, options: { resume: boolean }): Promise<Row> {
  try {
    return await driveOnce(db, port, row, options);
  } finally {
    // Whatever came of it, the exchange may have moved the holder's money: the next read asks it.
    port.balancesMoved(row.user_id);
  }
}

async function driveOnce(db: Db, port: ExchangePort, row: Row, options: { resume: boolean }): Promise<Row> {
  let outcome: Outcome = options.resume ? await port.client.read(row.exchange_id as string) : { kind: 'not_found' };
  if (outcome.kind === 'not_found') outcome = await send(port, row);
  if (outcome.kind === 'final') return settle(db, row, outcome.transfer);
  // Only a debit is refused for the holder's consent. An earlier try of it may have reached the
  // exchange before the consent went (its answer lost): the exchange's record decides.
  if (outcome.kind === 'consent_revoked' && directionOf(row.type) === 'debit') {
    const record = await port.client.read(row.exchange_id as string);
    if (record.kind === 'final') return settle(db, row, record.transfer);
    if (record.kind === 'not_found') return finish(db, row, { applied: false, reason: REASONS.consent_revoked, at: new Date() });
  }
  return leaveUnknown(db, row);
}

/**
 * Takes the lease of one unfinished transfer whose lease has run out (by `now`); undefined if
 * another has it. `hinted`: a webhook says it changed, so an unknown one need not wait its turn.
 */
async function takeLease(db: Db, leaseMs: number, row: { id: bigint; user_id: bigint }, now: Date, hinted = false): Promise<Row | undefined> {
  return db
    .updateTable('transfers')
    .set({ lease_until: new Date(now.getTime() + leaseMs) })
    .where('user_id', '=', row.user_id)
    .where('id', '=', row.id)
    .where('status', 'in', [...UNFINISHED])
    .where((eb) =>
      eb.or([
        eb('lease_until', 'is', null),
        eb('lease_until', '<', now),
        ...(hinted ? [eb('status', '=', 'unknown')] : []),
      ]),
    )
    .returning(COLUMNS)
    .executeTakeFirst();
}

/**
 * Drives every unfinished transfer whose lease has run out (its driver died, or it waits to be
 * read again) to its next state: safe with any number of processes, and after a kill -9, since
 * a transfer is driven only under its lease and the exchange applies an id once.
 */
export async function resumeTransfers(
  db: Db,
  port: ExchangePort,
  options: { limit?: number; now?: Date } = {},
): Promise<{ resumed: number; finished: number }> {
  const now = options.now ?? new Date();
  const due = await db
    .selectFrom('transfers')
    .select(['id', 'user_id'])
    .where('status', 'in', [...UNFINISHED])
    .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
    .orderBy('id')
    .limit(options.limit ?? 100)
    .execute();
  let finished = 0;
  for (const due_ of due) {
    const row = await takeLease(db, port.leaseMs, due_, now);
    if (!row) continue;
    const after = await drive(db, port, row, { resume: true });
    if (after.status === 'success' || after.status === 'failure') finished++;
  }
  return { resumed: due.length, finished };
}

/** A webhook's hint: the transfer of this exchange id, driven now if no one else holds it. */
export async function resumeByExchangeId(db: Db, port: ExchangePort, exchangeId: string): Promise<TransferRecord | undefined> {
  const found = await db.selectFrom('transfers').select(['id', 'user_id']).where('exchange_id', '=', exchangeId).executeTakeFirst();
  if (!found) return undefined;
  const row = await takeLease(db, port.leaseMs, found, new Date(), true);
  if (row) return toRecord(await drive(db, port, row, { resume: true }));
  const current = await db.selectFrom('transfers').select(COLUMNS).where('user_id', '=', found.user_id).where('id', '=', found.id).executeTakeFirstOrThrow();
  return toRecord(current);
}

/** A reviewed withdrawal's money leaves the holder's pending account: to clearing (approved) or back to the wallet (rejected). */
export async function fromPending(
  trx: Transaction<Database>,
  row: Row,
  to: { userId: bigint; kind: 'exchange_clearing' | 'wallet' },
  kind: 'transfer_approved' | 'transfer_rejected',
  at: Date,
): Promise<void> {
  await postEntry(trx, {
    kind,
    ref: `transfer:${row.id}`,
    at,
    postings: [
      { userId: row.user_id, asset: row.asset, kind: 'withdrawals_pending', amount: -row.amount },
      { userId: to.userId, asset: row.asset, kind: to.kind, amount: row.amount },
    ],
  });
}

/** What the approver did is approved: on its way to the exchange under a new id and the approver's lease and key. */
export type Approval = { reviewer: bigint; reason: string | null; now: Date; requestKey: string; leaseMs: number };

/** A reviewed transfer approved: `status` (sending, or requested for a funding), a new id at the exchange, the approver's lease and key. */
export function approved(trx: Transaction<Database>, row: Row, status: 'sending' | 'requested', review: Approval): Promise<Row> {
  return trx
    .updateTable('transfers')
    .set({
      status,
      reason: review.reason,
      reviewed_at: review.now,
      reviewed_by: review.reviewer,
      exchange_id: newExchangeId(),
      request_key: review.requestKey,
      request_user: review.reviewer,
      lease_until: leaseFrom(review.leaseMs),
    })
    .where('user_id', '=', row.user_id)
    .where('id', '=', row.id)
    .returning(COLUMNS)
    .executeTakeFirstOrThrow();
}

/**
 * An approved withdrawal or transfer out: the funds move from the holder's pending account to
 * the clearing account and the transfer is `sending`, under the approver's lease.
 */
export async function startSending(
  trx: Transaction<Database>,
  row: Row,
  review: Approval,
): Promise<Row> {
  await fromPending(trx, row, { userId: SYSTEM, kind: 'exchange_clearing' }, 'transfer_approved', review.now);
  return approved(trx, row, 'sending', review);
}
