import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PATHS } from '../../contract/paths.ts';
import type { RateVersion } from '../../contract/rates.ts';
import { fixedClock } from '../platform/clock.ts';
import { DATABASES, startTestApp, type TestApp } from '../test/harness.ts';
import { bearer, operatorAndHolder, post } from '../test/signIn.ts';

/** A rate change announced 7 days ahead: listed, shown on the product card, then in force. */
describe.each(DATABASES)('rate history and advance notice on %s', (kind) => {
  let t: TestApp;
  let operator: string;
  let holder: string;
  const history = async () => (await t.app.inject({ url: PATHS.rateHistory })).json().data;
  const card = async (product: string) =>
    (await t.app.inject({ url: PATHS.productInfo, headers: bearer(holder) })).json().data.products.find(
      (p: { product: string }) => p.product === product,
    );
  const fixedRates = async () =>
    (await history()).items
      .filter((v: RateVersion) => v.name === 'earn.fixed30.daily_rate')
      .map((v: RateVersion) => [v.value, v.effectiveDay, v.status]);

  beforeAll(async () => {
    t = await startTestApp(kind, { clock: fixedClock(new Date('2026-11-01T08:00:00Z')), config: { operatorUserIds: [1n] } });
    ({ operator, holder } = await operatorAndHolder(t.app));
  });
  afterAll(async () => {
    await t.close();
  });

  it('lists the defaults in force, publicly, with the notice period', async () => {
    const data = await history();
    expect(data).toMatchObject({ today: '2026-11-01', noticeDays: 7 });
    expect(await fixedRates()).toEqual([['0.003', null, 'in_force']]);
    expect((await card('fixed30')).upcoming).toBeNull();
  });

  it('announces a change: the card shows it and its day before it applies', async () => {
    const res = await post(t.app, PATHS.operatorParams, operator, { name: 'earn.fixed30.daily_rate', value: '0.004', effectiveDay: '2026-11-08' });
    expect(res.json().code).toBe(0);
    expect(await fixedRates()).toEqual([
      ['0.003', null, 'in_force'],
      ['0.004', '2026-11-08', 'upcoming'],
    ]);
    const announced = (await history()).items.find((v: RateVersion) => v.value === '0.004');
    expect(announced.scheduledAt).toBe('2026-11-01T08:00:00.000Z');
    expect((await card('fixed30')).upcoming).toEqual({ name: 'earn.fixed30.daily_rate', value: '0.004', effectiveDay: '2026-11-08' });
    expect((await card('current')).upcoming).toBeNull();
  });

  it('applies it from its day: settlement pays the old rate before and the new one from then', async () => {
    const res = await post(t.app, PATHS.operatorClockAdvance, operator, { days: 8 });
    expect(res.json().data.reports.at(-1).day).toBe('2026-11-08');
    expect(await fixedRates()).toEqual([
      ['0.003', null, 'past'],
      ['0.004', '2026-11-08', 'in_force'],
    ]);
    expect((await card('fixed30')).dailyRate).toBe('0.004');
    const lines = (await t.app.inject({ url: PATHS.rewardLog, query: { kind: 'fixed', limit: '3' }, headers: bearer(holder) })).json().data.items;
    expect(lines.map((l: { day: string; amount: string }) => [l.day, l.amount])).toEqual([
      ['2026-11-08', '4'],
      ['2026-11-07', '3'],
      ['2026-11-06', '3'],
    ]);
  });
});
