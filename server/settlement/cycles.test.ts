import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PATHS } from '../../contract/paths.ts';
import { checkLedger } from '../ledger/ledger.ts';
import { DATABASES, type TestApp } from '../test/harness.ts';
import { bearer, post, type SignedIn, startWithPeople } from '../test/signIn.ts';
import { settleDay } from './settle.ts';

/**
 * A settled day pays the current orders' cycles that ended on it, before its notices count the
 * day's income, and never a cycle that ends after the clock. Scenario: a current order bought at
 * 2026-11-01 08:00 UTC, so its cycles end at 08:00 each day.
 */
describe.each(DATABASES)('a day pays the current cycles that ended on it, on %s', (kind) => {
  let t: TestApp;
  let holder: SignedIn;
  let orderId: bigint;
  beforeAll(async () => {
    let people: SignedIn[];
    ({ t, people } = await startWithPeople(kind, '2026-11-01T08:00:00Z', ['Olga', 'Hana']));
    const [operator, hana] = people as [SignedIn, SignedIn];
    holder = hana;
    const code = (await t.app.inject({ url: PATHS.userInfo, headers: bearer(operator.token) })).json().data.inviteCode;
    expect((await post(t.app, PATHS.bindInviter, hana.token, { inviteCode: code })).json().code).toBe(0);
    expect((await post(t.app, PATHS.transferIn, hana.token, { asset: 'AIC', amount: '1000' })).json().code).toBe(0);
    const bought = await post(t.app, PATHS.productBuy, hana.token, { product: 'current', amount: '1000' });
    orderId = BigInt(bought.json().data.id);
  });
  afterAll(async () => {
    await t.close();
  });

  const currentLines = async () =>
    (
      await sql<{ day: string; amount: bigint }>`
        select day::text as day, amount from income where order_id = ${orderId} and kind = 'current' order by day`.execute(t.ctx.db)
    ).rows;

  it('pays no cycle on a day none ended', async () => {
    t.ctx.clock.set(new Date('2026-11-03T07:00:00Z'));
    expect((await settleDay(t.ctx, '2026-11-01')).status).toBe('done');
    expect(await currentLines()).toEqual([]);
  });

  it("pays the cycle that ended on the day, and the day's notice counts it", async () => {
    expect((await settleDay(t.ctx, '2026-11-02')).status).toBe('done');
    // The first cycle ended 11-02 08:00: 1,000 × 0.001. The second ends 11-03 08:00, not on 11-02.
    expect(await currentLines()).toEqual([{ day: '2026-11-02', amount: 100_000_000n }]);
    const res = await t.app.inject({ url: PATHS.notifications, query: { limit: '50' }, headers: bearer(holder.token) });
    const income = (res.json().data.items as { kind: string; params: Record<string, string> }[]).filter((n) => n.kind === 'income');
    expect(income.map((n) => n.params)).toEqual([{ day: '2026-11-02', total: '1' }]);
    expect((await checkLedger(t.ctx.db)).ok).toBe(true);
  });

  it('refuses a day not yet over, and pays nothing of it', async () => {
    // 07:00 on 11-03: the second cycle would end at 08:00.
    await expect(settleDay(t.ctx, '2026-11-03')).rejects.toMatchObject({ errorName: 'DAY_NOT_ENDED' });
    expect((await currentLines()).map((l) => l.day)).toEqual(['2026-11-02']);
    expect(await t.ctx.db.selectFrom('settlement_days').select('day').where('day', '=', '2026-11-03').execute()).toEqual([]);
  });
});
