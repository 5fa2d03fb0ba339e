import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS } from '../../contract/errors.ts';
import { parseRate } from '../../contract/money.ts';
import { PATHS } from '../../contract/paths.ts';
import type { RateVersion } from '../../contract/rates.ts';
import type { Config } from '../config.ts';
import { fixedClock } from '../platform/clock.ts';
import { verifyDay } from '../settlement/verify.ts';
import { lineInputs } from '../income/inputs.ts';
import { DATABASES, startTestApp, type TestApp } from '../test/harness.ts';
import { bearer, operatorAndHolder, post, signIn } from '../test/signIn.ts';
import { seedTeamRules, teamRules } from './rules.ts';

const NEW_RATES = '0.2,0.05,0.03,0.02,0.01';

/**
 * Team rules are versioned like the earn terms: a rebate-rate change is announced with notice,
 * pays from its day on, and every settled day stays checkable against the rules of its day,
 * whatever the environment says at a later start.
 */
describe.each(DATABASES)('versioned team rules on %s', (kind) => {
  let t: TestApp;
  let operator: string;
  const schedule = (name: string, value: string, effectiveDay: string) =>
    post(t.app, PATHS.operatorParams, operator, { name, value, effectiveDay });
  const rebateLines = async () =>
    (
      await sql<{ day: string; amount: bigint; rate: string; source: string }>`
        select day::text as day, amount, ${lineInputs('income')}->>'rate' as rate, ${lineInputs('income')}->>'source' as source
        from income where kind = 'rebate' order by day`.execute(t.ctx.db)
    ).rows;

  beforeAll(async () => {
    t = await startTestApp(kind, { clock: fixedClock(new Date('2026-11-01T08:00:00Z')), config: { operatorUserIds: [1n] } });
    const people = await operatorAndHolder(t.app);
    operator = people.operator;
    // The holder holds 1,000 AIC for 30 days (effective) and invites Ivo, whose 1,000 AIC for
    // 360 days make the holder V1 and earn the static income the rebates are shares of.
    const ivo = (await signIn(t.app, { name: 'Ivo' })).token;
    const code = (await t.app.inject({ url: PATHS.userInfo, headers: bearer(people.holder) })).json().data.inviteCode;
    await post(t.app, PATHS.bindInviter, ivo, { inviteCode: code });
    await post(t.app, PATHS.transferIn, ivo, { asset: 'AIC', amount: '1000' });
    await post(t.app, PATHS.productBuy, ivo, { product: 'reinvest360', amount: '1000' });
  });
  afterAll(async () => {
    await t.close();
  });

  it('stores the configured rules as their first version at start-up', async () => {
    const stored = await t.ctx.db.selectFrom('params').select(['name', 'value']).where('name', 'like', 'team.%').orderBy('name').execute();
    expect(stored).toEqual([
      { name: 'team.effective_minimum', value: '10' },
      { name: 'team.level_thresholds', value: '1000,10000,50000,200000,1000000' },
      { name: 'team.lockup_days', value: '10' },
      { name: 'team.rebate_rates', value: '0.10,0.05,0.03,0.02,0.01' },
      { name: 'team.unlock_tiers', value: '10000:0.5,5000:0.3' },
    ]);
  });

  it('refuses a change with too short a notice, or in a form it cannot read, and stores nothing', async () => {
    const early = await schedule('team.rebate_rates', NEW_RATES, '2026-11-05');
    expect(early.json().code).toBe(ERRORS.NOTICE_TOO_SHORT.code);
    const unreadable = await schedule('team.rebate_rates', '0.2;0.05', '2026-11-08');
    expect(unreadable.json().code).toBe(ERRORS.PARAM.code);
    const falling = await schedule('team.level_thresholds', '1000,500', '2026-11-08');
    expect(falling.json().code).toBe(ERRORS.PARAM.code);
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from params where name like 'team.%'`.execute(t.ctx.db);
    expect(rows[0]?.n).toBe(5);
  });

  it('announces a rebate-rate change on the rates page, then pays it from its day', async () => {
    expect((await schedule('team.rebate_rates', NEW_RATES, '2026-11-08')).json().code).toBe(0);
    const listed = async () =>
      (await t.app.inject({ url: PATHS.rateHistory })).json().data.items
        .filter((v: RateVersion) => v.name === 'team.rebate_rates')
        .map((v: RateVersion) => [v.value, v.effectiveDay, v.status]);
    expect(await listed()).toEqual([
      ['0.10,0.05,0.03,0.02,0.01', null, 'in_force'],
      [NEW_RATES, '2026-11-08', 'upcoming'],
    ]);

    const advanced = await post(t.app, PATHS.operatorClockAdvance, operator, { days: 8 });
    expect(advanced.json().data.reports.at(-1)).toMatchObject({ day: '2026-11-08', status: 'done' });
    expect(await listed()).toEqual([
      ['0.10,0.05,0.03,0.02,0.01', null, 'past'],
      [NEW_RATES, '2026-11-08', 'in_force'],
    ]);
    const lines = await rebateLines();
    const byDay = Object.fromEntries(lines.map((l) => [l.day, l]));
    expect(byDay['2026-11-07']?.rate).toBe('0.10');
    expect(byDay['2026-11-08']?.rate).toBe('0.2');
    for (const line of lines) {
      const { numerator, denominator } = parseRate(line.rate);
      expect(line.amount).toBe((BigInt(line.source) * numerator) / denominator);
    }
  });

  it('checks each settled day against the rules of its day, whatever the configuration says now', async () => {
    const days = ['2026-11-07', '2026-11-08'];
    for (const day of days) expect((await verifyDay(t.ctx.db, t.ctx.config, day)).problems).toEqual([]);

    // A later start with other environment values: the stored versions stand.
    const restarted: Config = { ...t.ctx.config, team: { ...t.ctx.config.team, rebateRates: ['0.3', '0.1'], lockupDays: 3 } };
    await seedTeamRules(t.ctx.db, restarted.team, t.ctx.clock.now());
    expect((await teamRules(t.ctx.db, restarted.team, '2026-11-07')).rebateRates).toEqual(['0.10', '0.05', '0.03', '0.02', '0.01']);
    for (const day of days) expect((await verifyDay(t.ctx.db, restarted, day)).problems).toEqual([]);

    // Without stored versions the check would judge by that configuration, and say so.
    await t.ctx.db.deleteFrom('params').where('name', 'like', 'team.%').execute();
    const judged = await verifyDay(t.ctx.db, restarted, '2026-11-07');
    expect(judged.problems.some((p) => p.includes('rate 0.10, in force 0.3'))).toBe(true);
  });
});
