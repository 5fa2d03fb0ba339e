import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../test/harness.ts';

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
    t = await startTestApp('pglite', { config: { metricsToken: 'alerts-token' } });
  });
  afterAll(async () => {
    await t.close();
  });

  const scrape = async () => (await t.app.inject({ url: '/metrics', headers: { authorization: 'Bearer alerts-token' } })).body;

  it('are all in /metrics, with healthy values on a healthy platform', async () => {
    expect(watched).toEqual(
      expect.arrayContaining(['aic_settlement_last_done_day_end_seconds', 'aic_database_up', 'aic_ledger_check_ok']),
    );
    const text = await scrape();
    for (const name of watched) expect(text, name).toContain(`# TYPE ${name} `);
    expect(sample(text, 'aic_database_up')).toBe(1);
    expect(sample(text, 'aic_settlement_waiting_funds_days')).toBe(0);
    // Nothing to settle yet: the figure is "now", so AicDayNotSettled stays quiet.
    const lastDone = sample(text, 'aic_settlement_last_done_day_end_seconds') ?? 0;
    expect(Math.abs(lastDone - t.ctx.clock.now().getTime() / 1000)).toBeLessThan(86_400 * 2);
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
