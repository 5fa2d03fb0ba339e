/**
 * What a holder's notices cost to read once a settled day's income notices are read from its
 * lines (server/notify/dayNotices.ts) rather than written as a row per holder, on PostgreSQL.
 * The yardstick is the design before it, in the same run: the same notices as rows of one table
 * with notifications' indexes, read by hand-written SQL of the same shape (the code at `632cd98`).
 * History: `BENCH_NOTICE_DAYS` days (default 420, 60 weeks) of two income lines a holder
 * a day, in income's days with past weeks and quarters merged as the scheduler merges them, and a notice of
 * another kind every 21 days.
 *
 *   BENCH_DATABASE_URL=postgres://... npx tsx bench/notices.ts [holders, default 2000]
 */
import { loadavg } from 'node:os';
import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../server/db/connect.ts';
import { ensureIncomeDay, mergePastIncome } from '../server/income/days.ts';
import { listNotices, markRead, unreadCount } from '../server/notify/notices.ts';
import { pushCandidates } from '../server/notify/push.ts';
import { transact } from '../server/db/transact.ts';
import { addDays } from '../server/platform/clock.ts';
import { onScratchSchema } from './context.ts';
import { type Figure, int, report } from './report.ts';

const url = process.env.BENCH_DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/test';
const holders = Number(process.argv[2] ?? 2_000);
const days = Number(process.env.BENCH_NOTICE_DAYS ?? 420);
const FIRST = '2025-09-01';
const last = addDays(FIRST, days - 1);
const READS = 200;

const randomHolder = (from: number, to: number) => BigInt(from + Math.floor(Math.random() * (to - from + 1)));

/** Mean milliseconds of `read` over READS holders drawn from [from, to]. */
async function perHolder(from: number, to: number, read: (user: bigint) => Promise<unknown>): Promise<number> {
  for (let i = 0; i < 20; i++) await read(randomHolder(from, to));
  const begun = performance.now();
  for (let i = 0; i < READS; i++) await read(randomHolder(from, to));
  return (performance.now() - begun) / READS;
}

/** Mean milliseconds of a statement run `times` times, without JIT as the dispatcher runs it. */
async function timed(db: Db, statement: RawBuilder<unknown>, times = 20): Promise<number> {
  const run = () =>
    transact(db, async (trx) => {
      await sql`set local jit = off`.execute(trx);
      await statement.execute(trx);
    });
  await run();
  const begun = performance.now();
  for (let i = 0; i < times; i++) await run();
  return (performance.now() - begun) / times;
}

async function populate(db: Db) {
  for (let monday = FIRST; monday <= last; monday = addDays(monday, 7)) {
    const end = addDays(monday, 6) < last ? addDays(monday, 6) : last;
    for (let day = monday; day <= end; day = addDays(day, 1)) await ensureIncomeDay(db, day);
    await sql`
      insert into income (user_id, order_id, day, kind, amount, inputs)
      select u, u * 10, d::date, k, 100000000 + u, '{"rate": "0.01"}'
      from generate_series(1, ${holders}) u, generate_series(${monday}::date, ${end}::date, '1 day') d,
        unnest(array['rebate', 'static']) k
      order by 1, 2, 3, 4`.execute(db);
  }
  await mergePastIncome(db, last);
  // Each day told in turn (its notice id from the notifications' sequence), and every 21st day
  // a notice of another kind for every holder, so the two kinds' ids interleave as they would.
  await sql`
    do $$
    declare d date;
    begin
      for d in select generate_series(${sql.lit(FIRST)}::date, ${sql.lit(last)}::date, '1 day')::date loop
        insert into settlement_days (day, status, started_at, notice_id, notice_at)
        values (d, 'done', d + 1, nextval(pg_get_serial_sequence('notifications', 'id')), d + 1);
        if (d - ${sql.lit(FIRST)}::date) % 21 = 20 then
          insert into notifications (user_id, kind, key, params, created_at)
          select u, 'member_bound', d::text, '{"member": "Ana"}', d + 1 from generate_series(1, ${sql.lit(holders)}) u;
        end if;
      end loop;
    end $$`.execute(db);
  // The yardstick: the same notices as rows, as the settlement wrote them before.
  await sql`create table notices_rows (like notifications including defaults including indexes)`.execute(db);
  await sql`
    insert into notices_rows (user_id, id, kind, key, params, created_at)
    select user_id, id, kind, key, params, created_at from notifications
    union all
    select i.user_id, d.notice_id, 'income', d.day::text,
      jsonb_build_object('day', d.day::text, 'total', trim_scale(sum(i.amount)::numeric / 100000000)::text), d.notice_at
    from income i join settlement_days d on d.day = i.day
    group by i.user_id, d.notice_id, d.day, d.notice_at
    order by 1, 2`.execute(db);
  // One browser subscribed per holder, its cursor three days back: each has two or three new notices.
  await sql`
    insert into push_subscriptions (user_id, endpoint, p256dh, auth, language, after_id, created_at)
    select u, 'https://push.example.com/' || u, 'k', 'a', 'en',
      (select notice_id from settlement_days where day = ${addDays(last, -3)}::date), now()
    from generate_series(1, ${holders}) u`.execute(db);
  await sql`vacuum analyze`.execute(db);
}

