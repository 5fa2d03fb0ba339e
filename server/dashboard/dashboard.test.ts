import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postEntry, SYSTEM } from '../ledger/ledger.ts';
import { setParam, PARAM } from '../platform/params.ts';
import { DATABASES, startTestApp, type TestApp } from '../test/harness.ts';

describe.each(DATABASES)('GET /api/home on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers the six figures from the ledger, as decimal strings', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/home' });
    expect(res.statusCode).toBe(200);
    // Written out once per copy, and still sent as JSON.
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.json()).toEqual({
      code: 0,
      msg: 'success',
      data: {
        totalAmount: '0',
        price: '0.85',
        priceRate: '0.00',
        pool1: '1000000',
        pool2: '200000',
        // 1,000,000 + 200,000 / 0.85, truncated at 1e-8
        pool: '1235294.11764705',
        figures: {
          networkOutput: '0',
          lastOutput: '0',
          lastOutputDay: null,
          supercomputingPool: '1000000',
          treasury: '500000',
          stable: [{ product: 'fixed30', subscribed: '0', dailyRate: '0.003', apr: '109.50', termDays: 30 }],
        },
      },
    });
  });

  it('counts principal in earning accounts and follows the price in force', async () => {
    await t.ctx.db.transaction().execute((trx) =>
      postEntry(trx, {
        kind: 'test',
        postings: [
          { userId: SYSTEM, asset: 'AIC', kind: 'exchange', amount: -12345_6789_0000n },
          { userId: 42n, asset: 'AIC', kind: 'earning', amount: 12345_6789_0000n },
        ],
      }),
    );
    await setParam(t.ctx.db, PARAM.aicPriceUsd, '2026-10-31', '0.80');
    await setParam(t.ctx.db, PARAM.aicPriceUsd, '2026-11-01', '1');
    await setParam(t.ctx.db, PARAM.aicPriceUsd, '2026-11-02', '5'); // not in force yet
    const data = (await t.app.inject({ method: 'GET', url: '/api/home' })).json().data;
    expect(data.totalAmount).toBe('12345.6789');
    expect(data.price).toBe('1');
    expect(data.priceRate).toBe('25.00');
    expect(data.pool).toBe(String(1_200_000n));
  });

  it('answers an unknown /api path with the 404 envelope', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/nope', headers: { 'x-lang': 'en' } });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ code: 404, msg: 'Request address error', data: null });
  });
});
