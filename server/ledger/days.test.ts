import fc from 'fast-check';
import { sql } from 'kysely';
import type { Migration } from 'kysely/migration';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as migration0025 from '../db/migrations/0025_postings_by_week.ts';
import * as migration0032 from '../db/migrations/0032_income_postings.ts';
import { addDays } from '../platform/clock.ts';
import { DATABASES, startTestApp, type TestApp } from '../test/harness.ts';
import { checkLedger, postEntry, SYSTEM } from './ledger.ts';
import { ensurePartition, QUARTER_WEEKS, quarterOf, quarterPartition, weekIndex, weekPartition } from '../db/partitions.ts';
import { DAY_IDS, DAYS_LOCK, dayNumber, ensurePostingsDay, mergePastPostings, postingsPartition } from './days.ts';

/** Run as migrate.ts runs every migration. */
const byWeek: Migration = migration0025;
/** A later migration that reads postings (the view ledger_postings): undone before byWeek's down, redone after its up. */
const readsPostings: Migration = migration0032;

/** One entry: `amount` from the exchange into user 7's wallet; returns its id. */
const postFunding = (t: TestApp, amount: bigint) =>
  t.ctx.db.transaction().execute((trx) =>
    postEntry(trx, {
      kind: 'test_funding',
      postings: [
        { userId: SYSTEM, asset: 'AIC', kind: 'exchange', amount: -amount },
        { userId: 7n, asset: 'AIC', kind: 'wallet', amount },
      ],
    }),
  );

describe('dayNumber', () => {
  it('counts days from 1970-01-01, its ranges above the weeks’ ranges of the same days', () => {
    expect(dayNumber('1970-01-01')).toBe(0n);
    expect(dayNumber('1970-01-02')).toBe(1n);
    fc.assert(
      fc.property(fc.integer({ min: 7, max: 800_000 }), (n) => {
        const day = addDays('1970-01-01', n);
        expect(dayNumber(day)).toBe(BigInt(n));
        // The weeks' ranges (migration 0025) started at (weeks from 1970-01-05 + 1) × DAY_IDS.
        expect(dayNumber(day) > BigInt(weekIndex(day) + 2)).toBe(true);
      }),
    );
    // A day's first id stays a safe JavaScript integer for thousands of years.
    expect(dayNumber('4000-01-01') * DAY_IDS < BigInt(Number.MAX_SAFE_INTEGER)).toBe(true);
  });
});

describe.each(DATABASES)('postings by day on %s', (kind) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp(kind, { seed: false });
  });
  afterAll(async () => {
    await t.close();
  });

  const post = (amount: bigint) => postFunding(t, amount);
  /** The partition holding each of an entry's postings. */
  const partitionsOf = async (entryId: bigint) => {
    const { rows } = await sql<{ partition: string }>`
      select distinct tableoid::regclass::text as partition from postings where entry_id = ${entryId}`.execute(t.ctx.db);
    return rows.map((r) => r.partition.replace(/^.*\./, ''));
  };

  it('posts each day’s entries into the day’s partition, from the day’s first id', async () => {
    const early = await post(100n);
    expect(await partitionsOf(early)).toEqual(['postings_default']);

    expect(await ensurePostingsDay(t.ctx.db, '2030-04-03')).toBe(true);
    const first = await post(200n);
    expect(first).toBe(dayNumber('2030-04-03') * DAY_IDS);
    expect(await partitionsOf(first)).toEqual(['postings_d20300403']);
    expect(await ensurePostingsDay(t.ctx.db, '2030-04-03')).toBe(false);
    expect(await post(300n)).toBe(first + 1n);

    // A day settled late: its range is behind the ids, nothing is made.
    expect(await ensurePostingsDay(t.ctx.db, '2030-03-20')).toBe(false);
    expect(await ensurePostingsDay(t.ctx.db, '2030-04-04')).toBe(true);
    const next = await post(400n);
    expect(next).toBe(dayNumber('2030-04-04') * DAY_IDS);
    expect(await partitionsOf(next)).toEqual(['postings_d20300404']);
    expect((await checkLedger(t.ctx.db)).ok).toBe(true);
  });

  it('opens each day once when two settlements ask at the same moment', async () => {
    const opened = await Promise.all([ensurePostingsDay(t.ctx.db, '2030-05-08'), ensurePostingsDay(t.ctx.db, '2030-05-08')]);
    expect(opened.filter(Boolean)).toHaveLength(1);
    expect(await post(500n)).toBe(dayNumber('2030-05-08') * DAY_IDS);
  });

  it('moves a day’s first postings in when its sequence moved but its partition was not made', async () => {
    // A sequence moves whether or not its transaction commits: as after a failure at commit.
    const from = dayNumber('2030-05-20') * DAY_IDS;
    await sql`select setval('journal_entries_id_seq', ${from.toString()}::bigint, false)`.execute(t.ctx.db);
    const stray = await post(550n);
    expect(await partitionsOf(stray)).toEqual(['postings_default']);
    expect(await ensurePostingsDay(t.ctx.db, '2030-05-20')).toBe(true);
    expect(await partitionsOf(stray)).toEqual(['postings_d20300520']);
    expect(await post(560n)).toBe(stray + 1n);
    expect((await checkLedger(t.ctx.db)).ok).toBe(true);
  });

  it('moves the sequence up when the day’s partition was made but the process stopped before the move', async () => {
    const from = dayNumber('2030-05-24') * DAY_IDS;
    const range = { parent: 'postings', name: postingsPartition('2030-05-24'), column: 'entry_id', from: `${from}`, to: `${from + DAY_IDS}` };
    expect(await ensurePartition(t.ctx.db, range, DAYS_LOCK)).toBe(true);
    expect(await post(570n)).toBeLessThan(from);
    expect(await ensurePostingsDay(t.ctx.db, '2030-05-24')).toBe(false);
    expect(await post(580n)).toBe(from);
  });

  it('posts without a failure while days open, each entry in its range’s partition', async () => {
    let opening = true;
    const posted: bigint[] = [];
    const errors: unknown[] = [];
    const poster = async () => {
      while (opening) await post(1n).then((id) => posted.push(id), (error) => errors.push(error));
    };
    const posters = Array.from({ length: kind === 'postgres' ? 4 : 1 }, poster);
    const days = Array.from({ length: 6 }, (_, i) => addDays('2030-05-26', i));
    for (const day of days) await Promise.all([ensurePostingsDay(t.ctx.db, day), ensurePostingsDay(t.ctx.db, day)]);
    opening = false;
    await Promise.all(posters);
    expect(errors).toEqual([]);
    expect(new Set(posted).size).toBe(posted.length);
    const last = days.at(-1) as string;
    expect(await post(1n)).toBeGreaterThanOrEqual(dayNumber(last) * DAY_IDS);
    for (const day of days) {
      const from = dayNumber(day) * DAY_IDS;
      const inside = posted.filter((id) => id >= from && id < from + DAY_IDS);
      for (const id of inside) expect(await partitionsOf(id)).toEqual([postingsPartition(day)]);
    }
    expect((await checkLedger(t.ctx.db)).ok).toBe(true);
  });

  it('keeps the postings from before the partitioning where they are', async () => {
    const { rows: before } = await sql<{ n: bigint }>`select count(*) as n from postings`.execute(t.ctx.db);
    await t.ctx.db.transaction().execute(async (trx) => {
      await readsPostings.down?.(trx);
      await byWeek.down?.(trx);
    });
    const flat = await post(600n);
    await t.ctx.db.transaction().execute(async (trx) => {
      await byWeek.up(trx);
      await readsPostings.up(trx);
    });
    expect(await partitionsOf(flat)).toEqual(['postings_before_weeks']);
    const after = await post(700n);
    expect(await partitionsOf(after)).toEqual(['postings_default']);
    const { rows } = await sql<{ n: bigint }>`select count(*) as n from postings`.execute(t.ctx.db);
    expect(rows[0]?.n).toBe((before[0]?.n ?? 0n) + 4n);
    expect(await ensurePostingsDay(t.ctx.db, '2030-06-05')).toBe(true);
    expect(await partitionsOf(await post(800n))).toEqual(['postings_d20300605']);
    expect((await checkLedger(t.ctx.db)).ok).toBe(true);
  });
});

