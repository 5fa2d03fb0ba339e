import { type RawBuilder, sql, type Transaction } from 'kysely';
import type { Notice, NoticeKind } from '../../contract/notifications.ts';
import type { Db } from '../db/connect.ts';
import type { Database } from '../db/schema.ts';

type Executor = Db | Transaction<Database>;

/**
 * Tells a holder what happened, in the transaction of the event itself: the notice exists
 * exactly when the event does. Keyed by (holder, kind, key): a second run writes nothing.
 */
export async function notify(
  trx: Transaction<Database>,
  notice: { userId: bigint; kind: NoticeKind; key: string; params: Record<string, string>; at: Date },
): Promise<void> {
  await trx
    .insertInto('notifications')
    .values({ user_id: notice.userId, kind: notice.kind, key: notice.key, params: JSON.stringify(notice.params), created_at: notice.at })
    .onConflict((oc) => oc.columns(['user_id', 'kind', 'key']).doNothing())
    .execute();
}

/**
 * Notices from a set of rows (`user_id`, `key`, `params` jsonb), as a CTE body: the notices of a
 * settlement step or a change, written in the statement or transaction of the event, once each
 * (a second run finds them there).
 */
export const noticesFrom = (kind: NoticeKind, rows: RawBuilder<unknown>, at: Date | undefined) => sql`
  insert into notifications (user_id, kind, key, params, created_at)
  select user_id, ${kind}, key, params, coalesce(${at ?? null}::timestamptz, now()) from (${rows}) notice_rows
  on conflict (user_id, kind, key) do nothing`;

/** An amount column as on the wire (formatUnits): 450000000 units are '4.5'. */
export const decimalText = (column: string) => sql.raw(`trim_scale(${column}::numeric / 100000000)::text`);

/**
 * One notice per holder for a settled day: the AIC credited to them that day, all kinds of
 * income together (not one notice per line). One statement over the day's income rows, run
 * once: the notify step's lines commit together, so if the notice of one holder with income
 * that day is there, all are, and a second run writes nothing. Checking that one holder spares
 * the insert a conflict check on each of its rows (a third of its time at a million holders).
 */
export async function notifyDayIncome(trx: Transaction<Database>, day: string, at: Date): Promise<number> {
  const { rows } = await sql`
    select 1 from notifications
    where kind = 'income' and key = ${day}
      and user_id = (select user_id from income where day = ${day}::date and amount > 0 limit 1)`.execute(trx);
  if (rows.length > 0) return 0;
  const result = await sql`
    insert into notifications (user_id, kind, key, params, created_at)
    select user_id, 'income', ${day},
      jsonb_build_object('day', ${day}::text, 'total', ${decimalText('sum(amount)')}), ${at}
    from income
    where day = ${day}::date
    group by user_id
    having sum(amount) > 0
    -- In the keys' order: grouped by hash, the notices went into the indexes at random places,
    -- which cost twice as much on the second day (22 s against 10 s at a million holders).
    order by user_id`.execute(trx);
  return Number(result.numAffectedRows ?? 0n);
}

export async function unreadCount(db: Executor, userId: bigint): Promise<number> {
  const row = await db
    .selectFrom('notifications')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('user_id', '=', userId)
    .where('read_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The holder's notices, newest first, `limit` after the cursor (the last id of the page before). */
export async function listNotices(
  db: Executor,
  userId: bigint,
  page: { cursor?: string | undefined; limit: number },
): Promise<{ items: Notice[]; nextCursor: string | null }> {
  let query = db
    .selectFrom('notifications')
    .select(['id', 'kind', 'params', 'created_at', 'read_at'])
    .where('user_id', '=', userId)
    .orderBy('id', 'desc')
    .limit(page.limit + 1);
  if (page.cursor) query = query.where('id', '<', BigInt(page.cursor));
  const rows = await query.execute();
  const items = rows.slice(0, page.limit).map((row) => ({
    id: String(row.id),
    kind: row.kind as NoticeKind,
    params: row.params as Record<string, string>,
    createdAt: row.created_at.toISOString(),
    read: row.read_at !== null,
  }));
  return { items, nextCursor: rows.length > page.limit ? (items.at(-1)?.id ?? null) : null };
}

/** Marks one notice of the holder's (or all of them) read; returns how many changed. */
export async function markRead(trx: Transaction<Database>, userId: bigint, which: { id: string } | { all: true }, at: Date) {
  let query = trx.updateTable('notifications').set({ read_at: at }).where('user_id', '=', userId).where('read_at', 'is', null);
  if ('id' in which) query = query.where('id', '=', BigInt(which.id));
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Whether the holder has this notice at all (read or not): another holder's id is unknown. */
export async function ownsNotice(db: Executor, userId: bigint, id: string): Promise<boolean> {
  const row = await db
    .selectFrom('notifications')
    .select('id')
    .where('user_id', '=', userId)
    .where('id', '=', BigInt(id))
    .executeTakeFirst();
  return row !== undefined;
}
