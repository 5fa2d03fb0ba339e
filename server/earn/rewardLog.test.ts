import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatUnits } from '../../contract/money.ts';
import { PATHS } from '../../contract/paths.ts';
import { fixedClock } from '../platform/clock.ts';
import { INCOME_DAYS } from './routes.ts';
import { DATABASES, startTestApp, type TestApp } from '../test/harness.ts';
import { bearer, operatorAndHolder, post } from '../test/signIn.ts';

type Line = { orderId: string; day: string; kind: string; amount: string };

/** The reward log walked page by page against the holder's income lines read straight from the table. */
describe.each(DATABASES)('the reward log on %s', (kind) => {
  let t: TestApp;
  let holder: string;
  let userId: bigint;

  beforeAll(async () => {
    t = await startTestApp(kind, { clock: fixedClock(new Date('2026-11-01T08:00:00Z')), config: { operatorUserIds: [1n] } });
    const signedIn = await operatorAndHolder(t.app);
    holder = signedIn.holder;
    await post(t.app, PATHS.operatorClockAdvance, signedIn.operator, { days: 5 });
    userId = BigInt((await t.app.inject({ url: PATHS.userInfo, headers: bearer(holder) })).json().data.userId);
  });
  afterAll(() => t?.close());

  const walk = async (query: Record<string, string>) => {
    const lines: Line[] = [];
    let cursor: string | null = null;
    for (let page = 0; page < 100; page++) {
      const res = await t.app.inject({ url: PATHS.rewardLog, query: { ...query, limit: '2', ...(cursor ? { cursor } : {}) }, headers: bearer(holder) });
      const data = res.json().data as { items: (Line & { inputs: unknown })[]; nextCursor: string | null };
      lines.push(...data.items.map(({ orderId, day, kind: lineKind, amount }) => ({ orderId, day, kind: lineKind, amount })));
      cursor = data.nextCursor;
      if (!cursor) break;
    }
    return lines;
  };

  const fromTable = async (lineKind?: string) => {
    const { rows } = await sql<{ order_id: bigint; day: string; kind: string; amount: bigint }>`
      select order_id, day::text as day, kind, amount from income
      where user_id = ${userId} and (${lineKind ?? null}::text is null or kind = ${lineKind ?? null})
      order by day desc, order_id desc, kind desc`.execute(t.ctx.db);
    return rows.map((r) => ({ orderId: String(r.order_id), day: r.day, kind: r.kind, amount: formatUnits(r.amount) }));
  };

  it('gives every line once, newest first, two at a time, of every kind and of one', async () => {
    const all = await fromTable();
    expect(new Set(all.map((l) => l.day)).size).toBeGreaterThan(2);
    expect(await walk({})).toEqual(all);
    for (const lineKind of new Set(all.map((l) => l.kind))) expect(await walk({ kind: lineKind })).toEqual(await fromTable(lineKind));
  });

  it('gives the income of the last 30 days, today the last, each day the sum of its lines', async () => {
    const { days } = (await t.app.inject({ url: PATHS.dailyIncome, headers: bearer(holder) })).json().data as { days: { day: string; amount: string }[] };
    expect(days).toHaveLength(INCOME_DAYS);
    expect(days.at(-1)?.day).toBe('2026-11-06');
    expect(days[0]?.day).toBe('2026-10-08');
    const { rows } = await sql<{ day: string; amount: bigint }>`
      select day::text as day, sum(amount)::bigint as amount from income where user_id = ${userId} group by day`.execute(t.ctx.db);
    expect(rows.length).toBeGreaterThan(2);
    for (const row of rows) expect(days.find((d) => d.day === row.day)?.amount, row.day).toBe(formatUnits(row.amount));
  });

  it('reads from the newest line when the cursor is not one', async () => {
    const first = await walk({});
    const res = await t.app.inject({ url: PATHS.rewardLog, query: { limit: '2', cursor: 'not|a|cursor' }, headers: bearer(holder) });
    expect(res.json().data.items.map((l: Line) => l.orderId + l.day + l.kind)).toEqual(first.slice(0, 2).map((l) => l.orderId + l.day + l.kind));
  });
});
