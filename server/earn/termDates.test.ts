import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countdownDays } from '../../contract/countdown.ts';
import type { Order, TermDates } from '../../contract/earn.ts';
import { PATHS } from '../../contract/paths.ts';
import { DAY_MS } from '../platform/clock.ts';
import { DATABASES, startTestApp, type TestApp } from '../test/harness.ts';
import { bearer, post, signIn } from '../test/signIn.ts';
import { newOrder } from './service.ts';
import { toOrder } from './repository.ts';
import { termDates } from './termDates.ts';
import type { EarnParams } from './params.ts';

const dates = (valueDay: string, maturesDay: string): TermDates => ({ valueDay, maturesDay, principalReturnDay: maturesDay });

describe('a term’s dates, on the settlement’s UTC day boundary', () => {
  it('starts earning the day after the buy, matures and returns the principal after the term', () => {
    expect(termDates(30, new Date('2026-11-01T08:00:00Z'))).toEqual(dates('2026-11-02', '2026-12-02'));
    expect(termDates(360, new Date('2026-11-01T08:00:00Z'))).toEqual(dates('2026-11-02', '2027-10-28'));
  });

  it('moves by a day across the day boundary, not before', () => {
    expect(termDates(30, new Date('2026-11-01T23:59:59.999Z'))).toEqual(dates('2026-11-02', '2026-12-02'));
    expect(termDates(30, new Date('2026-11-02T00:00:00.000Z'))).toEqual(dates('2026-11-03', '2026-12-03'));
    // Across a month end and a leap day.
    expect(termDates(30, new Date('2028-02-28T12:00:00Z'))).toEqual(dates('2028-02-29', '2028-03-30'));
  });
});

describe('remaining days and the countdown of a term', () => {
  const buyAt = fc.date({ min: new Date('2026-01-01T00:00:00Z'), max: new Date('2030-12-31T00:00:00Z'), noInvalidDate: true });

  it('are one figure: the whole days the countdown shows; right after a buy, the term', () => {
    fc.assert(
      fc.property(buyAt, fc.integer({ min: 0, max: 31 * DAY_MS }), (at, later) => {
        // Not in the first second of a UTC day: there the countdown still has the whole 31st day.
        fc.pre(at.getTime() % DAY_MS >= 1000);
        // A 30-day order reads no parameter (only a 360-day one's power does).
        const row = { ...newOrder({} as EarnParams, { userId: 1n, product: 'fixed30', amount: 1n }, at), id: 1n };
        const justBought = toOrder(row, at);
        expect(justBought.remainingDays).toBe(30);
        const seen = toOrder(row, new Date(at.getTime() + later));
        expect(seen.remainingDays).toBe(countdownDays(seen.countdownSeconds as number));
        expect(seen.dates).toEqual(termDates(30, at));
      }),
    );
  });
});

describe.each(DATABASES)('the dates the form and the order card read on %s', (kind) => {
  let t: TestApp;
  let holder = '';
  const info = async () => (await t.app.inject({ url: PATHS.productInfo, headers: bearer(holder) })).json().data;
  const buy = async (product: string) => (await post(t.app, PATHS.productBuy, holder, { product, amount: '10' })).json().data as Order;
  const quoted = (data: { termDates: { product: string; dates: TermDates }[] }, product: string) =>
    data.termDates.find((d) => d.product === product)?.dates;

  beforeAll(async () => {
    t = await startTestApp(kind, { config: { sessionTtlDays: 1000 } });
    const root = (await signIn(t.app, { name: 'root of the dates' })).token;
    holder = (await signIn(t.app, { name: 'holder of the dates' })).token;
    const { inviteCode } = (await t.app.inject({ url: PATHS.userInfo, headers: bearer(root) })).json().data;
    expect((await post(t.app, PATHS.bindInviter, holder, { inviteCode })).json().code).toBe(0);
    expect((await post(t.app, PATHS.transferIn, holder, { asset: 'AIC', amount: '1000' })).json().code).toBe(0);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('quotes before the buy the dates the order then has, just before the day boundary', async () => {
    t.ctx.clock.set(new Date('2026-11-01T23:59:30Z'));
    const quote = await info();
    expect(quoted(quote, 'fixed30')).toEqual(dates('2026-11-02', '2026-12-02'));
    expect(quoted(quote, 'reinvest360')).toEqual(dates('2026-11-02', '2027-10-28'));
    expect(quoted(quote, 'current')).toBeUndefined();
    const order = await buy('fixed30');
    expect(order).toMatchObject({ dates: dates('2026-11-02', '2026-12-02'), remainingDays: 30, countdownSeconds: 30 * 86_400 + 30 });
    expect((await buy('reinvest360')).dates).toEqual(dates('2026-11-02', '2027-10-28'));
    expect((await buy('current')).dates).toBeNull();
  });

  it('moves them a day just after the boundary, and the list shows each order’s own', async () => {
    t.ctx.clock.set(new Date('2026-11-02T00:00:30Z'));
    expect(quoted(await info(), 'fixed30')).toEqual(dates('2026-11-03', '2026-12-03'));
    const order = await buy('fixed30');
    expect(order).toMatchObject({ dates: dates('2026-11-03', '2026-12-03'), remainingDays: 30, countdownSeconds: 31 * 86_400 - 30 });
    const list = (await t.app.inject({ url: PATHS.productList, query: { product: 'fixed30' }, headers: bearer(holder) })).json().data.items as Order[];
    expect(list.map((o) => o.dates?.valueDay)).toEqual(['2026-11-03', '2026-11-02']);
    // The earlier order: 29 days 23:59:30 to its maturity, so 29 days remaining.
    expect(list[1]).toMatchObject({ remainingDays: 29, countdownSeconds: 30 * 86_400 - 30 });
  });
});