/** The yardstick's reads: the list, the unread count, push's candidates, as the rows' design read them. */
const rowsList = (user: bigint) =>
  sql`select id, kind, params, created_at, read_at from notices_rows where user_id = ${user} order by id desc limit 21`;
const rowsUnread = (user: bigint) =>
  sql`select count(*) from notices_rows where user_id = ${user} and read_at is null`;
const rowsCandidates = sql`
  select s.user_id, s.id as subscription_id, n.id as notification_id
  from push_subscriptions s
  cross join lateral (
    select n.id from notices_rows n
    where n.user_id = s.user_id and n.id > s.after_id
      and not exists (
        select 1 from push_deliveries d
        where d.user_id = s.user_id and d.subscription_id = s.id and d.notification_id = n.id)
    order by n.id limit 20
  ) n
  order by n.id limit 200`;

await onScratchSchema(url, 'notices', async (db) => {
  const load = loadavg().map((n) => n.toFixed(2)).join(' ');
  await populate(db);
  const half = Math.floor(holders / 2);
  // The second half read everything: their mark is past the last day, their rows read.
  const at = new Date(`${last}T12:00:00Z`);
  for (let u = half + 1; u <= holders; u++) await transact(db, (trx) => markRead(trx, BigInt(u), { all: true }, at));
  await sql`update notices_rows set read_at = ${at} where user_id > ${half}`.execute(db);
  await sql`vacuum analyze`.execute(db);
  const check = await listNotices(db, 1n, { limit: 20 });
  const expected = (await rowsList(1n).execute(db)).rows.length;
  if (check.items.length !== Math.min(20, expected)) throw new Error('the two designs list different notices');

  const pair = (name: string, ours: number, rows: number): Figure[] => [
    { benchmark: 'notices', figure: `${name}, ms (day notices)`, value: ours.toFixed(3) },
    { benchmark: 'notices', figure: `${name}, ms (yardstick: rows)`, value: rows.toFixed(3) },
  ];
  const neverRead = [1, half] as const;
  const allRead = [half + 1, holders] as const;
  const firstPage = [
    await perHolder(...neverRead, (u) => listNotices(db, u, { limit: 20 })),
    await perHolder(...neverRead, (u) => rowsList(u).execute(db)),
  ] as const;
  const unreadAll = [
    await perHolder(...neverRead, (u) => unreadCount(db, u)),
    await perHolder(...neverRead, (u) => rowsUnread(u).execute(db)),
  ] as const;
  const unreadNone = [
    await perHolder(...allRead, (u) => unreadCount(db, u)),
    await perHolder(...allRead, (u) => rowsUnread(u).execute(db)),
  ] as const;
  const push = [await timed(db, sql`select count(*) from (${pushCandidates()}) c`), await timed(db, sql`select count(*) from (${rowsCandidates}) c`)] as const;
  const lines = Number((await sql<{ n: string }>`select count(*) as n from income`.execute(db)).rows[0]?.n ?? 0);
  const of = `${int(holders)} holders, ${days} days`;
  const figures: Figure[] = [
    { benchmark: 'notices', figure: `${of}: income lines, income notices as rows in the yardstick`, value: `${int(lines)}, ${int(holders * days)}` },
    ...pair(`${of}: the list's first page`, ...firstPage),
    ...pair(`${of}: the unread count, a holder who never read (${days + Math.floor(days / 21)} unread)`, ...unreadAll),
    ...pair(`${of}: the unread count, a holder who read all`, ...unreadNone),
    ...pair(`${of}: push's candidates, ${int(holders)} subscriptions`, ...push),
    { benchmark: 'notices', figure: 'load average at start', value: load },
  ];
  report("A holder's notices, read (PostgreSQL)", figures);
});
