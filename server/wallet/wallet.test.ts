import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS } from '../../contract/errors.ts';
import { parseAmount, UNIT } from '../../contract/money.ts';
import { PATHS } from '../../contract/paths.ts';
import { checkLedger } from '../ledger/ledger.ts';
import { DAY_MS } from '../platform/clock.ts';
import { DATABASES, startTestApp, type TestApp } from '../test/harness.ts';
import { bearer, newKey, post, signIn } from '../test/signIn.ts';

const parseUnits = (text: string): bigint => {
  const parsed = parseAmount(text);
  if (!parsed.ok) throw new Error(`not an amount: ${text}`);
  return parsed.value;
};

describe.each(DATABASES)('asset wallet on %s', (kind) => {
  let t: TestApp;
  let operator: string;
  let holder: string;
  beforeAll(async () => {
    t = await startTestApp(kind, { config: { operatorUserIds: [1n] } });
    operator = (await signIn(t.app, { name: 'Olga' })).token; // user 1
    holder = (await signIn(t.app, { name: 'Hana' })).token;
  });
  afterAll(async () => {
    await t.close();
  });

  /** The wallet's AIC line: the platform's figures from getAsset, the exchange's from its own route. */
  const asset = async (token = holder) => {
    const data = (await t.app.inject({ url: PATHS.getAsset, headers: bearer(token) })).json().data;
    const aic = data.balances.find((b: { asset: string }) => b.asset === 'AIC');
    const atExchange = (await t.app.inject({ url: PATHS.exchangeBalances, headers: bearer(token) })).json().data;
    const exchange = atExchange.balances.find((b: { asset: string }) => b.asset === 'AIC').exchange;
    const usdt = data.owned.find((o: { asset: string }) => o.asset === 'USDT').total;
    return { available: aic.available, pending: aic.pending, exchange, totalAic: data.totalAic, ownedUsdt: usdt };
  };
  /** The holder's available AIC in units, to compare before and after. */
  const available = async () => parseUnits((await asset()).available);
  const records = async (query: Record<string, string> = {}, token = holder) =>
    (await t.app.inject({ url: PATHS.transferRecords, query, headers: bearer(token) })).json().data;

  it('transfers in from the exchange at once', async () => {
    const res = await post(t.app, PATHS.transferIn, holder, { asset: 'AIC', amount: '1000' });
    expect(res.json()).toMatchObject({ code: 0, data: { type: 'transfer_in', amount: '1000', status: 'success' } });
    const recharge = await post(t.app, PATHS.recharge, holder, { asset: 'USDT', amount: '85' });
    expect(recharge.json().data).toMatchObject({ type: 'recharge', asset: 'USDT', status: 'success' });
    // The USDT is its own figure: no AIC figure moves with it.
    expect(await asset()).toMatchObject({ available: '1000', pending: '0', exchange: '19000', totalAic: '1000', ownedUsdt: '85' });
  });

  it('holds a withdrawal under review until an operator approves it', async () => {
    const res = await post(t.app, PATHS.withdraw, holder, { asset: 'AIC', amount: '200.5' });
    const record = res.json().data;
    expect(record).toMatchObject({ type: 'withdraw', amount: '200.5', status: 'under_review', reviewedAt: null });
    expect(await asset()).toMatchObject({ available: '799.5', pending: '200.5', exchange: '19000' });

    const queue = (await t.app.inject({ url: PATHS.operatorReviews, headers: bearer(operator) })).json().data;
    expect(queue.items.map((i: { id: string }) => i.id)).toContain(record.id);

    const approve = PATHS.operatorApprove.replace(':id', record.id);
    const approved = await post(t.app, approve, operator);
    expect(approved.json().data).toMatchObject({ id: record.id, status: 'success' });
    expect(await asset()).toMatchObject({ available: '799.5', pending: '0', exchange: '19200.5' });

    const again = await post(t.app, approve, operator);
    expect(again.json().code).toBe(ERRORS.ALREADY_REVIEWED.code);
  });

  it('returns a rejected transfer out to the wallet in the same transaction', async () => {
    const record = (await post(t.app, PATHS.transferOut, holder, { asset: 'AIC', amount: '99.5' })).json().data;
    const reject = PATHS.operatorReject.replace(':id', record.id);
    const rejected = await post(t.app, reject, operator, { reason: 'address check failed' });
    expect(rejected.json().data).toMatchObject({ status: 'failure', reason: 'address check failed' });
    expect(await asset()).toMatchObject({ available: '799.5', pending: '0' });
    expect((await checkLedger(t.ctx.db)).ok).toBe(true);
  });

  it('lets only operators review', async () => {
    const record = (await post(t.app, PATHS.withdraw, holder, { asset: 'AIC', amount: '1' })).json().data;
    const byHolder = await post(t.app, PATHS.operatorApprove.replace(':id', record.id), holder);
    expect(byHolder.statusCode).toBe(403);
    expect((await t.app.inject({ url: PATHS.operatorReviews, headers: bearer(holder) })).json().code).toBe(403);
    const unknown = await post(t.app, PATHS.operatorApprove.replace(':id', '999999'), operator);
    expect(unknown.json().code).toBe(ERRORS.NOT_FOUND.code);
  });

  it.each([
    ['', ERRORS.AMOUNT_REQUIRED.code],
    ['  ', ERRORS.AMOUNT_REQUIRED.code],
    ['0', ERRORS.AMOUNT_INVALID.code],
    ['-5', ERRORS.AMOUNT_INVALID.code],
    ['1e3', ERRORS.AMOUNT_INVALID.code],
    ['NaN', ERRORS.AMOUNT_INVALID.code],
    ['0.000000001', ERRORS.AMOUNT_DECIMALS.code],
    ['99999999999999999999', ERRORS.AMOUNT_INVALID.code],
    ['800', ERRORS.WALLET_BALANCE.code],
  ])('refuses the amount %j with code %i and changes nothing', async (amount, code) => {
    const before = await asset();
    const res = await post(t.app, PATHS.withdraw, holder, { asset: 'AIC', amount });
    expect(res.json()).toMatchObject({ code, data: null });
    expect(res.json().msg).not.toBe('');
    expect(await asset()).toEqual(before);
  });

  it('refuses malformed bodies with the parameter error and changes nothing (property)', async () => {
    const before = await asset();
    const body = fc.record(
      {
        asset: fc.oneof(fc.constantFrom('AIC', 'USDT', 'BTC', ''), fc.string(), fc.integer()),
        amount: fc.oneof(fc.string(), fc.integer(), fc.double(), fc.constant(null), fc.array(fc.string())),
      },
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.asyncProperty(body, async (payload) => {
        const res = await post(t.app, PATHS.transferOut, holder, payload);
        expect(res.statusCode).toBeLessThan(500);
        const { code } = res.json();
        if (code === 0) {
          // A valid small amount went through: put it back by rejecting it.
          const id = res.json().data.id;
          await post(t.app, PATHS.operatorReject.replace(':id', id), operator);
        } else {
          expect(Object.values(ERRORS).map((e) => e.code)).toContain(code);
        }
      }),
      { numRuns: 60 },
    );
    expect(await asset()).toEqual(before);
    expect((await checkLedger(t.ctx.db)).ok).toBe(true);
  });

  it('gives a repeated POST its first answer and no second effect', async () => {
    const key = newKey();
    const before = await available();
    const first = await post(t.app, PATHS.transferIn, holder, { asset: 'AIC', amount: '10' }, key);
    const second = await post(t.app, PATHS.transferIn, holder, { asset: 'AIC', amount: '10' }, key);
    expect(second.json()).toEqual(first.json());
    expect(await available()).toBe(before + 10n * UNIT);
  });

  it('runs concurrent repeats of one key once, all with the same answer', async () => {
    const key = newKey();
    const before = await available();
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => post(t.app, PATHS.transferIn, holder, { asset: 'AIC', amount: '1' }, key)),
    );
    const bodies = answers.map((a) => a.json());
    for (const body of bodies) expect(body).toEqual(bodies[0]);
    expect(bodies[0].code).toBe(0);
    expect(await available()).toBe(before + UNIT);
  });

  it('refuses the same key with a different body, and a POST without a key', async () => {
    const key = newKey();
    const before = await available();
    await post(t.app, PATHS.transferIn, holder, { asset: 'AIC', amount: '1' }, key);
    const other = await post(t.app, PATHS.transferIn, holder, { asset: 'AIC', amount: '2' }, key);
    expect(other.json().code).toBe(ERRORS.IDEMPOTENCY_MISMATCH.code);
    const noKey = await t.app.inject({
      method: 'POST',
      url: PATHS.transferIn,
      headers: { ...bearer(holder), 'content-type': 'application/json' },
      payload: { asset: 'AIC', amount: '1' },
    });
    expect(noKey.json().code).toBe(ERRORS.IDEMPOTENCY_REQUIRED.code);
    expect(await available()).toBe(before + UNIT);
  });

  it('replays a refusal the same way', async () => {
    const key = newKey();
    const first = await post(t.app, PATHS.withdraw, holder, { asset: 'AIC', amount: '5000' }, key);
    expect(first.json().code).toBe(ERRORS.WALLET_BALANCE.code);
    await post(t.app, PATHS.transferIn, holder, { asset: 'AIC', amount: '5000' });
    const again = await post(t.app, PATHS.withdraw, holder, { asset: 'AIC', amount: '5000' }, key);
    expect(again.json()).toEqual(first.json());
  });

  it('lists records newest first, filtered by type and time, by cursor', async () => {
    const all = await records({ limit: '100' });
    expect(all.items.length).toBeGreaterThan(5);
    const ids = all.items.map((r: { id: string }) => BigInt(r.id));
    expect(ids).toEqual([...ids].sort((a, b) => (a > b ? -1 : 1)));

    const withdrawals = await records({ type: 'withdraw' });
    expect(withdrawals.items.every((r: { type: string }) => r.type === 'withdraw')).toBe(true);

    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { items: { id: string }[]; nextCursor: string | null } = await records({
        limit: '3',
        ...(cursor ? { cursor } : {}),
      });
      seen.push(...page.items.map((r) => r.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual(all.items.map((r: { id: string }) => r.id));

    const now = t.ctx.clock.now().getTime();
    const future = await records({ from: new Date(now + DAY_MS).toISOString() });
    expect(future.items).toEqual([]);
    const window = await records({ from: new Date(now - DAY_MS).toISOString(), to: new Date(now + DAY_MS).toISOString(), limit: '100' });
    expect(window.items.length).toBe(all.items.length);
    const bad = await t.app.inject({ url: PATHS.transferRecords, query: { type: 'steal' }, headers: bearer(holder) });
    expect(bad.json().code).toBe(ERRORS.PARAM.code);
  });

  it('shows no one else’s records', async () => {
    const other = await signIn(t.app, { name: 'Ivo' });
    expect((await records({}, other.token)).items).toEqual([]);
  });

  it('gives holders asking in the same moment each their own records and transfer page, as alone, past any cursor', async () => {
    const holders: string[] = [];
    const aic: number[] = [];
    for (const [i, name] of ['Jan', 'Kim', 'Lea'].entries()) {
      const { token } = await signIn(t.app, { name });
      holders.push(token);
      aic.push(-1);
      for (let n = 0; n <= i + 2; n++) {
        const asset = n % 2 ? 'USDT' : 'AIC';
        if (asset === 'AIC') aic[i] = (aic[i] ?? 0) + n + i + 1;
        await post(t.app, PATHS.transferIn, token, { asset, amount: String(n + i + 1) });
      }
      await post(t.app, PATHS.withdraw, token, { asset: 'AIC', amount: '1' });
    }
    const now = t.ctx.clock.now().getTime();
    const queries: Record<string, string>[] = [
      {},
      { limit: '2' },
      { type: 'withdraw' },
      { from: new Date(now - DAY_MS).toISOString(), to: new Date(now + DAY_MS).toISOString(), limit: '100' },
      { cursor: '9223372036854775807' },
      { cursor: '9999999999999999999' },
    ];
    const asks = holders.flatMap((token) => [
      ...queries.map((query) => ({ url: PATHS.transferRecords, query, headers: bearer(token) })),
      { url: PATHS.transferPage, query: {}, headers: bearer(token) },
    ]);
    const answer = async (ask: (typeof asks)[number]) => {
      const res = await t.app.inject(ask);
      return { status: res.statusCode, body: res.json() };
    };
    // A time PostgreSQL would refuse is refused before the gathered call: the others are answered.
    const refused = { url: PATHS.transferRecords, query: { from: '0000-01-01T00:00:00Z' }, headers: bearer(holders[0] ?? '') };
    const together = await Promise.all([...asks, refused].map(answer));
    const alone: Awaited<ReturnType<typeof answer>>[] = [];
    for (const ask of [...asks, refused]) alone.push(await answer(ask));
    expect(together).toEqual(alone);
    expect(together.at(-1)).toMatchObject({ status: 400, body: { code: ERRORS.PARAM.code } });
    for (const [i, token] of holders.entries()) {
      const mine = together.slice(i * asks.length / holders.length, (i + 1) * asks.length / holders.length);
      const [first, , withdrawals, window, atMax, pastMax, page] = mine.map((a) => a.body);
      expect(mine.every((a) => a.status === 200 && a.body.code === 0)).toBe(true);
      // Each holder's own: i + 3 transfers in and one withdrawal, never another's.
      expect(first.data.items).toHaveLength(i + 4);
      expect(window.data.items).toEqual(first.data.items);
      expect(withdrawals.data.items.map((r: { type: string }) => r.type)).toEqual(['withdraw']);
      expect(atMax.data).toEqual(first.data);
      expect(pastMax.data).toEqual(first.data);
      expect(page.data.assets.find((a: { asset: string }) => a.asset === 'AIC').available).toBe(String(aic[i]));
      expect((await records({}, token)).items).toEqual(first.data.items);
    }
  });
});
