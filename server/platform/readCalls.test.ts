import { type KyselyPlugin, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASES, startTestApp, type TestApp } from '../test/harness.ts';
import { gatheredCalls, idCursor, MAX_BIGINT } from './readCalls.ts';

/** Counts the statements sent through the database it is plugged into. */
function counter(): KyselyPlugin & { sent: number } {
  const plugin = {
    sent: 0,
    transformQuery: (args: Parameters<KyselyPlugin['transformQuery']>[0]) => {
      plugin.sent++;
      return args.node;
    },
    transformResult: async (args: Parameters<KyselyPlugin['transformResult']>[0]) => args.result,
  };
  return plugin;
}

describe.each(DATABASES)('read functions called together on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind);
    await sql`
      create or replace function calls_test(p_n int, p_tag text, p_at timestamptz)
      returns table (i int, tag text, at text) language sql stable as $fn$
        select g, p_tag || ':' || g, to_char(p_at at time zone 'UTC', 'YYYY-MM-DD') from generate_series(p_n, 1, -1) g
      $fn$`.execute(t.ctx.db);
  });
  afterAll(() => t?.close());

  const calls = gatheredCalls<{ i: number; tag: string; at: string | null }>('calls_test', ['int', 'text', 'timestamptz']);
  const expected = (n: number, tag: string, at: string | null) => Array.from({ length: n }, (_, k) => ({ i: n - k, tag: `${tag}:${n - k}`, at }));

  it('answers each call of a turn its own rows, in the function’s order, in one statement', async () => {
    const plugin = counter();
    const db = t.ctx.db.withPlugin(plugin);
    const asks = [
      [3, 'a', '2026-11-01T08:00:00.000Z'],
      [0, 'none', null],
      [5, 'quote\'s, "comma"', '2026-12-31T23:59:59.999Z'],
      [3, 'a', '2026-11-01T08:00:00.000Z'],
      [1, '{braces}', null],
    ] as const;
    const answers = await Promise.all(asks.map(([n, tag, at]) => calls(db, n, tag, at)));
    expect(plugin.sent).toBe(1);
    answers.forEach((rows, k) => {
      const [n, tag, at] = asks[k] as (typeof asks)[number];
      expect(rows).toEqual(expected(n, tag, at?.slice(0, 10) ?? null));
    });
    expect(await calls(db, 2, 'later', null)).toEqual(expected(2, 'later', null));
    expect(plugin.sent).toBe(2);
  });

  it('fails the calls of a turn whose statement failed, and only those', async () => {
    const failing = gatheredCalls<{ i: number }>('calls_test_missing', ['int']);
    const turn = Promise.allSettled([failing(t.ctx.db, 1), failing(t.ctx.db, 2)]);
    expect((await turn).map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(await calls(t.ctx.db, 1, 'after', null)).toEqual(expected(1, 'after', null));
  });

  it('refuses a call with a NUL in its text alone, before it could fail its turn', async () => {
    const [refused, fine] = await Promise.allSettled([calls(t.ctx.db, 1, 'a\u0000b', null), calls(t.ctx.db, 1, 'b', null)]);
    expect(refused.status).toBe('rejected');
    expect(fine).toEqual({ status: 'fulfilled', value: expected(1, 'b', null) });
  });
});

describe('id cursors', () => {
  it('read up to 19 digits as a bigint, those past the largest as the largest', () => {
    expect(idCursor('42')).toBe(42n);
    expect(idCursor('9223372036854775807')).toBe(MAX_BIGINT);
    expect(idCursor('9999999999999999999')).toBe(MAX_BIGINT);
  });
});
