import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Migration } from 'kysely/migration';
import * as migration0024 from '../db/migrations/0024_income_by_week.ts';
import * as migration0027 from '../db/migrations/0027_income_typed_inputs.ts';
import * as migration0028 from '../db/migrations/0028_income_rate_columns.ts';
import { QUARTER_WEEKS, quarterOf, weekOf } from '../db/partitions.ts';
import { addDays } from '../platform/clock.ts';
import { DATABASES, startTestApp, type TestApp } from '../test/harness.ts';
import { ensureIncomeWeek, incomePartition, mergeIncomeQuarters } from './weeks.ts';

/** Run as migrate.ts runs every migration. */
const byWeek: Migration = migration0024;
/** The later migrations that change income's columns: undone before byWeek's down, redone after its up. */
const typedInputs: Migration[] = [migration0027, migration0028];

const days = fc.integer({ min: 0, max: 20_000 }).map((n) => addDays('1990-01-01', n));

describe('weekOf', () => {
  it('is the Monday on or before the day, less than a week before it', () => {
    fc.assert(
      fc.property(days, (day) => {
        const monday = weekOf(day);
        const gap = (Date.parse(day) - Date.parse(monday)) / 86_400_000;
        expect(new Date(`${monday}T00:00:00Z`).getUTCDay()).toBe(1);
        expect(gap >= 0 && gap < 7).toBe(true);
      }),
    );
  });
});

describe.each(DATABASES)('income by week on %s', (kind) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp(kind, { seed: false });
  });
  afterAll(async () => {
    await t.close();
  });

  const insertLine = (userId: number, day: string) =>
    sql`insert into income (user_id, order_id, day, kind, amount, inputs)
      values (${userId}, 1, ${day}::date, 'fixed', 100, '{}')`.execute(t.ctx.db);
  /** Where each of the holder's lines is stored, by day. */
  const placed = async (userId: number) => {
    const { rows } = await sql<{ day: string; partition: string }>`
      select day::text as day, tableoid::regclass::text as partition from income where user_id = ${userId} order by day`.execute(t.ctx.db);
    return rows.map((r) => `${r.day} ${r.partition.replace(/^.*\./, '')}`);
  };

  it('agrees with the database on every day’s week', async () => {
    const sample = fc.sample(days, 200);
    const { rows } = await sql<{ day: string; week: string }>`
      select d::text as day, date_trunc('week', d)::date::text as week from unnest(${sample}::date[]) as d`.execute(t.ctx.db);
    for (const row of rows) expect(weekOf(row.day)).toBe(row.week);
  });

  it('keeps lines of a week without its partition in the default one, and moves them when the week’s is made', async () => {
    // 2030-04-03 is a Wednesday of the week from Monday 2030-04-01; the 8th starts the next.
    await insertLine(1, '2030-04-03');
    await insertLine(1, '2030-04-07');
    await insertLine(1, '2030-04-08');
    expect(await placed(1)).toEqual(['2030-04-03 income_default', '2030-04-07 income_default', '2030-04-08 income_default']);

    expect(await ensureIncomeWeek(t.ctx.db, '2030-04-05')).toBe(true);
    expect(await placed(1)).toEqual(['2030-04-03 income_w20300401', '2030-04-07 income_w20300401', '2030-04-08 income_default']);
    expect(await ensureIncomeWeek(t.ctx.db, '2030-04-01')).toBe(false);

    // A line written once the partition exists goes into it; the key still holds across partitions.
    await insertLine(2, '2030-04-02');
    expect(await placed(2)).toEqual(['2030-04-02 income_w20300401']);
    await expect(insertLine(1, '2030-04-03')).rejects.toThrow();
  });

  it('makes each week’s partition once when two settlements ask at the same moment', async () => {
    const made = await Promise.all([ensureIncomeWeek(t.ctx.db, '2030-05-08'), ensureIncomeWeek(t.ctx.db, '2030-05-10')]);
    expect(made.filter(Boolean)).toHaveLength(1);
    await insertLine(3, '2030-05-12');
    expect(await placed(3)).toEqual([`2030-05-12 ${incomePartition('2030-05-12')}`]);
  });

  it('keeps the lines from before the partitioning where they are, as the partition of their weeks', async () => {
    await t.ctx.db.transaction().execute(async (trx) => {
      for (const later of typedInputs.toReversed()) await later.down?.(trx);
      await byWeek.down?.(trx);
    });
    await insertLine(4, '2030-06-04');
    await insertLine(4, '2030-06-20');
    await t.ctx.db.transaction().execute(async (trx) => {
      await byWeek.up(trx);
      for (const later of typedInputs) await later.up(trx);
    });
    expect(await placed(4)).toEqual(['2030-06-04 income_before_weeks', '2030-06-20 income_before_weeks']);
    // Every line written before, of every holder, is still there (down kept them too).
    expect((await placed(1)).map((p) => p.split(' ')[0])).toEqual(['2030-04-03', '2030-04-07', '2030-04-08']);
    // The week of the last line (Monday 2030-06-17) is the old table's; the next gets its own.
    expect(await ensureIncomeWeek(t.ctx.db, '2030-06-23')).toBe(false);
    await insertLine(5, '2030-06-23');
    expect(await placed(5)).toEqual(['2030-06-23 income_before_weeks']);
    expect(await ensureIncomeWeek(t.ctx.db, '2030-06-24')).toBe(true);
    await insertLine(5, '2030-06-24');
    expect(await placed(5)).toEqual(['2030-06-23 income_before_weeks', '2030-06-24 income_w20300624']);
  });
});

