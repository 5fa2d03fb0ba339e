import { sql } from 'kysely';
import { formatUnits } from '../../contract/money.ts';
import type { Db } from '../db/connect.ts';
import type { IncomeInputs } from '../../contract/income.ts';

/** The cursor's line, "day|orderId|kind"; anything else reads from the newest line. */
const CURSOR_RE = /^(\d{4}-\d{2}-\d{2})\|(\d{1,19})\|([a-z_]{1,40})$/;

/** Income lines of a user, newest first; the cursor is "day|orderId|kind" of the last line (`reward_log`, rewardLogFunction.ts). */
export async function rewardLog(db: Db, userId: bigint, query: { kind?: string; cursor?: string; limit?: number }) {
  const limit = query.limit ?? 20;
  const cursor = CURSOR_RE.exec(query.cursor ?? '');
  const { rows } = await sql<{ order_id: bigint; day: string; kind: string; amount: bigint; inputs: IncomeInputs }>`
    select order_id, day, kind, amount, inputs from reward_log(${userId}::bigint, ${query.kind ?? null}::text,
      ${cursor?.[1] ?? null}::date, ${cursor?.[2] ?? null}::bigint, ${cursor?.[3] ?? null}::text, ${limit + 1}::int)`.execute(db);
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
