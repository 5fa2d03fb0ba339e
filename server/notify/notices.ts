import { type RawBuilder, sql, type Transaction } from 'kysely';
import { type Notice, type NoticeKind, OWN_MOVE_NOTICES } from '../../contract/notifications.ts';
import type { Db } from '../db/connect.ts';
import type { Database } from '../db/schema.ts';
import { gatheredCalls, idCursor } from '../platform/readCalls.ts';
import { dayNotices, holderNotices, unreadDayNotices } from './dayNotices.ts';

type Executor = Db | Transaction<Database>;

/**
 * Tells a holder what happened, in the transaction of the event itself: the notice exists
 * exactly when the event does. Keyed by (holder, kind, key): a second run writes nothing. The
 * holder's own money moves (OWN_MOVE_NOTICES) are written read: a record, not news to them.
 */
export async function notify(
  trx: Transaction<Database>,
  notice: { userId: bigint; kind: NoticeKind; key: string; params: Record<string, string>; at: Date },
): Promise<void> {
  const read = (OWN_MOVE_NOTICES as readonly NoticeKind[]).includes(notice.kind) ? notice.at : null;
  await trx
    .insertInto('notifications')
    .values({ user_id: notice.userId, kind: notice.kind, key: notice.key, params: JSON.stringify(notice.params), created_at: notice.at, read_at: read })
    .onConflict((oc) => oc.columns(['user_id', 'kind', 'key']).doNothing())
    .execute();
}

/** The notice of a holder's own move of AIC between their wallet and an order or a claim, keyed by its journal entry. */
export function notifyOwnMove(
  trx: Transaction<Database>,
  move: { userId: bigint; entryId: bigint; kind: 'subscribed' | 'redeemed' | 'claimed'; params: Record<string, string>; at: Date },
): Promise<void> {
  return notify(trx, { userId: move.userId, kind: move.kind, key: `entry:${move.entryId}`, params: move.params, at: move.at });
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

export { decimalText } from './dayNotices.ts';

/**
 * Tells every holder credited on a settled day: the day gets its notice id and time, and each
 * holder's notice is the day's lines summed, read when asked for (dayNotices.ts). One row, not a
 * million; a second run leaves the first's id.
 */
export async function notifyDayIncome(trx: Transaction<Database>, day: string, at: Date): Promise<void> {
  await sql`
    insert into settlement_days (day, status, started_at, notice_id, notice_at)
    values (${day}, 'running', ${at}, nextval(pg_get_serial_sequence('notifications', 'id')), ${at})
    on conflict (day) do update set notice_id = excluded.notice_id, notice_at = excluded.notice_at
      where settlement_days.notice_id is null`.execute(trx);
}

const holder = (userId: bigint) => sql`${userId}::bigint`;

/** How many of the holder's notices are unread, inside a transaction (marking read answers it). */
export async function unreadCount(db: Executor, userId: bigint): Promise<number> {
  const { rows } = await sql<{ n: string }>`select notice_unread_count(${userId}) as n`.execute(db);
  return Number(rows[0]?.n ?? 0);
}

const unreadOf = gatheredCalls<{ unread: bigint | string }>('notice_unread', ['bigint']);

/** The same count for the tab bar's read, gathered with the counts asked at once (`notice_unread`). */
export async function unreadNow(db: Db, userId: bigint): Promise<number> {
  const [row] = await unreadOf(db, userId);
  return Number(row?.unread ?? 0);
}

type NoticeRow = { unread: bigint; id: bigint | null; kind: string; params: Record<string, string>; created_at: Date; read: boolean };

const noticeList = gatheredCalls<NoticeRow>('notice_list', ['bigint', 'bigint', 'int']);

/**
 * The holder's notices, newest first, `limit` after the cursor (the last id of the page before),
 * and how many are unread: one call of `notice_list` (dayNotices.ts), gathered with the pages
 * asked at once.
 */
export async function listNotices(
  db: Executor,
  userId: bigint,
  page: { cursor?: string | undefined; limit: number },
): Promise<{ items: Notice[]; nextCursor: string | null; unread: number }> {
  const rows = await noticeList(db, userId, page.cursor ? idCursor(page.cursor) : null, page.limit + 1);
  const found = rows.filter((row): row is NoticeRow & { id: bigint } => row.id !== null);
  const items = found.slice(0, page.limit).map((row) => ({
    id: String(row.id),
    kind: row.kind as NoticeKind,
    params: row.params,
    createdAt: new Date(row.created_at).toISOString(),
    read: row.read,
  }));
  const nextCursor = found.length > page.limit ? (items.at(-1)?.id ?? null) : null;
  return { items, nextCursor, unread: Number(rows[0]?.unread ?? 0) };
}

/**
 * Marks one notice of the holder's (or all of them) read; returns how many changed. A day notice
 * marked alone becomes a row, read; all of them, by moving the holder's mark past the last day told.
 */
export async function markRead(trx: Transaction<Database>, userId: bigint, which: { id: string } | { all: true }, at: Date) {
  let query = trx.updateTable('notifications').set({ read_at: at }).where('user_id', '=', userId).where('read_at', 'is', null);
  if ('id' in which) query = query.where('id', '=', BigInt(which.id));
  const rows = Number((await query.executeTakeFirst()).numUpdatedRows);
  if ('id' in which) {
    if (rows > 0) return rows;
    const day = dayNotices(holder(userId), { unread: true, where: (id) => sql`${id} = ${BigInt(which.id)}` }, 'desc');
    const made = await sql`
      insert into notifications (user_id, id, kind, key, params, created_at, read_at) overriding system value
      select ${userId}, id, kind, key, params, created_at, ${at} from (${day}) days
      on conflict do nothing`.execute(trx);
    return Number(made.numAffectedRows ?? 0n);
  }
  const unreadDays = await sql<{ n: string }>`${unreadDayNotices(holder(userId))}`.execute(trx);
  await sql`
    insert into notice_marks (user_id, read_to)
    values (${userId}, (select coalesce(max(notice_id), 0) from settlement_days))
    on conflict (user_id) do update set read_to = greatest(notice_marks.read_to, excluded.read_to)`.execute(trx);
  return rows + Number(unreadDays.rows[0]?.n ?? 0);
}

/** Whether the holder has this notice at all (read or not): another holder's id is unknown. */
export async function ownsNotice(db: Executor, userId: bigint, id: string): Promise<boolean> {
  const { rows } = await sql`
    select 1 from (${holderNotices(holder(userId), { where: (noticeId) => sql`${noticeId} = ${BigInt(id)}` }, 'desc', 1)}) found`.execute(db);
  return rows.length > 0;
}
