import { afterAll, afterEach, beforeAll, describe, expect, it, type MockInstance, vi } from 'vitest';
import type { HolderBalances } from '../../contract/exchange.ts';
import { PATHS } from '../../contract/paths.ts';
import { NO_FAULTS } from '../exchange/faults.ts';
import { DATABASES, startTestApp, type TestApp } from '../test/harness.ts';
import { bearer, post, signIn } from '../test/signIn.ts';
import { boundedCopies, exchangeBalanceCopies } from './exchangeBalances.ts';
import type { ExchangeClient } from './exchangeClient.ts';

/** A clock the test moves by hand. */
const manualClock = () => {
  let at = 1_000_000;
  return { now: () => at, advance: (ms: number) => (at += ms) };
};

describe('boundedCopies', () => {
  it('keeps a value for its time to live, then no more', () => {
    const clock = manualClock();
    const copies = boundedCopies<string, number>({ ttlMs: 1_000, maxEntries: 10, now: clock.now });
    copies.set('a', 1);
    clock.advance(999);
    expect(copies.get('a')).toBe(1);
    clock.advance(1);
    expect(copies.get('a')).toBeUndefined();
    expect(copies.size).toBe(0);
  });

  it('drops the oldest beyond its size, a value kept again counting as new', () => {
    const clock = manualClock();
    const copies = boundedCopies<number, string>({ ttlMs: 60_000, maxEntries: 3, now: clock.now });
    for (const key of [1, 2, 3]) copies.set(key, `v${key}`);
    copies.set(4, 'v4');
    expect([1, 2, 3, 4].map((key) => copies.get(key))).toEqual([undefined, 'v2', 'v3', 'v4']);
    copies.set(2, 'v2 again');
    copies.set(5, 'v5');
    expect([2, 3, 4, 5].map((key) => copies.get(key))).toEqual(['v2 again', undefined, 'v4', 'v5']);
    expect(copies.size).toBe(3);
  });

  it('lets expired values go as new ones come, and keeps nothing with no time to live', () => {
    const clock = manualClock();
    const copies = boundedCopies<number, string>({ ttlMs: 1_000, maxEntries: 100, now: clock.now });
    for (let key = 0; key < 50; key++) copies.set(key, 'old');
    clock.advance(1_000);
    copies.set(99, 'new');
    expect(copies.size).toBe(1);
    const none = boundedCopies<number, string>({ ttlMs: 0, maxEntries: 100, now: clock.now });
    none.set(1, 'x');
    expect(none.get(1)).toBeUndefined();
  });
});

/** An exchange whose answers the test hands out one by one, counting the calls. */
function heldExchange() {
  const waiting: ((answer: HolderBalances | undefined) => void)[] = [];
  const balances = vi.fn((_token: string) => new Promise<HolderBalances | undefined>((resolve) => waiting.push(resolve)));
  const answer = async (aic: string) => {
    // Past the token lookup: the call is made a turn or two after the read starts.
    await vi.waitFor(() => expect(waiting.length).toBeGreaterThan(0));
    waiting.shift()?.({ balances: [{ asset: 'AIC', available: aic }, { asset: 'USDT', available: '1' }] });
  };
  return { port: { client: { balances }, accessToken: async () => 'token' }, balances, answer };
}

