import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Migration } from 'kysely/migration';
import * as migration0026 from '../db/migrations/0026_income_notices_by_week.ts';
import { DATABASES, startTestApp, type TestApp } from '../test/harness.ts';
import { listNotices, markRead, unreadCount } from './notices.ts';
import { ensureIncomeNoticesWeek, incomeNoticesPartition } from './weeks.ts';

/** Run as migrate.ts runs every migration. */
const byWeek: Migration = migration0026;

describe.each(DATABASES)('income notices by week on %s', (kind) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp(kind, { seed: false });
  });
  afterAll(async () => {
    await t.close();
  });

  const insertNotice = (userId: number, noticeKind: string, key: string) =>
    sql`insert into notifications (user_id, kind, key, params, created_at)
      values (${userId}, ${noticeKind}, ${key}, '{}', now())`.execute(t.ctx.db);
  /** Where each of the holder's notices is stored, oldest first. */
  const placed = async (userId: number) => {
    const { rows } = await sql<{ kind: string; key: string; partition: string }>`
      select kind, key, tableoid::regclass::text as partition from notifications where user_id = ${userId} order by id`.execute(t.ctx.db);
    return rows.map((r) => `${r.kind} ${r.key} ${r.partition.replace(/^.*\./, '')}`);
  };
  const ids = async (userId: number) => {
    const { rows } = await sql<{ id: string }>`select id::text as id from notifications where user_id = ${userId} order by id`.execute(t.ctx.db);
    return rows.map((r) => BigInt(r.id));
  };

  it('keeps income notices of a week without its partition in the default one, and moves them when the week’s is made', async () => {
    // 2030-04-03 is a Wednesday of the week from Monday 2030-04-01; the 8th starts the next.
    await insertNotice(1, 'income', '2030-04-03');
    await insertNotice(1, 'income', '2030-04-08');
    await insertNotice(1, 'transfer_approved', '17');
    expect(await placed(1)).toEqual([
      'income 2030-04-03 notifications_income_default',
      'income 2030-04-08 notifications_income_default',
      'transfer_approved 17 notifications_events',
    ]);

    expect(await ensureIncomeNoticesWeek(t.ctx.db, '2030-04-07')).toBe(true);
    expect(await placed(1)).toEqual([
      'income 2030-04-03 notifications_income_w20300401',
      'income 2030-04-08 notifications_income_default',
      'transfer_approved 17 notifications_events',
    ]);
    expect(await ensureIncomeNoticesWeek(t.ctx.db, '2030-04-01')).toBe(false);

    // A notice written once the partition exists goes into it; each (holder, kind, key) is told once.
    await insertNotice(2, 'income', '2030-04-02');
    expect(await placed(2)).toEqual(['income 2030-04-02 notifications_income_w20300401']);
    await expect(insertNotice(1, 'income', '2030-04-03')).rejects.toThrow();
    await expect(insertNotice(1, 'transfer_approved', '17')).rejects.toThrow();
  });

  it('lists, counts and marks read a holder’s notices across the partitions, newest first', async () => {
    await ensureIncomeNoticesWeek(t.ctx.db, '2030-04-08');
    await insertNotice(3, 'income', '2030-04-08');
    await insertNotice(3, 'member_bound', '9');
    await insertNotice(3, 'income', '2030-04-02');
    const all = await listNotices(t.ctx.db, 3n, { limit: 2 });
    expect(all.items.map((n) => [n.kind, n.read])).toEqual([
      ['income', false],
      ['member_bound', false],
    ]);
    const rest = await listNotices(t.ctx.db, 3n, { limit: 2, cursor: all.nextCursor ?? undefined });
    expect(rest).toEqual({ items: [expect.objectContaining({ kind: 'income', read: false })], nextCursor: null });
    expect(await unreadCount(t.ctx.db, 3n)).toBe(3);
    const [first] = await ids(3);
    await t.ctx.db.transaction().execute((trx) => markRead(trx, 3n, { id: String(first) }, new Date()));
    expect(await unreadCount(t.ctx.db, 3n)).toBe(2);
    await t.ctx.db.transaction().execute((trx) => markRead(trx, 3n, { all: true }, new Date()));
    expect(await unreadCount(t.ctx.db, 3n)).toBe(0);
  });

  it('makes each week’s partition once when two settlements ask at the same moment', async () => {
    const made = await Promise.all([ensureIncomeNoticesWeek(t.ctx.db, '2030-05-08'), ensureIncomeNoticesWeek(t.ctx.db, '2030-05-10')]);
    expect(made.filter(Boolean)).toHaveLength(1);
    await insertNotice(4, 'income', '2030-05-12');
    expect(await placed(4)).toEqual([`income 2030-05-12 ${incomeNoticesPartition('2030-05-12')}`]);
  });

  it('keeps every notice, its id and its read state across the change, the old income notices in one partition of their weeks', async () => {
    await t.ctx.db.transaction().execute((trx) => byWeek.down?.(trx) ?? Promise.resolve());
    await insertNotice(5, 'income', '2030-06-04');
    await insertNotice(5, 'income', '2030-06-20');
    await insertNotice(5, 'order_ended', '44');
    await sql`update notifications set read_at = now() where user_id = 5 and key = '2030-06-04'`.execute(t.ctx.db);
    const before = await ids(5);
    const unread = await unreadCount(t.ctx.db, 5n);
    await t.ctx.db.transaction().execute((trx) => byWeek.up(trx));

    expect(await ids(5)).toEqual(before);
    expect(await unreadCount(t.ctx.db, 5n)).toBe(unread);
    expect(await placed(5)).toEqual([
      'income 2030-06-04 notifications_income_before_weeks',
      'income 2030-06-20 notifications_income_before_weeks',
      'order_ended 44 notifications_events',
    ]);
    // Every notice written before, of every holder, is still there (down kept them too).
    expect((await placed(1)).map((p) => p.split(' ').slice(0, 2).join(' '))).toEqual(['income 2030-04-03', 'income 2030-04-08', 'transfer_approved 17']);
    // New notices are numbered after the old ones.
    await insertNotice(6, 'member_bound', '1');
    expect((await ids(6))[0]).toBeGreaterThan(before.at(-1) ?? 0n);
    // The week of the last income notice (Monday 2030-06-17) is the old ones' partition; the next gets its own.
    expect(await ensureIncomeNoticesWeek(t.ctx.db, '2030-06-23')).toBe(false);
    expect(await ensureIncomeNoticesWeek(t.ctx.db, '2030-06-24')).toBe(true);
    await insertNotice(6, 'income', '2030-06-24');
    expect(await placed(6)).toEqual(['member_bound 1 notifications_events', 'income 2030-06-24 notifications_income_w20300624']);
  });
});
