import { sql, type Transaction } from 'kysely';
import type { CreditBody, DebitBody, ExchangeTransfer, RefusalReason } from '../../contract/exchange.ts';
import { formatUnits, parseAmount, UNIT } from '../../contract/money.ts';
import { ASSETS } from '../../contract/wallet.ts';
import type { Db } from '../db/connect.ts';
import type { Asset, Database } from '../db/schema.ts';
import { transact } from '../db/transact.ts';

/**
 * The embedded exchange's books: each holder's balance at the exchange and each platform's
 * omnibus account, double entry (every transfer is two postings that sum to zero), a balance
 * never below zero but the exchange's own mint. They stand in for a real exchange's; the
 * platform's books (server/ledger) never read them.
 */

/** Where the simulated exchange's money comes from: the only account that may go negative. */
const WORLD = '@world';
const omnibusOf = (clientId: string) => `@omnibus:${clientId}`;
/** A platform's own money at the exchange, which its fundings move into its omnibus account. */
const platformOf = (clientId: string) => `@platform:${clientId}`;

/** What a new exchange account holds, so a newcomer can try every journey (PRODUCT.md, Sign-in). */
export const DEMO_BALANCES: Record<Asset, bigint> = { AIC: 20_000n * UNIT, USDT: 1_000n * UNIT };
/** What a platform's omnibus and own accounts open with at the simulated exchange: its float and its funds. */
const OMNIBUS_FLOAT: Record<Asset, bigint> = { AIC: 10_000_000n * UNIT, USDT: 1_000_000n * UNIT };

type Executor = Db | Transaction<Database>;

export class TransferMismatch extends Error {
  constructor() {
    super('this transfer id was used for another transfer');
  }
}

type Row = {
  transfer_id: string;
  direction: 'debit' | 'credit' | 'funding';
  subject: string;
  asset: Asset;
  amount: bigint;
  status: 'applied' | 'refused';
  reason: string | null;
  at: Date;
};

const COLUMNS = ['transfer_id', 'direction', 'subject', 'asset', 'amount', 'status', 'reason', 'at'] as const;

const toTransfer = (row: Row): ExchangeTransfer => ({
  transferId: row.transfer_id,
  direction: row.direction,
  subject: row.subject,
  asset: row.asset,
  amount: formatUnits(row.amount),
  status: row.status,
  reason: row.reason as RefusalReason | null,
  at: row.at.toISOString(),
});

/** One posting pair: `amount` from `from` to `to`, both rows already locked. */
async function move(trx: Transaction<Database>, entry: string, asset: Asset, from: string, to: string, amount: bigint, at: Date) {
  await trx.updateTable('xc_accounts').set({ balance: sql`balance - ${amount}` }).where('subject', '=', from).where('asset', '=', asset).execute();
  await trx.updateTable('xc_accounts').set({ balance: sql`balance + ${amount}` }).where('subject', '=', to).where('asset', '=', asset).execute();
  await trx
    .insertInto('xc_postings')
    .values([
      { entry, subject: from, asset, amount: -amount, at },
      { entry, subject: to, asset, amount, at },
    ])
    .execute();
}

/**
 * Opens an account the first time the exchange sees it: a holder with the demo balances, a
 * platform's omnibus account with its float, both from the mint. Racing openers open it once.
 */
async function open(trx: Transaction<Database>, subject: string): Promise<void> {
  await trx
    .insertInto('xc_accounts')
    .values({ subject: WORLD, asset: 'AIC', balance: 0n, allow_negative: true })
    .onConflict((oc) => oc.columns(['subject', 'asset']).doNothing())
    .execute();
  await trx
    .insertInto('xc_accounts')
    .values({ subject: WORLD, asset: 'USDT', balance: 0n, allow_negative: true })
    .onConflict((oc) => oc.columns(['subject', 'asset']).doNothing())
    .execute();
  const opened = await trx
    .insertInto('xc_accounts')
    .values(ASSETS.map((asset) => ({ subject, asset, balance: 0n })))
    .onConflict((oc) => oc.columns(['subject', 'asset']).doNothing())
    .returning('asset')
    .execute();
  const start = subject.startsWith('@') ? OMNIBUS_FLOAT : DEMO_BALANCES;
  // Dated at the epoch: what an account held before the platform ever used it is no movement of
  // any day's statement (the reconciliation compares a day's movement).
  for (const { asset } of opened) await move(trx, `open:${subject}`, asset, WORLD, subject, start[asset], OPENED_AT);
}

