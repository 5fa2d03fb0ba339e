import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS } from '../../contract/errors.ts';
import { PATHS } from '../../contract/paths.ts';
import { loadConfig } from '../config.ts';
import { checkLedger } from '../ledger/ledger.ts';
import { DATABASES, startTestApp, type TestApp } from '../test/harness.ts';
import { bearer, newKey, post, signIn } from '../test/signIn.ts';

describe('WITHDRAW_MINIMUM', () => {
  it('defaults to 1 and is read exactly, never as a float', () => {
    expect(loadConfig({}).withdrawMinimum).toBe('1');
    expect(loadConfig({ WITHDRAW_MINIMUM: '2.50000000' }).withdrawMinimum).toBe('2.5');
    expect(loadConfig({ WITHDRAW_MINIMUM: '0.1' }).withdrawMinimum).toBe('0.1');
    for (const bad of ['1e3', '-1', 'one', '0.000000001']) {
      expect(() => loadConfig({ WITHDRAW_MINIMUM: bad })).toThrow(/WITHDRAW_MINIMUM/);
    }
  });
});

describe.each(DATABASES)('the withdrawal and transfer-out minimum on %s', (kind) => {
  let t: TestApp;
  let holder: string;
  beforeAll(async () => {
    t = await startTestApp(kind);
    holder = (await signIn(t.app, { name: 'Mina' })).token;
    await post(t.app, PATHS.transferIn, holder, { asset: 'AIC', amount: '100' });
    await post(t.app, PATHS.transferIn, holder, { asset: 'USDT', amount: '100' });
  });
  afterAll(async () => {
    await t.close();
  });

  /** What a refusal must leave alone: balances and records (the platform's: the exchange's come from a copy that fills in apart). */
  const state = async () => {
    const { exchangeFresh: _fresh, balances, ...asset } = (await t.app.inject({ url: PATHS.getAsset, headers: bearer(holder) })).json().data;
    return {
      asset: { ...asset, balances: balances.map(({ exchange: _exchange, ...platform }: Record<string, string>) => platform) },
      records: (await t.app.inject({ url: PATHS.transferRecords, query: { limit: '100' }, headers: bearer(holder) })).json().data,
    };
  };

  it.each([
    [PATHS.withdraw, 'AIC'],
    [PATHS.withdraw, 'USDT'],
    [PATHS.transferOut, 'AIC'],
    [PATHS.transferOut, 'USDT'],
  ])('%s of %s: 1e-8 and minimum − 1e-8 refused with 129 and nothing changed; the minimum accepted', async (path, asset) => {
    for (const amount of ['0.00000001', '0.99999999']) {
      const before = await state();
      const key = newKey();
      const res = await post(t.app, path, holder, { asset, amount }, key);
      expect(res.statusCode).toBe(422);
      expect(res.json()).toMatchObject({ code: ERRORS.BELOW_TRANSFER_MINIMUM.code, data: null });
      expect(res.json().msg).not.toBe('');
      expect(await state()).toEqual(before);
      // Stored like any refusal: a repeat of the key gets the same answer.
      expect((await post(t.app, path, holder, { asset, amount }, key)).json()).toEqual(res.json());
    }
    const exact = await post(t.app, path, holder, { asset, amount: '1' });
    expect(exact.json()).toMatchObject({ code: 0, data: { amount: '1', status: 'under_review' } });
  });

  it('leaves recharges and transfers in without a minimum', async () => {
    for (const path of [PATHS.recharge, PATHS.transferIn]) {
      const res = await post(t.app, path, holder, { asset: 'AIC', amount: '0.00000001' });
      expect(res.json()).toMatchObject({ code: 0, data: { status: 'success' } });
    }
  });

  it('tells the forms the minimum of each side', async () => {
    const page = (await t.app.inject({ url: PATHS.transferPage, headers: bearer(holder) })).json().data;
    for (const asset of ['AIC', 'USDT']) {
      expect(page.assets.find((a: { asset: string }) => a.asset === asset)).toMatchObject({
        minimum: '0.00000001',
        withdrawMinimum: '1',
        fee: '0',
      });
    }
  });

  it('honours a minimum set differently', async () => {
    const saved = t.ctx.config.withdrawMinimum;
    t.ctx.config.withdrawMinimum = '5.5';
    try {
      const before = await state();
      const below = await post(t.app, PATHS.withdraw, holder, { asset: 'AIC', amount: '5.49999999' });
      expect(below.json().code).toBe(ERRORS.BELOW_TRANSFER_MINIMUM.code);
      expect(await state()).toEqual(before);
      const at = await post(t.app, PATHS.transferOut, holder, { asset: 'USDT', amount: '5.5' });
      expect(at.json()).toMatchObject({ code: 0, data: { amount: '5.5' } });
      // The old default no longer passes.
      expect((await post(t.app, PATHS.withdraw, holder, { asset: 'AIC', amount: '1' })).json().code).toBe(
        ERRORS.BELOW_TRANSFER_MINIMUM.code,
      );
      const page = (await t.app.inject({ url: PATHS.transferPage, headers: bearer(holder) })).json().data;
      expect(page.assets[0].withdrawMinimum).toBe('5.5');
    } finally {
      t.ctx.config.withdrawMinimum = saved;
    }
    expect((await checkLedger(t.ctx.db)).ok).toBe(true);
  });
});
