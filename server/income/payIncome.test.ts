import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLedger } from '../ledger/ledger.ts';
import { addDays } from '../platform/clock.ts';
import { DATABASES, startTestApp, type TestApp } from '../test/harness.ts';
import { fundSystem } from '../test/population.ts';
import { payIncome } from './payIncome.ts';

type Line = { userId: number; orderId: number; amount: number };

/** Lines keyed by (user, order) as a step's candidates are: distinct keys, amounts >= 0. */
const lines = fc.uniqueArray(
  fc.record({ userId: fc.integer({ min: 1, max: 40 }), orderId: fc.integer({ min: 1, max: 5 }), amount: fc.integer({ min: 0, max: 1_000_000 }) }),
  { selector: (l) => `${l.userId}/${l.orderId}`, minLength: 1, maxLength: 60 },
);

/** The candidates of a step paying `chosen` into the receivers' rewards. */
const candidates = (chosen: Line[]) => sql`
  select v.user_id, v.order_id, v.amount, 'rewards' as dest, 0::bigint as principal_add, 0::bigint as power_add,
    0 as cycle_add, v.amount * 1000 as source, '0.001' as rate, null::text as rate_from
  from unnest(${chosen.map((l) => l.userId)}::bigint[], ${chosen.map((l) => l.orderId)}::bigint[],
    ${chosen.map((l) => l.amount)}::bigint[]) as v(user_id, order_id, amount)`;

/**
 * A step pays each line once: run on a part of its lines first (an earlier run that paid some),
 * then on all of them, it pays exactly the rest, whichever path the statement takes (all lines
 * new, or some already there).
 */
describe.each(DATABASES)('payIncome on %s', (kind) => {
  let t: TestApp;
  let days = 0;

  beforeAll(async () => {
    t = await startTestApp(kind, { seed: false });
    await fundSystem(t.ctx.db, { treasury: 10n ** 15n });
  });
  afterAll(async () => {
    await t.close();
  });

  const rewards = async () => {
    const { rows } = await sql<{ user_id: bigint; balance: bigint }>`
      select user_id, balance from accounts where kind = 'rewards' and asset = 'AIC'`.execute(t.ctx.db);
    return new Map(rows.map((r) => [Number(r.user_id), r.balance]));
  };

  it('pays each line once: a first run on some lines, then all of them, pays exactly the rest', async () => {
    await fc.assert(
      fc.asyncProperty(lines, fc.array(fc.boolean(), { minLength: 60, maxLength: 60 }), async (all, inFirst) => {
        const day = addDays('2027-01-01', days++);
        const first = all.filter((_, i) => inFirst[i]);
        const rest = all.filter((_, i) => !inFirst[i]);
        const before = await rewards();
        const pay = (chosen: Line[]) =>
          t.ctx.db.transaction().execute((trx) =>
            payIncome(trx, { day, kind: 'fixed', from: 'treasury', candidates: candidates(chosen) }),
          );
        const sum = (chosen: Line[]) => chosen.reduce((total, l) => total + BigInt(l.amount), 0n);
        if (first.length > 0) expect(await pay(first)).toEqual({ rows: first.length, total: sum(first) });
        expect(await pay(all)).toEqual({ rows: rest.length, total: sum(rest) });
        expect(await pay(all)).toEqual({ rows: 0, total: 0n });

        const after = await rewards();
        const owed = new Map<number, bigint>();
        for (const l of all) owed.set(l.userId, (owed.get(l.userId) ?? 0n) + BigInt(l.amount));
        for (const [user, amount] of owed) expect((after.get(user) ?? 0n) - (before.get(user) ?? 0n)).toBe(amount);
        const { rows } = await sql<{ n: bigint }>`select count(*) as n from income where day = ${day}::date`.execute(t.ctx.db);
        expect(Number(rows[0]?.n)).toBe(all.length);
      }),
      { numRuns: 15 },
    );
    expect((await checkLedger(t.ctx.db)).ok).toBe(true);
  });

  it("refuses a first run whose candidates name one line twice, and writes nothing: the key is not checked, it holds", async () => {
    const day = addDays('2027-01-01', days++);
    const before = await rewards();
    const twice: Line[] = [
      { userId: 7, orderId: 1, amount: 100 },
      { userId: 7, orderId: 1, amount: 100 },
    ];
    await expect(
      t.ctx.db.transaction().execute((trx) =>
        payIncome(trx, { day, kind: 'fixed', from: 'treasury', candidates: candidates(twice) }),
      ),
    ).rejects.toThrow(/duplicate key/);
    expect(await rewards()).toEqual(before);
    const { rows } = await sql<{ n: bigint }>`select count(*) as n from income where day = ${day}::date`.execute(t.ctx.db);
    expect(Number(rows[0]?.n)).toBe(0);
  });
});