describe.each(DATABASES)('postings days merged by week and by quarter on %s', (kind) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp(kind, { seed: false });
  });
  afterAll(async () => {
    await t.close();
  });

  const postings = async () => {
    const { rows } = await sql<{ line: string }>`
      select entry_id || ' ' || user_id || ' ' || amount || ' ' || regexp_replace(tableoid::regclass::text, '^.*[.]', '') as line
      from postings order by entry_id, user_id`.execute(t.ctx.db);
    return rows.map((r) => r.line);
  };
  const stored = async () => [...new Set((await postings()).map((l) => l.split(' ')[3]))];

  it('merges past weeks’ days (a week opened before the days with them) into weeks, then a past quarter’s into one partition', async () => {
    const q = quarterOf('2031-03-05');
    // The week of the quarter's first Monday opened as before the days (migration 0025's ranges).
    const weekFrom = BigInt(weekIndex(q) + 1) * DAY_IDS;
    const week = { parent: 'postings', name: weekPartition('postings', q), column: 'entry_id', from: weekFrom.toString(), to: (weekFrom + DAY_IDS).toString() };
    expect(await ensurePartition(t.ctx.db, week, DAYS_LOCK)).toBe(true);
    await sql`select setval('journal_entries_id_seq', ${week.from}::bigint, false)`.execute(t.ctx.db);
    await postFunding(t, 100n);
    for (const day of [2, 3, 14, 15]) {
      expect(await ensurePostingsDay(t.ctx.db, addDays(q, day))).toBe(true);
      await postFunding(t, BigInt(100 + day));
    }
    const next = addDays(q, 7 * QUARTER_WEEKS);
    await ensurePostingsDay(t.ctx.db, next);
    await postFunding(t, 200n);
    const before = await postings();
    const [week0, week2, quarter] = [week.name, weekPartition('postings', addDays(q, 14)), quarterPartition('postings', q)];

    expect(await mergePastPostings(t.ctx.db, addDays(q, 28))).toEqual([week0, week2]);
    expect(await stored()).toEqual([week0, week2, postingsPartition(next)]);
    expect((await checkLedger(t.ctx.db)).ok).toBe(true);

    // Two processes' housekeeping at once: one merges, the other finds it done.
    const merged = await Promise.all([mergePastPostings(t.ctx.db, addDays(next, 7)), mergePastPostings(t.ctx.db, addDays(next, 8))]);
    expect(merged.flat()).toEqual([quarter]);
    const after = await postings();
    const strip = (lines: string[]) => lines.map((l) => l.split(' ').slice(0, 3).join(' '));
    expect(strip(after)).toEqual(strip(before));
    expect(await stored()).toEqual([quarter, postingsPartition(next)]);
    expect((await checkLedger(t.ctx.db)).ok).toBe(true);
    // New entries still go into the open day.
    await postFunding(t, 300n);
    expect((await postings()).at(-1)?.split(' ')[3]).toBe(postingsPartition(next));
  });
});
