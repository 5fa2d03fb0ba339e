import { sql } from 'kysely';
import { formatUnits } from '../../contract/money.ts';
import type { Db } from '../db/connect.ts';
import { lineInputs } from '../income/inputs.ts';

/** Income lines of a user, newest first; the cursor is "day|orderId|kind" of the last line. */
export async function rewardLog(db: Db, userId: bigint, query: { kind?: string; cursor?: string; limit?: number }) {
  const limit = query.limit ?? 20;
  let q = db
    .selectFrom('income')
    .select(['order_id', sql<string>`day::text`.as('day'), 'kind', 'amount', lineInputs('income').as('inputs')])
    .where('user_id', '=', userId);
  if (query.kind) q = q.where('kind', '=', query.kind);
  if (query.cursor) {
    const [day, orderId, kind] = query.cursor.split('|');
    if (day && orderId && kind && /^\d+$/.test(orderId)) {
      q = q.where(sql<boolean>`(day, order_id, kind) < (${day}::date, ${BigInt(orderId)}, ${kind})`);
    }
  }
  // The date column, not the text the select names `day`: the cursor's comparison is on it too.
  const rows = await q.orderBy('income.day', 'desc').orderBy('order_id', 'desc').orderBy('kind', 'desc').limit(limit + 1).execute();
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    items: page.map((r) => ({
      orderId: String(r.order_id),
      day: r.day,
      kind: r.kind,
      amount: formatUnits(r.amount),
      inputs: r.inputs,
    })),
    nextCursor: rows.length > limit && last ? `${last.day}|${last.order_id}|${last.kind}` : null,
  };
}

/** Income per day, every day of the window present (zero where nothing was earned). */
export async function dailyIncome(db: Db, userId: bigint, from: string, to: string) {
  const { rows } = await sql<{ day: string; amount: bigint }>`
    select d::date::text as day, coalesce(sum(i.amount), 0)::bigint as amount
    from generate_series(${from}::date, ${to}::date, interval '1 day') d
    left join income i on i.user_id = ${userId} and i.day = d::date
    group by d order by d`.execute(db);
  return rows.map((r) => ({ day: r.day, amount: formatUnits(r.amount) }));
}

/** Every posting on the user's own accounts, newest first; cursor "entryId|account". */
export async function userLog(db: Db, userId: bigint, query: { cursor?: string; limit?: number }) {
  const limit = query.limit ?? 20;
  let q = db
    .selectFrom('ledger_postings as p')
    .innerJoin('journal_entries as e', 'e.id', 'p.entry_id')
    .select(['e.id', 'e.kind', 'e.ref', 'e.created_at', 'p.asset', 'p.kind as account', 'p.amount'])
    .where('p.user_id', '=', userId);
  const [entryId, account] = (query.cursor ?? '').split('|');
  if (entryId && account && /^\d+$/.test(entryId)) {
    q = q.where(sql<boolean>`(e.id, p.kind) < (${BigInt(entryId)}, ${account})`);
  }
  const rows = await q.orderBy('e.id', 'desc').orderBy('p.kind', 'desc').limit(limit + 1).execute();
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    items: page.map((r) => ({
      id: String(r.id),
      kind: r.kind,
      asset: r.asset,
      account: r.account,
      amount: formatUnits(r.amount),
      ref: r.ref,
      createdAt: r.created_at.toISOString(),
    })),
    nextCursor: rows.length > limit && last ? `${last.id}|${last.account}` : null,
  };
}