const OPENED_AT = new Date(0);

async function knownHolder(trx: Executor, subject: string): Promise<boolean> {
  return Boolean(await trx.selectFrom('exchange_accounts').select('subject').where('subject', '=', subject).executeTakeFirst());
}

async function balanceFor(trx: Transaction<Database>, subject: string, asset: Asset): Promise<bigint> {
  const row = await trx
    .selectFrom('xc_accounts')
    .select('balance')
    .where('subject', '=', subject)
    .where('asset', '=', asset)
    .forUpdate()
    .executeTakeFirst();
  return row?.balance ?? 0n;
}

export type TransferRequest = { clientId: string; direction: 'debit' | 'credit' | 'funding' } & (DebitBody & { subject: string } | CreditBody);

function amountOf(text: string): bigint {
  const parsed = parseAmount(text);
  if (!parsed.ok || parsed.value <= 0n) throw new RangeError('amount must be a positive decimal with at most 8 decimals');
  return parsed.value;
}

/**
 * Applies a transfer once per (client, transfer id): a repeat answers the first outcome, the
 * same id for another transfer is refused (`TransferMismatch`). A debit takes from the holder
 * into the client's omnibus account, a credit the other way, a funding from the client's own
 * account into its omnibus account; each is refused for good when the paying side lacks the
 * money or the holder is unknown.
 */
export async function applyTransfer(db: Db, request: TransferRequest, at: Date): Promise<ExchangeTransfer> {
  const amount = amountOf(request.amount);
  const omnibus = omnibusOf(request.clientId);
  const funding = request.direction === 'funding';
  const other = funding ? platformOf(request.clientId) : request.subject;
  return transact(db, async (trx) => {
    const known = funding || (await knownHolder(trx, request.subject));
    if (known) await open(trx, other);
    await open(trx, omnibus);
    // Both accounts locked in subject order before the id is looked up: a racing repeat of
    // the same id waits here, then finds the first one's row.
    const [first, second] = [omnibus, other].sort();
    await balanceFor(trx, first as string, request.asset);
    await balanceFor(trx, second as string, request.asset);
    const existing = await trx
      .selectFrom('xc_transfers')
      .select(COLUMNS)
      .where('client_id', '=', request.clientId)
      .where('transfer_id', '=', request.transferId)
      .executeTakeFirst();
    if (existing) {
      const same =
        existing.direction === request.direction &&
        existing.subject === request.subject &&
        existing.asset === request.asset &&
        existing.amount === amount;
      if (!same) throw new TransferMismatch();
      return toTransfer(existing);
    }
    const [from, to] = request.direction === 'credit' ? [omnibus, other] : [other, omnibus];
    const reason: RefusalReason | null = !known
      ? 'unknown_account'
      : (await balanceFor(trx, from, request.asset)) < amount
        ? 'insufficient_balance'
        : null;
    if (!reason) await move(trx, `${request.clientId}:${request.transferId}`, request.asset, from, to, amount, at);
    const row = await trx
      .insertInto('xc_transfers')
      .values({
        client_id: request.clientId,
        transfer_id: request.transferId,
        direction: request.direction,
        subject: request.subject,
        asset: request.asset,
        amount,
        status: reason ? 'refused' : 'applied',
        reason,
        at,
      })
      .returning(COLUMNS)
      .executeTakeFirstOrThrow();
    return toTransfer(row);
  });
}