describe('exchangeBalanceCopies', () => {
  it('asks the exchange once for every read of a holder meanwhile, then not again within the time to live', async () => {
    const clock = manualClock();
    const exchange = heldExchange();
    const copies = exchangeBalanceCopies(exchange.port, { ttlMs: 5_000, now: clock.now });
    const reads = [copies.read(7n), copies.read(7n), copies.read(7n)];
    await exchange.answer('10');
    expect(await Promise.all(reads)).toEqual(Array(3).fill({ AIC: '10', USDT: '1' }));
    clock.advance(4_999);
    expect(await copies.read(7n)).toEqual({ AIC: '10', USDT: '1' });
    expect(exchange.balances).toHaveBeenCalledTimes(1);
    clock.advance(1);
    const later = copies.read(7n);
    await exchange.answer('11');
    expect(await later).toEqual({ AIC: '11', USDT: '1' });
    expect(exchange.balances).toHaveBeenCalledTimes(2);
  });

  it('answers peek at once, asking in the background for the next one', async () => {
    const exchange = heldExchange();
    const copies = exchangeBalanceCopies(exchange.port, { ttlMs: 5_000 });
    expect(copies.peek(7n)).toBeUndefined();
    expect(copies.peek(7n)).toBeUndefined();
    await exchange.answer('10');
    await vi.waitFor(() => expect(copies.peek(7n)).toEqual({ AIC: '10', USDT: '1' }));
    expect(exchange.balances).toHaveBeenCalledTimes(1);
  });

  it('does not keep an answer asked before the holder moved', async () => {
    const exchange = heldExchange();
    const copies = exchangeBalanceCopies(exchange.port, { ttlMs: 5_000 });
    const before = copies.read(7n);
    copies.forget(7n);
    await exchange.answer('10');
    await before;
    expect(copies.peek(7n)).toBeUndefined();
    await exchange.answer('9');
    expect(await copies.read(7n)).toEqual({ AIC: '9', USDT: '1' });
  });

  it('keeps that the exchange could not say, so that it is not asked again by every read', async () => {
    const balances = vi.fn(async () => {
      throw new Error('down');
    });
    const copies = exchangeBalanceCopies({ client: { balances }, accessToken: async () => 'token' }, { ttlMs: 5_000 });
    expect(await copies.read(7n)).toEqual({ AIC: null, USDT: null });
    expect(await copies.read(7n)).toEqual({ AIC: null, USDT: null });
    expect(balances).toHaveBeenCalledTimes(1);
  });
});

type Line = { asset: string; exchange: string | null; available?: string };

/**
 * Issue 60, "The wallet does not wait on the exchange": getAsset answers from the platform's books
 * and a copy of the exchange's answer; the exchange line has its own route, sharing that copy.
 * Calls are counted where the platform makes them, at its exchange client.
 */