describe('quarterOf', () => {
  it('is the Monday starting a run of 13 weeks from 1970-01-05, the same for each of them', () => {
    fc.assert(
      fc.property(days, (day) => {
        const first = quarterOf(day);
        const gap = (Date.parse(day) - Date.parse(first)) / 86_400_000;
        expect(new Date(`${first}T00:00:00Z`).getUTCDay()).toBe(1);
        expect(gap >= 0 && gap < 7 * QUARTER_WEEKS).toBe(true);
        expect(quarterOf(addDays(first, 7 * QUARTER_WEEKS - 1))).toBe(first);
        expect(quarterOf(addDays(first, 7 * QUARTER_WEEKS))).toBe(addDays(first, 7 * QUARTER_WEEKS));
      }),
    );
  });
});

describe.each(DATABASES)('income weeks merged by quarter on %s', (kind) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp(kind, { seed: false });
  });
  afterAll(async () => {
    await t.close();
  });

  const insertLine = (userId: number, day: string, amount = 100) =>
    sql`insert into income (user_id, order_id, day, kind, amount, inputs)
      values (${userId}, 1, ${day}::date, 'fixed', ${amount}, '{}')`.execute(t.ctx.db);
  const lines = async () => {
    const { rows } = await sql<{ line: string }>`
      select user_id || ' ' || day || ' ' || amount || ' ' || regexp_replace(tableoid::regclass::text, '^.*[.]', '') as line
      from income order by user_id, day`.execute(t.ctx.db);
    return rows.map((r) => r.line);
  };

  it('merges a past quarter’s weeks into one partition, every line kept, and leaves the weeks after it alone', async () => {
    const q = quarterOf('2031-03-05');
    const name = `income_q${q.replaceAll('-', '')}`;
    for (const week of [0, 1, 3]) {
      await ensureIncomeWeek(t.ctx.db, addDays(q, 7 * week));
      await insertLine(1, addDays(q, 7 * week + 2));
    }
    await insertLine(2, addDays(q, 14)); // a week with no partition: in the default one
    const next = addDays(q, 7 * QUARTER_WEEKS);
    await ensureIncomeWeek(t.ctx.db, next);
    await insertLine(1, next);
    const before = (await lines()).map((l) => l.split(' ').slice(0, 3).join(' '));

    // Not while the quarter's last week is last week.
    expect(await mergeIncomeQuarters(t.ctx.db, addDays(next, 3))).toEqual([]);
    expect(await mergeIncomeQuarters(t.ctx.db, addDays(next, 7))).toEqual([name]);
    const after = await lines();
    expect(after.map((l) => l.split(' ').slice(0, 3).join(' '))).toEqual(before);
    expect(after.map((l) => l.split(' ')[3])).toEqual([name, name, name, incomePartition(next), name]);
    expect(await mergeIncomeQuarters(t.ctx.db, addDays(next, 7))).toEqual([]);

    // The key still holds, and a late line of a week inside the merged range goes into it.
    await expect(insertLine(1, addDays(q, 2))).rejects.toThrow();
    expect(await ensureIncomeWeek(t.ctx.db, addDays(q, 16))).toBe(false);
    await insertLine(3, addDays(q, 16));
    expect((await lines()).at(-1)).toBe(`3 ${addDays(q, 16)} 100 ${name}`);
  });
});
