import { sql } from 'kysely';
import type { Asset } from '../../contract/wallet.ts';
import type { Db } from '../db/connect.ts';

/** One posting on a holder's account with its journal entry. */
export type MovementRow = {
  entry_id: bigint;
  asset: Asset;
  account: string;
  amount: bigint;
  entry_kind: string;
  ref: string | null;
  created_at: Date;
  /** The sum of the holder's postings of this asset in the entry: what it moved in or out (flows.ts). */
  entry_net: bigint;
};

/**
 * The holder's next postings after entry `after`, in (entry id, asset, account) order, ending
 * on a whole entry. No index beyond the postings' key is needed (each secondary index on
 * postings is paid at every settlement): the key (user_id, asset, kind, entry_id) already
 * orders each account by entry id, so each account of the holder gives its next `size`
 * postings by an index range scan, and the merge keeps the smallest `size`. Every posting up
 * to the last entry of the page is among them: an account that gave `size` postings ends at or
 * after that entry, and an account has at most one posting per entry. Settlement's postings are
 * the holder's income lines (`ledger_postings`): those come from a probe of each income
 * partition's key (it starts with the holder), summed per entry and sorted, a few a day.
 */
export async function movementsAfter(db: Db, userId: bigint, after: bigint, size: number): Promise<MovementRow[]> {
  const { rows } = await sql<MovementRow>`
    with holder_accounts as (select asset, kind from accounts where user_id = ${userId}),
    candidates as (
      select p.entry_id, a.asset, a.kind as account, p.amount
      from holder_accounts a
      cross join lateral (
        select entry_id, amount from ledger_postings
        where user_id = ${userId} and asset = a.asset and kind = a.kind and entry_id > ${after}
        order by entry_id limit ${size}
      ) p
    ),
    last_entry as (
      select max(entry_id) as id from (select entry_id from candidates order by entry_id limit ${size}) head
    )
    select c.entry_id, c.asset, c.account, c.amount, e.kind as entry_kind, e.ref, e.created_at,
      sum(c.amount) over (partition by c.entry_id, c.asset)::bigint as entry_net
    from candidates c
    join last_entry l on c.entry_id <= l.id
    join journal_entries e on e.id = c.entry_id
    order by c.entry_id, c.asset, c.account`.execute(db);
  return rows;
}

export type AccountTotals = { asset: Asset; account: string; opening: bigint; credits: bigint; debits: bigint };

/** Per account of the holder: the balance before `from`, and the credits and debits until `to`. */
export async function monthTotals(db: Db, userId: bigint, from: Date, to: Date, asset?: Asset): Promise<AccountTotals[]> {
  const { rows } = await sql<AccountTotals>`
    select p.asset, p.kind as account,
      coalesce(sum(p.amount) filter (where e.created_at < ${from}), 0)::bigint as opening,
      coalesce(sum(p.amount) filter (where e.created_at >= ${from} and p.amount > 0), 0)::bigint as credits,
      coalesce(sum(p.amount) filter (where e.created_at >= ${from} and p.amount < 0), 0)::bigint as debits
    from ledger_postings p join journal_entries e on e.id = p.entry_id
    where p.user_id = ${userId} and e.created_at < ${to}
      ${asset ? sql`and p.asset = ${asset}` : sql``}
    group by p.asset, p.kind
    order by p.asset, p.kind`.execute(db);
  return rows;
}

/**
 * The month's entries that moved money between the holder and anyone else, per asset: the sum
 * of the holder's postings in each (entries between the holder's own accounts sum to zero and
 * are left out), with the entry's kind and reference for its statement type.
 */
export async function monthEntryNets(
  db: Db,
  userId: bigint,
  range: { from: Date; to: Date; asset?: Asset | undefined },
): Promise<{ asset: Asset; entry_kind: string; ref: string | null; net: bigint }[]> {
  const { rows } = await sql<{ asset: Asset; entry_kind: string; ref: string | null; net: bigint }>`
    select p.asset, e.kind as entry_kind, e.ref, sum(p.amount)::bigint as net
    from ledger_postings p join journal_entries e on e.id = p.entry_id
    where p.user_id = ${userId} and e.created_at >= ${range.from} and e.created_at < ${range.to}
      ${range.asset ? sql`and p.asset = ${range.asset}` : sql``}
    group by p.entry_id, p.asset, e.kind, e.ref
    having sum(p.amount) <> 0`.execute(db);
  return rows;
}

export type Cursor = { entryId: bigint; asset: string; account: string };

/** The month's movements after `cursor`, each with the sum of its account's movements so far. */
export async function monthMovements(
  db: Db,
  userId: bigint,
  range: { from: Date; to: Date; asset?: Asset | undefined },
  cursor: Cursor | null,
  limit: number,
): Promise<(MovementRow & { running: bigint })[]> {
  const { rows } = await sql<MovementRow & { running: bigint }>`
    with month as (
      select p.entry_id, p.asset, p.kind as account, p.amount, e.kind as entry_kind, e.ref, e.created_at,
        sum(p.amount) over (partition by p.asset, p.kind order by p.entry_id)::bigint as running,
        sum(p.amount) over (partition by p.entry_id, p.asset)::bigint as entry_net
      from ledger_postings p join journal_entries e on e.id = p.entry_id
      where p.user_id = ${userId} and e.created_at >= ${range.from} and e.created_at < ${range.to}
        ${range.asset ? sql`and p.asset = ${range.asset}` : sql``}
    )
    select * from month
    ${cursor ? sql`where (entry_id, asset, account) > (${cursor.entryId}, ${cursor.asset}, ${cursor.account})` : sql``}
    order by entry_id, asset, account
    limit ${limit}`.execute(db);
  return rows;
}
