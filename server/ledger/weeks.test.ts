import fc from 'fast-check';
import { sql } from 'kysely';
import type { Migration } from 'kysely/migration';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as migration0025 from '../db/migrations/0025_postings_by_week.ts';
import { addDays } from '../platform/clock.ts';
import { DATABASES, startTestApp, type TestApp } from '../test/harness.ts';
import { checkLedger, postEntry, SYSTEM } from './ledger.ts';
import { QUARTER_WEEKS, quarterOf } from '../db/partitions.ts';
import { ensurePostingsWeek, mergePostingsQuarters, postingsPartition, WEEK_IDS, weekNumber } from './weeks.ts';

/** Run as migrate.ts runs every migration. */
const byWeek: Migration = migration0025;

/** One entry: `amount` from the exchange into user 7's wallet; returns its id. */
const postFunding = (t: TestApp, amount: bigint) =>
  t.ctx.db.transaction().execute(async (trx) => {
    await postEntry(trx, {
      kind: 'test_funding',
      postings: [
        { userId: SYSTEM, asset: 'AIC', kind: 'exchange', amount: -amount },
        { userId: 7n, asset: 'AIC', kind: 'wallet', amount },
      ],
    });
    const { rows } = await sql<{ id: bigint }>`select max(id) as id from journal_entries`.execute(trx);
    return rows[0]?.id as bigint;
  });

describe('weekNumber', () => {
  it('counts weeks from Monday 1970-01-05, the same for every day of a week', () => {
    expect(weekNumber('1970-01-05')).toBe(1n);
    expect(weekNumber('1970-01-11')).toBe(1n);
    expect(weekNumber('1970-01-12')).toBe(2n);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 40_000 }), fc.integer({ min: 0, max: 6 }), (n, d) => {
        const monday = addDays('1970-01-05', 7 * n);
        expect(weekNumber(addDays(monday, d))).toBe(BigInt(n + 1));
      }),
    );
    // A week's first id stays a safe JavaScript integer for thousands of years.
    expect(weekNumber('4000-01-01') * WEEK_IDS < BigInt(Number.MAX_SAFE_INTEGER)).toBe(true);
  });
});

describe.each(DATABASES)('postings by week on %s', (kind) => {
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

  it('posts each week’s entries into the week’s partition, from the week’s first id', async () => {
    const early = await post(100n);
    expect(await partitionsOf(early)).toEqual(['postings_default']);

    expect(await ensurePostingsWeek(t.ctx.db, '2030-04-03')).toBe(true);
    const first = await post(200n);
    expect(first).toBe(weekNumber('2030-04-03') * WEEK_IDS);
    expect(await partitionsOf(first)).toEqual(['postings_w20300401']);
    expect(await ensurePostingsWeek(t.ctx.db, '2030-04-07')).toBe(false);
    expect(await post(300n)).toBe(first + 1n);

    // A day of an earlier week settled late: its range is behind the ids, nothing is made.
    expect(await ensurePostingsWeek(t.ctx.db, '2030-03-20')).toBe(false);
    expect(await ensurePostingsWeek(t.ctx.db, '2030-04-08')).toBe(true);
    const next = await post(400n);
    expect(next).toBe(weekNumber('2030-04-08') * WEEK_IDS);
    expect(await partitionsOf(next)).toEqual(['postings_w20300408']);
    expect((await checkLedger(t.ctx.db)).ok).toBe(true);
  });

  it('opens each week once when two settlements ask at the same moment', async () => {
    const opened = await Promise.all([ensurePostingsWeek(t.ctx.db, '2030-05-08'), ensurePostingsWeek(t.ctx.db, '2030-05-09')]);
    expect(opened.filter(Boolean)).toHaveLength(1);
    expect(await post(500n)).toBe(weekNumber('2030-05-08') * WEEK_IDS);
  });

  it('moves a week’s first postings in when its sequence moved but its partition was not made', async () => {
    // A sequence moves whether or not its transaction commits: as after a failure at commit.
    const from = weekNumber('2030-05-20') * WEEK_IDS;
    await sql`select setval('journal_entries_id_seq', ${from.toString()}::bigint, false)`.execute(t.ctx.db);
    const stray = await post(550n);
    expect(await partitionsOf(stray)).toEqual(['postings_default']);
    expect(await ensurePostingsWeek(t.ctx.db, '2030-05-21')).toBe(true);
    expect(await partitionsOf(stray)).toEqual(['postings_w20300520']);
    expect(await post(560n)).toBe(stray + 1n);
    expect((await checkLedger(t.ctx.db)).ok).toBe(true);
  });

  it('keeps the postings from before the partitioning where they are', async () => {
    const { rows: before } = await sql<{ n: bigint }>`select count(*) as n from postings`.execute(t.ctx.db);
    await t.ctx.db.transaction().execute((trx) => byWeek.down?.(trx) ?? Promise.resolve());
    const flat = await post(600n);
    await t.ctx.db.transaction().execute((trx) => byWeek.up(trx));
    expect(await partitionsOf(flat)).toEqual(['postings_before_weeks']);
    const after = await post(700n);
    expect(await partitionsOf(after)).toEqual(['postings_default']);
    const { rows } = await sql<{ n: bigint }>`select count(*) as n from postings`.execute(t.ctx.db);
    expect(rows[0]?.n).toBe((before[0]?.n ?? 0n) + 4n);
    expect(await ensurePostingsWeek(t.ctx.db, '2030-06-05')).toBe(true);
    expect(await partitionsOf(await post(800n))).toEqual(['postings_w20300603']);
    expect((await checkLedger(t.ctx.db)).ok).toBe(true);
  });
});

describe.each(DATABASES)('postings weeks merged by quarter on %s', (kind) => {
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

  it('merges a past quarter’s weeks into one partition, every posting kept, the ledger checked', async () => {
    const q = quarterOf('2031-03-05');
    const name = `postings_q${q.replaceAll('-', '')}`;
    for (const week of [0, 2, 5]) {
      await ensurePostingsWeek(t.ctx.db, addDays(q, 7 * week));
      await postFunding(t, BigInt(100 + week));
    }
    const next = addDays(q, 7 * QUARTER_WEEKS);
    await ensurePostingsWeek(t.ctx.db, next);
    await postFunding(t, 200n);
    const before = await postings();

    // Two processes' housekeeping at once: one merges, the other finds it done.
    const merged = await Promise.all([mergePostingsQuarters(t.ctx.db, addDays(next, 7)), mergePostingsQuarters(t.ctx.db, addDays(next, 8))]);
    expect(merged.flat()).toEqual([name]);
    const after = await postings();
    const strip = (lines: string[]) => lines.map((l) => l.split(' ').slice(0, 3).join(' '));
    expect(strip(after)).toEqual(strip(before));
    expect(after.map((l) => l.split(' ')[3])).toEqual([name, name, name, name, name, name, postingsPartition(next), postingsPartition(next)]);
    expect((await checkLedger(t.ctx.db)).ok).toBe(true);
    // New entries still go into the open week.
    await postFunding(t, 300n);
    expect((await postings()).at(-1)?.split(' ')[3]).toBe(postingsPartition(next));
  });
});
