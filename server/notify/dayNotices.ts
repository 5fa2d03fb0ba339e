import { type RawBuilder, sql } from 'kysely';
import { PLANNED_ONCE, readFunction } from '../db/readFunction.ts';

/**
 * A settled day's income notices (migration 0026): what the day credited and the network income
 * it unlocked (`unlocked`, the lock-ups it released: migration 0048), one notice a day. The day
 * gets one notice id, drawn from the notifications' sequence when it is told, and a holder's
 * notice of that day is read when asked for: a settled day writes one row, not one per holder (a
 * million rows a day at a million holders, into indexes holding every day before). A holder has a
 * day's notice when they were credited that day or had network income unlocked. Read: up to the
 * holder's `notice_marks.read_to` ("mark all read"), or once marked alone, when it becomes a row
 * of `notifications` (which the list then shows instead).
 */

/** An amount column as on the wire (formatUnits): 450000000 units are '4.5'. */
export const decimalText = (column: string) => sql.raw(`trim_scale(${column}::numeric / 100000000)::text`);

/** Which notices of a holder: ids after or before one, the unread only, a condition on the id. */
export type NoticeRange = {
  after?: RawBuilder<unknown>;
  before?: bigint | RawBuilder<unknown>;
  unread?: boolean;
  where?: (id: RawBuilder<unknown>) => RawBuilder<unknown>;
  /** Rows of these kinds left out (push leaves out the holder's own moves); day notices are income. */
  exceptKinds?: readonly string[];
};

const conditions = (id: RawBuilder<unknown>, range: NoticeRange, unread: RawBuilder<unknown>) => {
  const parts = [sql`true`];
  if (range.after) parts.push(sql`${id} > ${range.after}`);
  if (range.before !== undefined) parts.push(sql`${id} < ${range.before}`);
  if (range.unread) parts.push(unread);
  if (range.where) parts.push(range.where(id));
  return sql.join(parts, sql` and `);
};

const markOf = (user: RawBuilder<unknown>) =>
  sql`coalesce((select mark.read_to from notice_marks mark where mark.user_id = ${user}), 0)`;

/**
 * The holder's day notices no row holds, as (id, kind, key, params, created_at, read), newest
 * first or oldest: each settled day a probe of the holder's income lines in its week, in id
 * order, so a limit above stops the probes.
 */
export function dayNotices(user: RawBuilder<unknown>, range: NoticeRange, order: 'asc' | 'desc') {
  // Aliases of their own: a caller's condition (push's) names its own tables around this one.
  const id = sql`told.notice_id`;
  const mark = markOf(user);
  return sql`
    select told.notice_id as id, 'income'::text as kind, told.day::text as key,
      jsonb_build_object('day', told.day::text, 'total', ${decimalText('coalesce(credited.total, 0)')})
        || case when released.unlocked > 0 then jsonb_build_object('unlocked', ${decimalText('released.unlocked')}) else '{}'::jsonb end
        as params,
      told.notice_at as created_at, told.notice_id <= ${mark} as read
    from settlement_days told
    cross join lateral (
      select sum(line.amount) as total from income line where line.user_id = ${user} and line.day = told.day
    ) credited
    cross join lateral (
      select sum(l.unlockable) as unlocked from lockups l where l.user_id = ${user} and l.released_on = told.day
    ) released
    where told.notice_id is not null and (credited.total > 0 or released.unlocked > 0)
      and ${conditions(id, range, sql`${id} > ${mark}`)}
      and not exists (
        select 1 from notifications kept where kept.user_id = ${user} and kept.kind = 'income' and kept.key = told.day::text)
    order by told.notice_id ${sql.raw(order)}`;
}

/**
 * All the holder's notices in `range`, rows and day notices together, as (id, kind, key, params,
 * created_at, read): at most `limit`, newest first or oldest.
 */
