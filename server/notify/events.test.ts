import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatUnits } from '../../contract/money.ts';
import type { Notice } from '../../contract/notifications.ts';
import { PATHS } from '../../contract/paths.ts';
import { createSession } from '../auth/sessions.ts';
import { postEntry, SYSTEM } from '../ledger/ledger.ts';
import { DAY_MS } from '../platform/clock.ts';
import { settleDay } from '../settlement/settle.ts';
import { DATABASES, type TestApp } from '../test/harness.ts';
import { bearer, post, type SignedIn, startWithPeople } from '../test/signIn.ts';

/**
 * The notices of an order's term, a lock-up's release and a change of terms, each written with
 * its event. Scenario: the clock frozen at 2026-11-01 08:00 UTC; two orders whose terms are
 * shortened by hand to end on 2026-11-03, so two settled days reach them.
 */
describe.each(DATABASES)('notices of terms, lock-ups and changes on %s', (kind) => {
  let t: TestApp;
  let operator: SignedIn;
  let hana: SignedIn;
  let ivo: SignedIn;
  beforeAll(async () => {
    let people: SignedIn[];
    ({ t, people } = await startWithPeople(kind, '2026-11-01T08:00:00Z', ['Olga', 'Hana', 'Ivo']));
    [operator, hana, ivo] = people as [SignedIn, SignedIn, SignedIn];
    const code = (await t.app.inject({ url: PATHS.userInfo, headers: bearer(operator.token) })).json().data.inviteCode;
    expect((await post(t.app, PATHS.bindInviter, hana.token, { inviteCode: code })).json().code).toBe(0);
    expect((await post(t.app, PATHS.transferIn, hana.token, { asset: 'AIC', amount: '3000' })).json().code).toBe(0);
  });
  afterAll(async () => {
    await t.close();
  });

  const notices = async (user: SignedIn, kindOf: Notice['kind']): Promise<Notice[]> => {
    const res = await t.app.inject({ url: PATHS.notifications, query: { limit: '50' }, headers: bearer(user.token) });
    return (res.json().data.items as Notice[]).filter((n) => n.kind === kindOf);
  };

  it("tells the holder a 30-day order is redeemable and a 360-day order's principal is back, once", async () => {
    const fixed = (await post(t.app, PATHS.productBuy, hana.token, { product: 'fixed30', amount: '1000' })).json().data.id as string;
    const pool = (await post(t.app, PATHS.productBuy, hana.token, { product: 'reinvest360', amount: '500' })).json().data.id as string;
    await sql`update orders set matures_day = '2026-11-03' where id in (${BigInt(fixed)}, ${BigInt(pool)})`.execute(t.ctx.db);
    t.ctx.clock.advance(2 * DAY_MS);
    for (const day of ['2026-11-01', '2026-11-02', '2026-11-02']) await settleDay(t.ctx, day);

    // 1,000 AIC accrued 0.3% on 11-02, its only day: 3 AIC.
    const redeemable = await notices(hana, 'order_redeemable');
    expect(redeemable.map((n) => n.params)).toEqual([{ order: fixed, principal: '1000', income: '3' }]);
    const order = await t.ctx.db.selectFrom('orders').select(['status', 'principal']).where('id', '=', BigInt(pool)).executeTakeFirstOrThrow();
    expect(order.status).toBe('ended');
    const ended = await notices(hana, 'order_ended');
    expect(ended.map((n) => n.params)).toEqual([{ order: pool, principal: formatUnits(order.principal) }]);
    expect(await notices(ivo, 'order_ended')).toEqual([]);
  });

  it("tells what a lock-up releases in the day's income notice, one notice a day, and nothing of a release of nothing", async () => {
    // Network income locked on 11-01: 12.5 AIC of which 5 unlock on 11-03; Ivo's unlocks nothing.
    await t.ctx.db.transaction().execute(async (trx) => {
      await postEntry(trx, {
        kind: 'test_funding',
        postings: [
          { userId: SYSTEM, asset: 'AIC', kind: 'exchange', amount: -2_000_000_000n },
          { userId: BigInt(operator.userId), asset: 'AIC', kind: 'locked_rewards', amount: 1_250_000_000n },
          { userId: BigInt(ivo.userId), asset: 'AIC', kind: 'locked_rewards', amount: 750_000_000n },
        ],
      });
      await trx
        .insertInto('lockups')
        .values([
          { user_id: BigInt(operator.userId), day: '2026-11-01', amount: 1_250_000_000n, unlockable: 500_000_000n, unlock_percent: '0.4', unlock_day: '2026-11-03' },
          { user_id: BigInt(ivo.userId), day: '2026-11-01', amount: 750_000_000n, unlockable: 0n, unlock_percent: '0', unlock_day: '2026-11-03' },
        ])
        .execute();
    });
    t.ctx.clock.advance(DAY_MS);
    await settleDay(t.ctx, '2026-11-03');
    expect(await notices(operator, 'lockup_released')).toEqual([]);
    const day = (await notices(operator, 'income')).filter((n) => n.params.day === '2026-11-03');
    expect(day).toHaveLength(1);
    expect(day[0]?.params.unlocked).toBe('5');
    expect((await notices(ivo, 'income')).filter((n) => n.params.day === '2026-11-03' && n.params.unlocked !== undefined)).toEqual([]);
    // The unread count counts the day once, as the list shows it.
    for (const user of [operator, ivo]) {
      const page = (await t.app.inject({ url: PATHS.notifications, query: { limit: '50' }, headers: bearer(user.token) })).json().data;
      expect(page.unread).toBe(page.items.filter((n: Notice) => !n.read).length);
    }
  });

  it('tells every holder with an order of a change of terms when it is scheduled, once, and nobody of a new price', async () => {
    const schedule = (name: string, value: string, effectiveDay: string) =>
      post(t.app, PATHS.operatorParams, operator.token, { name, value, effectiveDay });
    expect((await schedule('earn.fixed30.daily_rate', '0.004', '2026-11-20')).json().code).toBe(0);
    expect((await schedule('earn.fixed30.daily_rate', '0.004', '2026-11-20')).json().code).toBe(0);
    expect((await schedule('price.aic_usd', '1.25', '2026-11-05')).json().code).toBe(0);
    const told = await notices(hana, 'terms_change');
    expect(told.map((n) => n.params)).toEqual([{ name: 'earn.fixed30.daily_rate', value: '0.004', day: '2026-11-20' }]);
    // Ivo holds no order: nothing of his changes.
    expect(await notices(ivo, 'terms_change')).toEqual([]);
  });

  it('tells the holder of a sign-in on a browser and system none of their sessions had, not of an update or a first sign-in', async () => {
    const phone = (version: number) => `Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${version}.0 Mobile Safari/537.36`;
    const ivoId = BigInt(ivo.userId);
    const token = await createSession(t.ctx.db, ivoId, 30, phone(131));
    await createSession(t.ctx.db, ivoId, 30, phone(132));
    const told = await notices(ivo, 'new_device');
    expect(told.map((n) => n.params)).toEqual([{ browser: 'Chrome', os: 'Android' }]);
    // Keyed by the session's id, as the sessions list shows it.
    const sessions = (await t.app.inject({ url: PATHS.sessions, headers: bearer(token) })).json().data.items as { id: string; current: boolean }[];
    const current = sessions.find((s) => s.current);
    const key = await t.ctx.db.selectFrom('notifications').select('key').where('user_id', '=', ivoId).where('kind', '=', 'new_device').executeTakeFirstOrThrow();
    expect(key.key).toBe(current?.id);
    // A holder's very first session is no news.
    const { rows } = await sql<{ id: bigint }>`insert into users (subject, name, invite_code) values ('new-device-test', 'Nia', 'NIA00001') returning id`.execute(t.ctx.db);
    const nia = rows[0]?.id as bigint;
    await createSession(t.ctx.db, nia, 30, phone(131));
    const count = await t.ctx.db.selectFrom('notifications').select((eb) => eb.fn.countAll<string>().as('n')).where('user_id', '=', nia).executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(0);
  });
});
