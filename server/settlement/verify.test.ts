import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PATHS } from '../../contract/paths.ts';
import { createSession } from '../auth/sessions.ts';
import { PRODUCT_REGISTRY } from '../../contract/productRegistry.ts';
import { EARN_PARAM_NAMES } from '../earn/params.ts';
import { DAY_MS, fixedClock } from '../platform/clock.ts';
import { setParam } from '../platform/params.ts';
import { DATABASES, startTestApp, type TestApp } from '../test/harness.ts';
import { bearer, post, signIn } from '../test/signIn.ts';
import { settleDue } from './settle.ts';
import { lineInputs } from '../income/inputs.ts';
import { settledDays, verifyDay } from './verify.ts';

/**
 * 30 settled days of every product, with a team for rebates and rate changes in between; the
 * verifier recomputes each line apart from the settlement code and must agree to the unit.
 */
describe.each(DATABASES)('income verifier on %s', (kind) => {
  let t: TestApp;
  const ids: Record<string, bigint> = {};
  const token = (who: string) => createSession(t.ctx.db, ids[who] as bigint, 30, 'test');
  const buy = async (who: string, product: string, amount: string) =>
    expect((await post(t.app, PATHS.productBuy, await token(who), { product, amount })).json().code).toBe(0);

  beforeAll(async () => {
    t = await startTestApp(kind, { clock: fixedClock(new Date('2026-11-01T08:00:00Z')) });
    let inviter: string | undefined;
    for (const name of ['top', 'root', 'alice', 'bob', 'carol']) {
      const session = await signIn(t.app, { name });
      ids[name] = BigInt(session.userId);
      await post(t.app, PATHS.transferIn, session.token, { asset: 'AIC', amount: '20000' });
      if (inviter) await post(t.app, PATHS.bindInviter, session.token, { inviteCode: inviter });
      inviter = (await t.app.inject({ url: PATHS.userInfo, headers: bearer(session.token) })).json().data.inviteCode;
    }
    // The chain top ← root ← alice ← bob ← carol; top only invites (buying needs an inviter).
    await buy('root', 'current', '20');
    await buy('alice', 'current', '1000');
    await buy('alice', 'fixed30', '2000');
    await buy('alice', 'reinvest360', '3000');
    await buy('bob', 'reinvest360', '4999.99999999');
    await buy('carol', 'reinvest360', '7000');
    await buy('carol', 'fixed30', '333.33333333');
    // Rate changes inside the 30 days: each day must use the version then in force.
    await setParam(t.ctx.db, PRODUCT_REGISTRY.fixed30.rateParam, '2026-11-10', '0.0037');
    await setParam(t.ctx.db, PRODUCT_REGISTRY.current.rateParam, '2026-11-15', '0.00123');
    await setParam(t.ctx.db, EARN_PARAM_NAMES.poolDailyOutputRate, '2026-11-20', '0.0117');
    await setParam(t.ctx.db, EARN_PARAM_NAMES.poolMaxDailyRate, '2026-11-12', '0.0123');
    for (let day = 0; day < 31; day++) {
      t.ctx.clock.advance(DAY_MS);
      if (day === 11) await buy('bob', 'fixed30', '1234.56789');
      await settleDue(t.ctx);
    }
  }, 300_000);
  afterAll(async () => {
    await t.close();
  });

  it('agrees with settlement on every line of 30 settled days', async () => {
    const days = await settledDays(t.ctx.db);
    expect(days.length).toBeGreaterThanOrEqual(30);
    const kinds = new Set<string>();
    let lines = 0;
    for (const day of days) {
      const report = await verifyDay(t.ctx.db, t.ctx.config, day);
      expect(report.problems, day).toEqual([]);
      lines += report.lines;
      for (const [k, total] of Object.entries(report.totals)) if (total !== '0') kinds.add(k);
    }
    expect([...kinds].sort()).toEqual(['current', 'fixed', 'rebate', 'static']);
    expect(lines).toBeGreaterThan(150);
  });

  it('used the rate in force each day, with the day it took effect', async () => {
    const rateOn = async (day: string) =>
      (
        await t.ctx.db
          .selectFrom('income')
          .select(lineInputs('income').as('inputs'))
          .where('kind', '=', 'fixed')
          .where('day', '=', day)
          .executeTakeFirstOrThrow()
      ).inputs;
    expect(await rateOn('2026-11-09')).toMatchObject({ rate: '0.003', rateFrom: null });
    expect(await rateOn('2026-11-10')).toMatchObject({ rate: '0.0037', rateFrom: '2026-11-10' });
  });

  it('finds a line that differs by one unit, and a rate that was not in force', async () => {
    const day = '2026-11-12';
    const target = await t.ctx.db
      .selectFrom('income')
      .select(['user_id', 'order_id'])
      .where('day', '=', day)
      .where('kind', '=', 'static')
      .executeTakeFirstOrThrow();
    const tamper = (delta: number) =>
      sql`update income set amount = amount + ${delta} where day = ${day}::date and kind = 'static'
        and user_id = ${target.user_id} and order_id = ${target.order_id}`.execute(t.ctx.db);
    await tamper(1);
    const report = await verifyDay(t.ctx.db, t.ctx.config, day);
    await tamper(-1);
    expect(report.problems.join('\n')).toMatch(/static line of order \d+ .*recomputed/);
    expect(report.problems.join('\n')).toMatch(/static: lines total .* the ledger paid/);

    await setParam(t.ctx.db, PRODUCT_REGISTRY.fixed30.rateParam, day, '0.005');
    const changed = await verifyDay(t.ctx.db, t.ctx.config, day);
    await sql`delete from params where name = ${PRODUCT_REGISTRY.fixed30.rateParam} and effective_day = ${day}::date`.execute(t.ctx.db);
    expect(changed.problems.join('\n')).toMatch(/fixed line .* rate 0.0037, in force 0.005/);
    expect((await verifyDay(t.ctx.db, t.ctx.config, day)).problems).toEqual([]);
  });

  it('is red on a day settled before it ended', async () => {
    const day = '2026-11-13';
    const { started_at } = await t.ctx.db.selectFrom('settlement_days').select('started_at').where('day', '=', day).executeTakeFirstOrThrow();
    // As a day settled ahead by hand would be: started on the day itself, at noon.
    await t.ctx.db.updateTable('settlement_days').set({ started_at: new Date(`${day}T12:00:00Z`) }).where('day', '=', day).execute();
    const early = await verifyDay(t.ctx.db, t.ctx.config, day);
    await t.ctx.db.updateTable('settlement_days').set({ started_at }).where('day', '=', day).execute();
    expect(early.problems).toEqual([`settled at ${day}T12:00:00.000Z, before the day ended`]);
    expect((await verifyDay(t.ctx.db, t.ctx.config, day)).problems).toEqual([]);
  });
});
