import { sql } from 'kysely';
import type { ExchangeTransfer } from '../../contract/exchange.ts';
import { formatUnits, parseAmount } from '../../contract/money.ts';
import type { Db } from '../db/connect.ts';
import type { DifferenceKind } from '../db/schema.ts';
import { DAY_MS, utcDay } from '../platform/clock.ts';
import type { ExchangeClient } from './exchangeClient.ts';
import type { Row } from './repository.ts';
import { directionOf } from './transfers.ts';

/**
 * Each day's transfers, compared with the exchange's own list for the day (by the time the
 * exchange applied them), and the omnibus account's movement with the platform's: what the
 * platform believes the exchange did, against what the exchange says it did. Every difference is
 * kept until an operator resolves it, and while one is open the verifier is red.
 */

/** A day is reconciled once no transfer of it can still be in flight: this long after it ends. */
const GRACE_MS = 60 * 60_000;

type Difference = {
  kind: DifferenceKind;
  transferId: string | null;
  asset: string | null;
  platform: unknown;
  exchange: unknown;
};

type PlatformTransfer = { exchange_id: string; type: string; asset: string; amount: bigint; status: string };

const units = (text: string) => {
  const parsed = parseAmount(text.startsWith('-') ? text.slice(1) : text);
  const value = parsed.ok ? (parsed.value as bigint) : 0n;
  return text.startsWith('-') ? -value : value;
};

async function exchangeList(client: ExchangeClient, from: Date, to: Date): Promise<ExchangeTransfer[]> {
  const items: ExchangeTransfer[] = [];
  let after: string | undefined;
  do {
    const page = await client.list({ from, to, ...(after ? { after } : {}) });
    items.push(...page.items);
    after = page.next ?? undefined;
  } while (after);
  return items;
}

/** The differences of one day between the platform's transfers and the exchange's. */
export async function compareDay(db: Db, client: ExchangeClient, day: string): Promise<Difference[]> {
  const from = new Date(`${day}T00:00:00Z`);
  const to = new Date(from.getTime() + DAY_MS);
  const theirs = await exchangeList(client, from, to);
  const ours = await db
    .selectFrom('transfers')
    .select(['exchange_id', 'type', 'asset', 'amount', 'status'])
    .where('exchange_id', 'is not', null)
    .where((eb) =>
      eb.or([
        eb.and([eb('exchange_at', '>=', from), eb('exchange_at', '<', to)]),
        // Also whatever the exchange lists for the day, wherever the platform dated it.
        ...(theirs.length ? [eb('exchange_id', 'in', theirs.map((t) => t.transferId))] : []),
      ]),
    )
    .execute();
  const byId = new Map(ours.map((row) => [row.exchange_id as string, row as PlatformTransfer]));
  const differences: Difference[] = [];
  const net = new Map<string, bigint>();
  const platformView = (row: PlatformTransfer) => ({ type: row.type, asset: row.asset, amount: formatUnits(row.amount), status: row.status });
  for (const transfer of theirs) {
    const row = byId.get(transfer.transferId);
    byId.delete(transfer.transferId);
    const applied = transfer.status === 'applied';
    if (applied) {
      const sign = transfer.direction === 'credit' ? -1n : 1n;
      net.set(transfer.asset, (net.get(transfer.asset) ?? 0n) + sign * units(transfer.amount));
    }
    const base = { transferId: transfer.transferId, asset: transfer.asset, exchange: transfer };
    if (!row) {
      if (applied) differences.push({ ...base, kind: 'missing_on_platform', platform: null });
      continue;
    }
    if (directionOf(row.type as Row['type']) !== transfer.direction || row.asset !== transfer.asset || formatUnits(row.amount) !== transfer.amount) {
      differences.push({ ...base, kind: 'amount', platform: platformView(row) });
    } else if ((row.status === 'success') !== applied) {
      differences.push({ ...base, kind: 'status', platform: platformView(row) });
    }
  }
  // What the platform booked as done that the exchange does not list.
  for (const row of byId.values()) {
    if (row.status !== 'success') continue;
    differences.push({ kind: 'missing_at_exchange', transferId: row.exchange_id, asset: row.asset, platform: platformView(row), exchange: null });
  }
  const statement = await client.omnibus({ from, to });
  for (const { asset, opening, closing } of statement.balances) {
    const moved = units(closing) - units(opening);
    const expected = net.get(asset) ?? 0n;
    if (moved !== expected) {
      differences.push({
        kind: 'omnibus',
        transferId: null,
        asset,
        platform: { moved: formatUnits(expected) },
        exchange: { opening, closing, moved: formatUnits(moved) },
      });
    }
  }
  return differences;
}

