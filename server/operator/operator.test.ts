import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS } from '../../contract/errors.ts';
import { PATHS } from '../../contract/paths.ts';
import { PARAM_NAMES } from '../../contract/operator.ts';
import { fixedClock } from '../platform/clock.ts';
import { DATABASES, startTestApp, type TestApp } from '../test/harness.ts';
import { bearer, operatorAndHolder, post } from '../test/signIn.ts';

describe.each(DATABASES)('operator settlement calls on %s', (kind) => {
  let t: TestApp;
  let operator: string;
  let holder: string;
  beforeAll(async () => {
    t = await startTestApp(kind, {
      clock: fixedClock(new Date('2026-11-01T08:00:00Z')),
      config: { operatorUserIds: [1n] },
    });
    ({ operator, holder } = await operatorAndHolder(t.app));
  });
  afterAll(async () => {
    await t.close();
  });

  it('refuses people who are not operators', async () => {
    expect((await post(t.app, PATHS.operatorClockAdvance, holder, { days: 1 })).json().code).toBe(ERRORS.FORBIDDEN.code);
    expect((await post(t.app, PATHS.operatorSettle, holder, {})).json().code).toBe(ERRORS.FORBIDDEN.code);
  });

  it('moves the clock day by day and settles each day', async () => {
    const res = await post(t.app, PATHS.operatorClockAdvance, operator, { days: 3 });
    expect(res.json().data.now).toBe('2026-11-04T08:00:00.000Z');
    expect(res.json().data.reports.map((r: { day: string }) => r.day)).toEqual(['2026-11-01', '2026-11-02', '2026-11-03']);
    const orders = (await t.app.inject({ url: PATHS.myProductList, headers: bearer(holder) })).json().data.items;
    expect(orders[0]).toMatchObject({ income: '6', status: 'in_progress', remainingDays: 27 });
  });

  it('re-runs a settled day without paying twice, and refuses a day not finished', async () => {
    const again = await post(t.app, PATHS.operatorSettle, operator, { day: '2026-11-02' });
    expect(again.json().data.reports[0]).toMatchObject({ day: '2026-11-02', status: 'already_done' });
    const today = await post(t.app, PATHS.operatorSettle, operator, { day: '2026-11-04' });
    expect(today.json().code).toBe(ERRORS.DAY_NOT_ENDED.code);
    const ahead = await post(t.app, PATHS.operatorSettle, operator, { day: '2027-03-15' });
    expect(ahead.json().code).toBe(ERRORS.DAY_NOT_ENDED.code);
    const malformed = await post(t.app, PATHS.operatorSettle, operator, { day: '2026-99-01' });
    expect(malformed.json().code).toBe(ERRORS.PARAM.code);
    const days = await t.ctx.db.selectFrom('settlement_days').select('day').where('day', '>=', '2026-11-04').execute();
    expect(days).toEqual([]);
    const orders = (await t.app.inject({ url: PATHS.myProductList, headers: bearer(holder) })).json().data.items;
    expect(orders[0].income).toBe('6');
  });

  it('keeps the clock still where the deployment does not allow moving it', async () => {
    t.ctx.config.clockAdjustable = false;
    try {
      const res = await post(t.app, PATHS.operatorClockAdvance, operator, { days: 1 });
      expect(res.json().code).toBe(ERRORS.FORBIDDEN.code);
      expect(t.ctx.clock.now().toISOString()).toBe('2026-11-04T08:00:00.000Z');
    } finally {
      t.ctx.config.clockAdjustable = true;
    }
  });

  it('refuses a funding that is no amount, and one asked by a holder', async () => {
    expect((await post(t.app, PATHS.operatorFund, operator, { account: 'treasury', asset: 'AIC', amount: '-1' })).json().code).toBe(
      ERRORS.AMOUNT_INVALID.code,
    );
    expect((await post(t.app, PATHS.operatorFund, holder, { account: 'treasury', asset: 'AIC', amount: '1' })).json().code).toBe(
      ERRORS.FORBIDDEN.code,
    );
  });

  it('schedules rates only with 7 days notice, never for a settled day; the price from today', async () => {
    const today = '2026-11-04';
    const set = (name: string, value: string, effectiveDay: string) =>
      post(t.app, PATHS.operatorParams, operator, { name, value, effectiveDay });
    expect((await set('earn.fixed30.daily_rate', '0.004', '2026-11-11')).json().code).toBe(0);
    expect((await set('earn.fixed30.daily_rate', '0.005', '2026-11-10')).json().code).toBe(ERRORS.NOTICE_TOO_SHORT.code);
    expect((await set('earn.current.daily_rate', '0.005', today)).json().code).toBe(ERRORS.NOTICE_TOO_SHORT.code);
    expect((await set('price.aic_usd', '1.25', today)).json().code).toBe(0);
    expect((await set('price.aic_usd', '1.5', '2026-11-03')).json().code).toBe(ERRORS.DAY_SETTLED.code);
    expect((await set('earn.fixed30.daily_rate', '0.004', '2026-11-02')).json().code).toBe(ERRORS.DAY_SETTLED.code);
    expect((await set('earn.fixed30.daily_rate', 'lots', '2026-11-12')).json().code).toBe(ERRORS.PARAM.code);
    expect((await set('admin.password', '1', '2026-11-12')).json().code).toBe(ERRORS.PARAM.code);
    const home = (await t.app.inject({ url: PATHS.home })).json().data;
    expect(home.price).toBe('1.25');
    const listed = (await t.app.inject({ url: PATHS.operatorParams, headers: bearer(operator) })).json().data.items;
    expect(listed).toContainEqual({ name: 'earn.fixed30.daily_rate', value: '0.004', effectiveDay: '2026-11-11' });
    expect(listed.filter((p: { name: string }) => p.name === 'earn.fixed30.daily_rate')).toHaveLength(1);
    // Each parameter's configured default comes along: the value in force before its first version.
    const { defaults } = (await t.app.inject({ url: PATHS.operatorParams, headers: bearer(operator) })).json().data;
    expect(Object.keys(defaults).sort()).toEqual([...PARAM_NAMES].sort());
    expect(defaults).toMatchObject({ 'price.aic_usd': '0.85', 'earn.minimum': '1', 'team.lockup_days': '10' });
  });

  it('reports the ledger check green, with payout coverage', async () => {
    const report = (await t.app.inject({ url: PATHS.operatorLedger, headers: bearer(operator) })).json().data;
    expect(report).toMatchObject({ ok: true, negativeUserAccounts: 0, accountsNotMatchingPostings: 0 });
    expect(report.coverage).toMatchObject({ fixedNextDay: '3', covered: true });
    expect(report.days[0]).toMatchObject({ status: 'done' });
  });

  it('keeps an audit log of operator actions', async () => {
    const items = (await t.app.inject({ url: PATHS.operatorAudit, headers: bearer(operator) })).json().data.items;
    const actions = items.map((i: { action: string }) => i.action);
    expect(actions).toEqual(expect.arrayContaining(['clock_advance', 'settle', 'set_param']));
    expect(items[0]).toMatchObject({ operatorId: '1', createdAt: expect.any(String) });
  });

  it('prices tomorrow\'s fixed-term interest at the rate in force tomorrow (the 0.004 scheduled from 11-11)', async () => {
    const coverage = async () => (await t.app.inject({ url: PATHS.operatorLedger, headers: bearer(operator) })).json().data.coverage;
    t.ctx.clock.set(new Date('2026-11-09T08:00:00Z'));
    expect(await coverage()).toMatchObject({ fixedNextDay: '3' }); // 1,000 AIC x 0.003 on 11-10
    t.ctx.clock.set(new Date('2026-11-10T08:00:00Z'));
    expect(await coverage()).toMatchObject({ fixedNextDay: '4' }); // 1,000 AIC x 0.004 on 11-11
  });
});
