import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PATHS } from '../../contract/paths.ts';
import { addDays, utcDay } from '../platform/clock.ts';
import { recordCheck } from '../platform/healthChecks.ts';
import { startTestApp, type TestApp } from '../test/harness.ts';
import { bearer, operatorAndHolder } from '../test/signIn.ts';

const RULES = readFileSync(new URL('../../deploy/prometheus/aic-earn-rules.yml', import.meta.url), 'utf8');
/** The app's own series the alerting rules read (up{} is Prometheus's). */
const watched = [...new Set(RULES.match(/\baic_[a-z_]+/g) ?? [])];

/** One sample's value from the exposition text, by its full series text. */
const sample = (text: string, series: string) => {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
};

describe('the series the alerting rules watch', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp('pglite', { config: { metricsToken: 'alerts-token', operatorUserIds: [1n] } });
  });
  afterAll(async () => {
    await t.close();
  });

  const scrape = async () => (await t.app.inject({ url: '/metrics', headers: { authorization: 'Bearer alerts-token' } })).body;

  it('are all in /metrics, with healthy values on a healthy platform', async () => {
    expect(watched).toEqual(
      expect.arrayContaining(['aic_settlement_oldest_unsettled_day_end_seconds', 'aic_database_up', 'aic_ledger_check_ok', 'aic_tree_check_ok']),
    );
    const text = await scrape();
    for (const name of watched) expect(text, name).toContain(`# TYPE ${name} `);
    expect(sample(text, 'aic_database_up')).toBe(1);
    expect(sample(text, 'aic_settlement_waiting_funds_days')).toBe(0);
    // Nothing to settle yet: the oldest day not settled is today, which ends in the future.
    const today = utcDay(t.ctx.clock.now());
    expect(sample(text, 'aic_settlement_oldest_unsettled_day_end_seconds')).toBe(Date.parse(`${addDays(today, 1)}T00:00:00Z`) / 1000);
  });

  it('report the oldest day not settled, which a day settled ahead of time does not hide', async () => {
    const done = (day: string) => ({ day, status: 'done', started_at: new Date(`${addDays(day, 1)}T00:05:00Z`) });
    await t.ctx.db.insertInto('settlement_days').values([done('2026-01-01'), done('2026-01-02'), done('2026-01-05')]).execute();
    // 2026-01-03 is the oldest not settled: it ended at 2026-01-04T00:00Z.
    expect(sample(await scrape(), 'aic_settlement_oldest_unsettled_day_end_seconds')).toBe(Date.parse('2026-01-04T00:00:00Z') / 1000);
    await t.ctx.db.deleteFrom('settlement_days').execute();
  });

  it("report the last ledger and tree checks that ran anywhere, and none before the first", async () => {
    await t.ctx.db.deleteFrom('health_checks').execute();
    let text = await scrape();
    // No check has run anywhere: nothing is red, and the time of the last run says none ran.
    expect(sample(text, 'aic_ledger_check_ok')).toBe(1);
    expect(sample(text, 'aic_tree_check_ok')).toBe(1);
    expect(sample(text, 'aic_checks_last_run_seconds')).toBe(0);

    // Another process's check, in the database: this one, which ran none, reports it.
    const at = new Date('2026-01-10T00:00:00Z');
    await recordCheck(t.ctx.db, 'ledger', false, at);
    await recordCheck(t.ctx.db, 'tree', true, at);
    text = await scrape();
    expect(sample(text, 'aic_ledger_check_ok')).toBe(0);
    expect(sample(text, 'aic_tree_check_ok')).toBe(1);
    expect(sample(text, 'aic_checks_last_run_seconds')).toBe(at.getTime() / 1000);

    // The operator console's check is recorded too, and the ledger is in fact balanced.
    const { operator } = await operatorAndHolder(t.app);
    expect((await t.app.inject({ url: PATHS.operatorLedger, headers: bearer(operator) })).json().data.ok).toBe(true);
    text = await scrape();
    expect(sample(text, 'aic_ledger_check_ok')).toBe(1);
    expect(sample(text, 'aic_tree_check_ok')).toBe(1);
    expect(sample(text, 'aic_checks_last_run_seconds')).toBe(t.ctx.clock.now().getTime() / 1000);
  });

  it('report a day waiting for funds', async () => {
    await t.ctx.db
      .insertInto('settlement_days')
      .values({ day: '2026-01-02', status: 'waiting_funds', shortfall: 'treasury', started_at: new Date() })
      .execute();
    expect(sample(await scrape(), 'aic_settlement_waiting_funds_days')).toBe(1);
    await t.ctx.db.deleteFrom('settlement_days').execute();
  });
});
