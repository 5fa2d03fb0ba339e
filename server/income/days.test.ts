import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Migration } from 'kysely/migration';
import * as migration0024 from '../db/migrations/0024_income_by_week.ts';
import * as migration0027 from '../db/migrations/0027_income_typed_inputs.ts';
import * as migration0028 from '../db/migrations/0028_income_rate_columns.ts';
import * as migration0032 from '../db/migrations/0032_income_postings.ts';
import { ensurePartition, QUARTER_WEEKS, quarterOf, quarterPartition, weekOf, weekPartition } from '../db/partitions.ts';
import { addDays } from '../platform/clock.ts';
import { DATABASES, startTestApp, type TestApp } from '../test/harness.ts';
import { analyzeIncomeDay, ensureIncomeDay, incomePartition, mergePastIncome } from './days.ts';

/** Run as migrate.ts runs every migration. */
const byWeek: Migration = migration0024;
/** The later migrations that change income's columns: undone before byWeek's down, redone after its up. */
const typedInputs: Migration[] = [migration0027, migration0028, migration0032];

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

describe.each(DATABASES)('income by day on %s', (kind) => {
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

  it('keeps lines of a day without its partition in the default one, and moves them when the day’s is made', async () => {
    await insertLine(1, '2030-04-03');
    await insertLine(1, '2030-04-04');
    expect(await placed(1)).toEqual(['2030-04-03 income_default', '2030-04-04 income_default']);

    expect(await ensureIncomeDay(t.ctx.db, '2030-04-03')).toBe(true);
    expect(await placed(1)).toEqual(['2030-04-03 income_d20300403', '2030-04-04 income_default']);
    expect(await ensureIncomeDay(t.ctx.db, '2030-04-03')).toBe(false);

    // A line written once the partition exists goes into it; the key still holds across partitions.
    await insertLine(2, '2030-04-03');
    expect(await placed(2)).toEqual(['2030-04-03 income_d20300403']);
    await expect(insertLine(1, '2030-04-03')).rejects.toThrow();
  });

  it('makes each day’s partition once when two settlements ask at the same moment', async () => {
    const made = await Promise.all([ensureIncomeDay(t.ctx.db, '2030-05-08'), ensureIncomeDay(t.ctx.db, '2030-05-08')]);
    expect(made.filter(Boolean)).toHaveLength(1);
    await insertLine(3, '2030-05-08');
    expect(await placed(3)).toEqual([`2030-05-08 ${incomePartition('2030-05-08')}`]);
  });

  it('leaves the days of a week made before the days in the week’s partition', async () => {
    const week = { parent: 'income', name: weekPartition('income', '2030-05-20'), column: 'day', from: '2030-05-20', to: '2030-05-27' };
    expect(await ensurePartition(t.ctx.db, week, 7201024)).toBe(true);
    expect(await ensureIncomeDay(t.ctx.db, '2030-05-22')).toBe(false);
    await insertLine(6, '2030-05-22');
    expect(await placed(6)).toEqual(['2030-05-22 income_w20300520']);
    await analyzeIncomeDay(t.ctx.db, '2030-05-22');
    expect(await ensureIncomeDay(t.ctx.db, '2030-05-27')).toBe(true);
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
    expect((await placed(1)).map((p) => p.split(' ')[0])).toEqual(['2030-04-03', '2030-04-04']);
    // The week of the last line (Monday 2030-06-17) is the old table's; the next days get their own.
    expect(await ensureIncomeDay(t.ctx.db, '2030-06-23')).toBe(false);
    await insertLine(5, '2030-06-23');
    expect(await placed(5)).toEqual(['2030-06-23 income_before_weeks']);
    expect(await ensureIncomeDay(t.ctx.db, '2030-06-24')).toBe(true);
    await insertLine(5, '2030-06-24');
    expect(await placed(5)).toEqual(['2030-06-23 income_before_weeks', '2030-06-24 income_d20300624']);
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

describe.each(DATABASES)('income days merged by week and by quarter on %s', (kind) => {
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
  const dayLine = async (userId: number, day: string) => {
    await ensureIncomeDay(t.ctx.db, day);
    await insertLine(userId, day);
  };

  it('merges past weeks’ days into weeks, then a past quarter’s into one partition, every line kept', async () => {
    const q = quarterOf('2031-03-05');
    const [week0, week3, quarter] = [weekPartition('income', q), weekPartition('income', addDays(q, 21)), quarterPartition('income', q)];
    for (const day of [0, 2, 8, 21, 22, 23, 7 * 12 + 1, 7 * 12 + 4]) await dayLine(1, addDays(q, day));
    await insertLine(2, addDays(q, 14)); // a day with no partition: in the default one
    const next = addDays(q, 7 * QUARTER_WEEKS);
    for (const day of [0, 1, 2]) await dayLine(1, addDays(next, day));
    const before = (await lines()).map((l) => l.split(' ').slice(0, 3).join(' '));
    const stored = async () => (await lines()).map((l) => l.split(' ')[3]);

    // In the next quarter's first week: the weeks before last week are merged (a week of one day
    // is left as it is), the quarter is not, nor its last week.
    expect(await mergePastIncome(t.ctx.db, addDays(next, 3))).toEqual([week0, week3]);
    const day = (n: number) => incomePartition(addDays(q, n));
    const nextDays = [0, 1, 2].map((n) => incomePartition(addDays(next, n)));
    expect(await stored()).toEqual([week0, week0, day(8), week3, week3, week3, day(85), day(88), ...nextDays, 'income_default']);
    expect(await mergePastIncome(t.ctx.db, addDays(next, 3))).toEqual([]);

    // A week later the quarter is past: its weeks and days in one partition, the default's line too.
    expect(await mergePastIncome(t.ctx.db, addDays(next, 7))).toEqual([quarter]);
    const after = await lines();
    expect(after.map((l) => l.split(' ').slice(0, 3).join(' '))).toEqual(before);
    expect(await stored()).toEqual([...Array(8).fill(quarter), ...nextDays, quarter]);
    expect(await mergePastIncome(t.ctx.db, addDays(next, 7))).toEqual([]);

    // The key still holds, and a late line of a day inside the merged range goes into it.
    await expect(insertLine(1, addDays(q, 2))).rejects.toThrow();
    expect(await ensureIncomeDay(t.ctx.db, addDays(q, 16))).toBe(false);
    await insertLine(3, addDays(q, 16));
    expect((await lines()).at(-1)).toBe(`3 ${addDays(q, 16)} 100 ${quarter}`);
  });
});
