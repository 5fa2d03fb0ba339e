import fc from 'fast-check';
import { sql, type Transaction } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/schema.ts';
import { ensureIncomeDay } from '../income/days.ts';
import { addDays } from '../platform/clock.ts';
import { DATABASES, startTestApp, type TestApp } from '../test/harness.ts';
import { dayNotices, decimalText, unreadDayNotices } from './dayNotices.ts';
import { listNotices } from './notices.ts';

const FIRST = '2026-11-05';
const DAYS = 9;
const HOLDERS = 4;
const KINDS = ['fixed', 'static', 'current', 'rebate'] as const;
class Rollback extends Error {}

const world = fc.record({
  lines: fc.array(
    fc.record({
      holder: fc.nat(HOLDERS - 1),
      day: fc.nat(DAYS - 1),
      kind: fc.constantFrom(...KINDS),
      // Zero lines too: a holder whose day sums to nothing has no notice.
      amount: fc.constantFrom(0n, 1n, 450_000_000n, 123_456_789_012n),
    }),
    { maxLength: 40 },
  ),
  // The days told, in the order they were told (ids need not follow the days).
  told: fc.uniqueArray(fc.nat(DAYS - 1), { maxLength: DAYS }),
  // Income notices kept as rows (written before migration 0026, or marked read alone).
  rows: fc.uniqueArray(fc.record({ holder: fc.nat(HOLDERS - 1), day: fc.nat(DAYS - 1), read: fc.boolean() }), {
    selector: (r) => `${r.holder}:${r.day}`,
    maxLength: 6,
  }),
  // Each holder's mark: none, or after the n-th day told.
  marks: fc.array(fc.option(fc.nat(DAYS - 1), { nil: null }), { minLength: HOLDERS, maxLength: HOLDERS }),
});
type World = typeof world extends fc.Arbitrary<infer T> ? T : never;

const holderId = (index: number) => BigInt(5001 + index);
const dayOf = (index: number) => addDays(FIRST, index);

/** Writes a drawn world: the lines, the days told with their notice ids, the rows, the marks. */
async function plant(trx: Transaction<Database>, w: World) {
  for (const [i, line] of w.lines.entries()) {
    await sql`insert into income (user_id, order_id, day, kind, amount, inputs)
      values (${holderId(line.holder)}, ${9000 + i}, ${dayOf(line.day)}, ${line.kind}, ${line.amount}, '{}')`.execute(trx);
  }
  const ids = new Map<number, bigint>();
  for (const day of w.told) {
    const { rows } = await sql<{ id: bigint }>`
      insert into settlement_days (day, status, started_at, notice_id, notice_at)
      values (${dayOf(day)}, 'done', now(), nextval(pg_get_serial_sequence('notifications', 'id')), now())
      returning notice_id as id`.execute(trx);
    ids.set(day, rows[0]?.id as bigint);
  }
  for (const row of w.rows) {
    await sql`insert into notifications (user_id, kind, key, params, created_at, read_at)
      values (${holderId(row.holder)}, 'income', ${dayOf(row.day)}, '{"day": "kept"}', now(), ${row.read ? new Date() : null})`.execute(trx);
  }
  for (const [holder, mark] of w.marks.entries()) {
    const day = mark === null ? undefined : w.told[mark % Math.max(w.told.length, 1)];
    const readTo = day === undefined ? undefined : ids.get(day);
    if (readTo !== undefined) await sql`insert into notice_marks (user_id, read_to) values (${holderId(holder)}, ${readTo})`.execute(trx);
  }
}

/**
 * The income notices as the settlement wrote them before migration 0026 (notifyDayIncome's
 * statement: the day's lines summed by holder, those above zero), for the days told that no
 * kept row covers, each with its day's notice id and read up to the holder's mark: the oracle.
 */
async function asRowsWould(trx: Transaction<Database>, holder: bigint) {
  const { rows } = await sql<{ id: string; params: Record<string, string>; read: boolean }>`
    select d.notice_id::text as id, written.params, d.notice_id <= coalesce(m.read_to, 0) as read
    from settlement_days d
    join lateral (
      select user_id, jsonb_build_object('day', d.day::text, 'total', ${decimalText('sum(amount)')}) as params
      from income
      where day = d.day
      group by user_id
      having sum(amount) > 0
    ) written on written.user_id = ${holder}
    left join notice_marks m on m.user_id = ${holder}
    where d.notice_id is not null
      and not exists (select 1 from notifications n where n.user_id = ${holder} and n.kind = 'income' and n.key = d.day::text)
    order by d.notice_id desc`.execute(trx);
  return rows;
}

describe.each(DATABASES)("a settled day's income notices read from its lines, on %s", (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind, { seed: false });
    for (let day = 0; day < DAYS; day++) await ensureIncomeDay(t.ctx.db, dayOf(day));
  });
  afterAll(async () => {
    await t.close();
  });

  it('are the notices the settlement wrote as rows, and the one-pass unread count counts the unread among them', async () => {
    await fc.assert(
      fc.asyncProperty(world, async (w) => {
        await t.ctx.db
          .transaction()
          .execute(async (trx) => {
            await plant(trx, w);
            for (let holder = 0; holder < HOLDERS; holder++) {
              const user = sql`${holderId(holder)}::bigint`;
              const expected = await asRowsWould(trx, holderId(holder));
              const { rows } = await sql<{ id: string; params: Record<string, string>; read: boolean }>`
                select id::text, params, read from (${dayNotices(user, {}, 'desc')}) days`.execute(trx);
              expect(rows).toEqual(expected);
              const unread = await sql<{ n: string }>`${unreadDayNotices(user)}`.execute(trx);
              expect(Number(unread.rows[0]?.n)).toBe(expected.filter((n) => !n.read).length);
              // The list pages rows and day notices together, newest first, each once, and each
              // page carries the count of the unread, rows and day notices alike.
              const keptUnread = w.rows.filter((r) => r.holder === holder && !r.read).length;
              const seen: string[] = [];
              for (let cursor: string | undefined, i = 0; i < 50; i++) {
                const page = await listNotices(trx, holderId(holder), { cursor, limit: 2 });
                expect(page.unread).toBe(expected.filter((n) => !n.read).length + keptUnread);
                seen.push(...page.items.map((n) => n.id));
                if (!page.nextCursor) break;
                cursor = page.nextCursor;
              }
              const kept = w.rows.filter((r) => r.holder === holder).length;
              expect(seen).toHaveLength(expected.length + kept);
              expect(seen.map(BigInt)).toEqual([...seen.map(BigInt)].sort((a, b) => (a > b ? -1 : a < b ? 1 : 0)));
              expect(seen.filter((id) => expected.some((n) => n.id === id))).toEqual(expected.map((n) => n.id));
            }
            throw new Rollback();
          })
          .catch((error) => {
            if (!(error instanceof Rollback)) throw error;
          });
      }),
      { numRuns: kind === 'pglite' ? 30 : 40 },
    );
  });
});