export async function findTransfer(db: Executor, clientId: string, transferId: string): Promise<ExchangeTransfer | undefined> {
  const row = await db
    .selectFrom('xc_transfers')
    .select(COLUMNS)
    .where('client_id', '=', clientId)
    .where('transfer_id', '=', transferId)
    .executeTakeFirst();
  return row ? toTransfer(row) : undefined;
}

/** A client's transfers in [from, to), by time then id, one page after `after` (a transfer id). */
export async function listTransfers(
  db: Executor,
  clientId: string,
  range: { from: Date; to: Date; after?: string; limit: number },
): Promise<{ items: ExchangeTransfer[]; next: string | null }> {
  let q = db
    .selectFrom('xc_transfers')
    .select(COLUMNS)
    .where('client_id', '=', clientId)
    .where('at', '>=', range.from)
    .where('at', '<', range.to);
  if (range.after) {
    const after = await findTransfer(db, clientId, range.after);
    if (after) {
      const at = new Date(after.at);
      q = q.where((eb) => eb.or([eb('at', '>', at), eb.and([eb('at', '=', at), eb('transfer_id', '>', range.after as string)])]));
    }
  }
  const rows = await q.orderBy('at').orderBy('transfer_id').limit(range.limit + 1).execute();
  const page = rows.slice(0, range.limit);
  return { items: page.map(toTransfer), next: rows.length > range.limit ? (page.at(-1)?.transfer_id ?? null) : null };
}

/** The omnibus account's balance before `from` and before `to`, per asset. */
export async function omnibusStatement(db: Executor, clientId: string, from: Date, to: Date) {
  const rows = await db
    .selectFrom('xc_postings')
    .select([
      'asset',
      sql<bigint>`coalesce(sum(amount) filter (where at < ${from}), 0)::bigint`.as('opening'),
      sql<bigint>`coalesce(sum(amount) filter (where at < ${to}), 0)::bigint`.as('closing'),
    ])
    .where('subject', '=', omnibusOf(clientId))
    .where('at', '<', to)
    .groupBy('asset')
    .execute();
  return ASSETS.map((asset) => {
    const row = rows.find((r) => r.asset === asset);
    return { asset, opening: formatUnits(row?.opening ?? 0n), closing: formatUnits(row?.closing ?? 0n) };
  });
}

/** A holder's balances; an account the exchange has not opened yet is opened first. */
export async function holderBalances(db: Db, subject: string) {
  if (!(await knownHolder(db, subject))) return ASSETS.map((asset) => ({ asset, available: '0' }));
  let rows = await db.selectFrom('xc_accounts').select(['asset', 'balance']).where('subject', '=', subject).execute();
  if (rows.length < ASSETS.length) {
    await transact(db, (trx) => open(trx, subject));
    rows = await db.selectFrom('xc_accounts').select(['asset', 'balance']).where('subject', '=', subject).execute();
  }
  return ASSETS.map((asset) => ({ asset, available: formatUnits(rows.find((r) => r.asset === asset)?.balance ?? 0n) }));
}

/** The exchange's own check: every asset's postings sum to zero and each balance is its postings' sum. */
export async function checkExchangeBooks(db: Executor): Promise<{ ok: boolean; sums: Record<string, string>; mismatched: number }> {
  const sums = await db
    .selectFrom('xc_postings')
    .select(['asset', sql<bigint>`coalesce(sum(amount), 0)::bigint`.as('total')])
    .groupBy('asset')
    .execute();
  const mismatched = await sql<{ n: bigint }>`
    select count(*) as n from xc_accounts a
    full join (select subject, asset, sum(amount) as total from xc_postings group by subject, asset) p using (subject, asset)
    where coalesce(a.balance, 0) <> coalesce(p.total, 0)
       or (not coalesce(a.allow_negative, false) and coalesce(a.balance, 0) < 0)`.execute(db);
  const n = Number(mismatched.rows[0]?.n ?? 0n);
  return {
    ok: sums.every((s) => s.total === 0n) && n === 0,
    sums: Object.fromEntries(sums.map((s) => [s.asset, String(s.total)])),
    mismatched: n,
  };
}