export function holderNotices(user: RawBuilder<unknown>, range: NoticeRange, order: 'asc' | 'desc', limit: number | RawBuilder<unknown>) {
  const direction = sql.raw(order);
  const rows = sql`
    select kept.id, kept.kind, kept.key, kept.params, kept.created_at, kept.read_at is not null as read
    from notifications kept
    where kept.user_id = ${user} and ${conditions(sql`kept.id`, range, sql`kept.read_at is null`)}
      and ${range.exceptKinds?.length ? sql`kept.kind not in (${sql.join(range.exceptKinds.map((kind) => sql.lit(kind)))})` : sql`true`}
    order by kept.id ${direction} limit ${limit}`;
  return sql`
    select * from ((${rows}) union all (select * from (${dayNotices(user, range, order)}) days limit ${limit})) notices
    order by id ${direction} limit ${limit}`;
}

/**
 * How many of the holder's day notices are unread: one pass over the holder's lines since the
 * first day after their mark, rather than a probe per day, which grew with the days unread.
 */
export function unreadDayNotices(user: RawBuilder<unknown>) {
  const mark = markOf(user);
  return sql`
    select count(*) as n
    from (
      select line.day from income line
      where line.user_id = ${user}
        and line.day >= (select min(told.day) from settlement_days told where told.notice_id > ${mark})
      group by line.day having sum(line.amount) > 0
      union
      select l.released_on from lockups l
      where l.user_id = ${user} and l.released_on >= (select min(told.day) from settlement_days told where told.notice_id > ${mark})
      group by l.released_on having sum(l.unlockable) > 0
    ) credited
    join settlement_days told on told.day = credited.day and told.notice_id > ${mark}
    where not exists (
      select 1 from notifications kept where kept.user_id = ${user} and kept.kind = 'income' and kept.key = told.day::text)`;
}

/**
 * `notice_unread_count(user)`: how many of the holder's notices are unread, rows and day notices
 * together. A function so that each connection plans it once (`plan_cache_mode`): sent as a
 * prepared statement, PostgreSQL kept planning it at about half the calls, and its plan reads
 * every partition of `income` whatever the holder, so one plan for all holders loses no pruning.
 *
 * Code, not schema: `migrateToLatest` defines it on every start (server/sqlFunctions.ts).
 */
export const NOTICE_UNREAD_COUNT = sql`
  create or replace function notice_unread_count(p_user bigint) returns bigint
  language plpgsql stable
  ${PLANNED_ONCE}
  as $fn$
  begin
    return (select count(*) from notifications where user_id = p_user and read_at is null)
      + (${unreadDayNotices(sql.raw('p_user'))});
  end
  $fn$`;

/**
 * `notice_unread(user)`: the count above as a one-row table, so that the tab bar's counts asked in
 * one moment go as one statement (platform/readCalls.ts), as the wallet's reads do.
 */
export const NOTICE_UNREAD = readFunction(sql`notice_unread(p_user bigint) returns table (unread bigint)`, sql`select notice_unread_count(p_user)`);

/**
 * `notice_page(user, before, limit)`: the holder's notices before the id `before` (from the
 * newest when null), newest first, at most `limit`. A function for the same reason as the count
 * above; the two are read in one statement (notices.ts), so a screen costs one round trip and its
 * page and count agree.
 */
export const NOTICE_PAGE = readFunction(
  sql`notice_page(p_user bigint, p_before bigint, p_limit int)
    returns table (id bigint, kind text, key text, params jsonb, created_at timestamptz, read boolean)`,
  holderNotices(sql.raw('p_user'), { before: sql.raw('coalesce(p_before, 9223372036854775807)') }, 'desc', sql.raw('p_limit')),
);

/**
 * `notice_list(user, before, limit)`: the notification centre's page and unread count together, a
 * row per notice (one of nulls when there is none), each carrying the count, counted once
 * (`materialized`: a subquery would be pulled up into each row). notices.ts gathers the pages
 * asked at once into one statement (platform/readCalls.ts).
 */
export const NOTICE_LIST = readFunction(
  sql`notice_list(p_user bigint, p_before bigint, p_limit int)
    returns table (unread bigint, id bigint, kind text, params jsonb, created_at timestamptz, read boolean)`,
  sql`
    with n as materialized (select notice_unread_count(p_user) as unread)
    select n.unread, p.id, p.kind, p.params, p.created_at, p.read
    from n left join lateral notice_page(p_user, p_before, p_limit) p on true
    order by p.id desc`,
);
