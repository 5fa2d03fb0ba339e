import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASES, startTestApp, type TestApp } from '../test/harness.ts';

const MAX = 9_223_372_036_854_775_807n;

describe.each(DATABASES)('bigint_sum on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind, { seed: false });
  });
  afterAll(() => t?.close());

  /** Both sums of `values` (null for a missing value) grouped by `groups`, or the error's code. */
  const sums = async (values: (bigint | null)[], groups: number[], aggregate: string) => {
    try {
      const { rows } = await sql<{ g: number; s: bigint | null }>`
        select g, ${sql.raw(aggregate)} as s
        from unnest(${values.map((v) => (v === null ? null : v.toString()))}::bigint[], ${groups}::int[]) as t(v, g)
        group by g order by g`.execute(t.ctx.db);
      return rows.map((r) => [r.g, r.s]);
    } catch (error) {
      return (error as { code?: string }).code ?? String(error);
    }
  };

  const rowsOf = (bound: bigint) =>
    fc.array(fc.tuple(fc.option(fc.bigInt({ min: -bound, max: bound }), { freq: 5 }), fc.integer({ min: 0, max: 3 })), { maxLength: 30 });
  const split = (rows: [bigint | null, number][]) => [rows.map(([v]) => v), rows.map(([, g]) => g)] as const;

  it('answers what sum(x)::bigint answers, group by group, nulls skipped and null over none', async () => {
    // At most 30 values of at most MAX / 30: no partial sum leaves the range, in any order.
    await fc.assert(
      fc.asyncProperty(rowsOf(MAX / 30n), async (rows) => {
        const [values, groups] = split(rows);
        expect(await sums(values, groups, 'bigint_sum(v)')).toEqual(await sums(values, groups, 'sum(v)::bigint'));
      }),
      { numRuns: kind === 'pglite' ? 60 : 120 },
    );
  });

  it('near the range, answers the same sums or refuses with 22003: never another number', async () => {
    await fc.assert(
      fc.asyncProperty(rowsOf(MAX), async (rows) => {
        const [values, groups] = split(rows);
        const fast = await sums(values, groups, 'bigint_sum(v)');
        if (fast !== '22003') expect(fast).toEqual(await sums(values, groups, 'sum(v)::bigint'));
      }),
      { numRuns: kind === 'pglite' ? 60 : 120 },
    );
  });

  it('overflows where the sum leaves the bigint range, not where numeric would have come back into it', async () => {
    // sum(x)::bigint accepts MAX + 1 - 1; adding bigints one by one stops at MAX + 1.
    expect(await sums([MAX, 1n, -1n], [0, 0, 0], 'bigint_sum(v)')).toBe('22003');
    expect(await sums([MAX, -1n, 1n], [0, 0, 0], 'bigint_sum(v)')).toEqual([[0, MAX]]);
  });
});