describe.each(DATABASES)('the wallet beside the exchange on %s', (kind) => {
  let t: TestApp;
  let operator = '';
  let calls: MockInstance<ExchangeClient['balances']>;
  let original: ExchangeClient['balances'];
  let held = 0;

  beforeAll(async () => {
    t = await startTestApp(kind, {
      // Nothing expires while a test runs: what is asked again is asked because of a move.
      config: { operatorUserIds: [1n], exchangeBalanceTtlMs: 3_600_000, exchangeTimeoutMs: 1_000, exchangeAttempts: 1 },
    });
    operator = (await signIn(t.app, { name: 'Olga' })).token; // user 1
    original = t.app.exchange.client.balances;
    calls = vi.spyOn(t.app.exchange.client, 'balances');
  });
  afterEach(() => {
    Object.assign(t.app.embeddedExchange?.faults ?? {}, NO_FAULTS);
    calls.mockClear();
  });
  afterAll(async () => {
    calls?.mockRestore();
    await t?.close();
  });

  const holder = async () => (await signIn(t.app, { name: `Holder ${++held}` })).token;
  const getAsset = async (token: string) => (await t.app.inject({ url: PATHS.getAsset, headers: bearer(token) })).json().data;
  const line = async (token: string) => {
    const answer = (await t.app.inject({ url: PATHS.exchangeBalances, headers: bearer(token) })).json();
    expect(answer.code).toBe(0);
    return Object.fromEntries(answer.data.balances.map((b: Line) => [b.asset, b.exchange]));
  };
  const aicOf = (data: { balances: Line[] }) => data.balances.find((b) => b.asset === 'AIC');

  it('answers getAsset from its own books while the exchange has not answered, asking it once', async () => {
    const token = await holder();
    await post(t.app, PATHS.transferIn, token, { asset: 'AIC', amount: '25' });
    calls.mockClear();
    // The exchange's answer is held until the test lets it go: getAsset cannot be waiting on it.
    let release = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    calls.mockImplementationOnce(async (accessToken) => {
      await gate;
      return original(accessToken);
    });
    for (let i = 0; i < 2; i++) {
      const data = await getAsset(token);
      expect(data).toMatchObject({ exchangeFresh: false, walletAic: '25', totalAic: '25' });
      expect(data.balances).toMatchObject([
        { asset: 'AIC', available: '25', pending: '0', exchange: null },
        { asset: 'USDT', available: '0', pending: '0', exchange: null },
      ]);
    }
    // The exchange line waits for that same call.
    const shown = line(token);
    release();
    expect(await shown).toEqual({ AIC: '19975', USDT: '1000' });
    const after = await getAsset(token);
    expect(after.exchangeFresh).toBe(true);
    expect(after.balances.map((b: Line) => b.exchange)).toEqual(['19975', '1000']);
    expect(calls).toHaveBeenCalledTimes(1);
  });

  it('costs one exchange call for everything a slow exchange is asked at once and within the copy’s life', async () => {
    const token = await holder();
    const faults = t.app.embeddedExchange?.faults ?? NO_FAULTS;
    faults.slowMs = 200;
    const url = (path: string) => ({ url: path, headers: bearer(token) });
    const answers = await Promise.all(
      [PATHS.getAsset, PATHS.exchangeBalances, PATHS.getAsset, PATHS.exchangeBalances, PATHS.transferPage].map(
        async (path) => (await t.app.inject(url(path))).json().data,
      ),
    );
    for (const data of [answers[1], answers[3]]) expect(aicOf(data)?.exchange).toBe('20000');
    expect(answers[4].assets.map((a: Line) => a.exchange)).toEqual(['20000', '1000']);
    for (const data of [answers[0], answers[2]]) expect(aicOf(data)?.exchange).toBe(data.exchangeFresh ? '20000' : null);
    for (let i = 0; i < 3; i++) {
      expect(aicOf(await getAsset(token))?.exchange).toBe('20000');
      expect(await line(token)).toEqual({ AIC: '20000', USDT: '1000' });
    }
    expect(calls).toHaveBeenCalledTimes(1);
  });

  it('asks again after the holder’s own moves, and only after those that reach the exchange', async () => {
    const token = await holder();
    expect(await line(token)).toEqual({ AIC: '20000', USDT: '1000' });
    expect(calls).toHaveBeenCalledTimes(1);

    // The recharge's own check asks the exchange, as before: a copy never lets more in.
    expect((await post(t.app, PATHS.recharge, token, { asset: 'AIC', amount: '100' })).json().data.status).toBe('success');
    expect(calls).toHaveBeenCalledTimes(2);
    expect((await getAsset(token)).exchangeFresh).toBe(false);
    expect(await line(token)).toEqual({ AIC: '19900', USDT: '1000' });
    expect(aicOf(await getAsset(token))).toMatchObject({ available: '100', exchange: '19900' });

    expect((await post(t.app, PATHS.transferIn, token, { asset: 'USDT', amount: '10' })).json().data.status).toBe('success');
    expect(await line(token)).toEqual({ AIC: '19900', USDT: '990' });
    expect(calls).toHaveBeenCalledTimes(5);

    // A transfer out waits for review: nothing moved at the exchange, the copy stands.
    const out = (await post(t.app, PATHS.transferOut, token, { asset: 'AIC', amount: '40' })).json().data;
    expect(out.status).toBe('under_review');
    expect(await line(token)).toEqual({ AIC: '19900', USDT: '990' });
    expect(calls).toHaveBeenCalledTimes(5);
    // Approved, it reaches the exchange: the holder's next read asks it.
    expect((await post(t.app, PATHS.operatorApprove.replace(':id', out.id), operator)).json().data.status).toBe('success');
    expect(await line(token)).toEqual({ AIC: '19940', USDT: '990' });
    expect(calls).toHaveBeenCalledTimes(6);
  });

  it('says the exchange cannot tell when it does not answer, and does not ask again for every opening', async () => {
    const token = await holder();
    const faults = t.app.embeddedExchange?.faults ?? NO_FAULTS;
    // Longer than the client waits (EXCHANGE_TIMEOUT_MS, 1 s here): no answer.
    faults.slowMs = 1_500;
    expect(await line(token)).toEqual({ AIC: null, USDT: null });
    const data = await getAsset(token);
    expect(data.exchangeFresh).toBe(true);
    expect(data.balances.map((b: Line) => b.exchange)).toEqual([null, null]);
    const page = (await t.app.inject({ url: PATHS.transferPage, headers: bearer(token) })).json().data;
    expect(page.assets.map((a: Line) => a.exchange)).toEqual([null, null]);
    expect(calls).toHaveBeenCalledTimes(1);
    // Back: the holder's own move asks it afresh.
    faults.slowMs = 0;
    expect((await post(t.app, PATHS.recharge, token, { asset: 'AIC', amount: '1' })).json().data.status).toBe('success');
    expect(await line(token)).toEqual({ AIC: '19999', USDT: '1000' });
  });

  it('publishes the exchange line as its own operation', async () => {
    const doc = (await t.app.inject({ url: '/docs/json' })).json();
    expect(doc.paths[PATHS.exchangeBalances].get).toMatchObject({ operationId: 'exchangeBalances', security: [{ bearer: [] }] });
    expect(JSON.stringify(doc.paths[PATHS.getAsset].get.responses)).toContain('exchangeFresh');
  });
});