/** Reconciles one day: its differences kept (once each), the day marked with how many it had. */
export async function reconcileDay(db: Db, client: ExchangeClient, day: string, now: Date): Promise<number> {
  const differences = await compareDay(db, client, day);
  await db.transaction().execute(async (trx) => {
    for (const d of differences) {
      await trx
        .insertInto('reconciliation_differences')
        .values({
          day,
          kind: d.kind,
          transfer_id: d.transferId,
          asset: d.asset,
          platform: d.platform === null ? null : JSON.stringify(d.platform),
          exchange: d.exchange === null ? null : JSON.stringify(d.exchange),
          found_at: now,
        })
        .onConflict((oc) => oc.doNothing())
        .execute();
    }
    await trx
      .insertInto('reconciliations')
      .values({ day, differences: differences.length, checked_at: now })
      .onConflict((oc) => oc.column('day').doUpdateSet({ differences: differences.length, checked_at: now }))
      .execute();
  });
  return differences.length;
}

/** The first day with anything to reconcile after the last one reconciled; undefined: none. */
async function nextDay(db: Db): Promise<string | undefined> {
  const last = await db.selectFrom('reconciliations').select(sql<string>`max(day)::text`.as('day')).executeTakeFirst();
  if (last?.day) return utcDay(new Date(Date.parse(`${last.day}T00:00:00Z`) + DAY_MS));
  const first = await db.selectFrom('transfers').select(sql<Date | null>`min(exchange_at)`.as('at')).executeTakeFirst();
  return first?.at ? utcDay(first.at) : undefined;
}

/**
 * Reconciles every day that ended at least an hour ago (by the app's clock) and has not been
 * yet, oldest first; a day with transfers still unfinished waits for them. Answers the days done.
 */
export async function reconcileDue(db: Db, client: ExchangeClient, now: Date): Promise<{ day: string; differences: number }[]> {
  const done: { day: string; differences: number }[] = [];
  for (let day = await nextDay(db); day; day = utcDay(new Date(Date.parse(`${day}T00:00:00Z`) + DAY_MS))) {
    const end = Date.parse(`${day}T00:00:00Z`) + DAY_MS;
    if (now.getTime() < end + GRACE_MS) break;
    const unfinished = await db
      .selectFrom('transfers')
      .select('id')
      .where('status', 'in', ['requested', 'sending', 'unknown'])
      .where('created_at', '<', new Date(end))
      .limit(1)
      .executeTakeFirst();
    if (unfinished) break;
    done.push({ day, differences: await reconcileDay(db, client, day, now) });
  }
  return done;
}

export type OpenDifference = {
  id: string;
  day: string;
  kind: DifferenceKind;
  transferId: string | null;
  asset: string | null;
  platform: unknown;
  exchange: unknown;
  foundAt: string;
};

/** Differences no operator has resolved yet, oldest first. */
export async function openDifferences(db: Db, limit = 100): Promise<OpenDifference[]> {
  const rows = await db
    .selectFrom('reconciliation_differences')
    .select(['id', sql<string>`day::text`.as('day'), 'kind', 'transfer_id', 'asset', 'platform', 'exchange', 'found_at'])
    .where('resolved_at', 'is', null)
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    id: String(r.id),
    day: r.day,
    kind: r.kind,
    transferId: r.transfer_id,
    asset: r.asset,
    platform: r.platform,
    exchange: r.exchange,
    foundAt: r.found_at.toISOString(),
  }));
}

/** The last day reconciled, or null. */
export async function lastReconciledDay(db: Db): Promise<string | null> {
  const row = await db.selectFrom('reconciliations').select(sql<string | null>`max(day)::text`.as('day')).executeTakeFirst();
  return row?.day ?? null;
}
