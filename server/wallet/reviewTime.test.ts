import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PATHS } from '../../contract/paths.ts';
import { fixedClock } from '../platform/clock.ts';
import { DATABASES, startTestApp, type TestApp } from '../test/harness.ts';
import { bearer, post, signIn } from '../test/signIn.ts';

type User = { token: string; userId: string };
const MINUTE = 60_000;

/**
 * The withdraw form's review time: the median wait from request to an operator's decision of the
 * withdrawals and transfers out decided in the last 30 days, on a frozen clock with exact waits.
 */
describe.each(DATABASES)('the review time on the transfer forms on %s', (kind) => {
  let t: TestApp;
  let operator: User;
  let holder: User;
  beforeAll(async () => {
    t = await startTestApp(kind, { clock: fixedClock(new Date('2026-10-01T08:00:00Z')), config: { sessionTtlDays: 1000 } });
    operator = await signIn(t.app, { name: 'Operator' });
    holder = await signIn(t.app, { name: 'Holder' });
    t.ctx.config.operatorUserIds = [BigInt(operator.userId)];
    expect((await post(t.app, PATHS.transferIn, holder.token, { asset: 'AIC', amount: '1000' })).json().code).toBe(0);
  });
  afterAll(() => t?.close());

  const at = (iso: string, minutes = 0) => t.ctx.clock.set(new Date(Date.parse(iso) + minutes * MINUTE));
  const request = async (path: string) => (await post(t.app, path, holder.token, { asset: 'AIC', amount: '10' })).json().data.id as string;
  const decide = async (id: string, how: 'approve' | 'reject') => {
    const path = (how === 'approve' ? PATHS.operatorApprove : PATHS.operatorReject).replace(':id', id);
    expect((await post(t.app, path, operator.token, how === 'reject' ? { reason: 'checked' } : {})).json().code).toBe(0);
  };
  const review = async () => (await t.app.inject({ url: PATHS.transferPage, headers: bearer(holder.token) })).json().data.review;

  it('answers the median wait of the decisions of the last 30 days, in minutes rounded up', async () => {
    // A month before: decided after 1,000 minutes, the only decision of its window.
    const old = await request(PATHS.withdraw);
    at('2026-10-01T08:00:00Z', 1_000);
    await decide(old, 'approve');
    expect(await review()).toEqual({ medianMinutes: 1_000, reviewed: 1, days: 30 });

    // Three decided on 2026-11-05 after 10, 25.5 and 180 minutes; the October one is out of the window.
    const day = '2026-11-05T10:00:00Z';
    at(day);
    expect(await review()).toEqual({ medianMinutes: null, reviewed: 0, days: 30 });
    const [first, second, third] = [await request(PATHS.withdraw), await request(PATHS.transferOut), await request(PATHS.withdraw)];
    at(day, 10);
    await decide(first as string, 'approve');
    at(day, 25.5);
    await decide(second as string, 'reject');
    at(day, 180);
    await decide(third as string, 'approve');
    // The same day as the read before: the decisions made on this process are read again at once.
    expect(await review()).toEqual({ medianMinutes: 26, reviewed: 3, days: 30 });

    // A wait of none beside 10, 25.5 and 180 minutes: a median of 17.75, shown as 18; with three
    // more of none the median is none, shown as one minute at least.
    const quick = await request(PATHS.withdraw);
    await decide(quick, 'approve');
    expect(await review()).toEqual({ medianMinutes: 18, reviewed: 4, days: 30 });
    at(day, 181);
    const quicker = await request(PATHS.withdraw);
    await decide(quicker, 'approve');
    at(day, 182);
    const [fast, faster] = [await request(PATHS.withdraw), await request(PATHS.withdraw)];
    await decide(fast, 'approve');
    await decide(faster, 'approve');
    expect(await review()).toEqual({ medianMinutes: 1, reviewed: 7, days: 30 });

    // A request still under review counts for nothing; a month with no decision has no median.
    await request(PATHS.withdraw);
    at('2027-01-01T08:00:00Z');
    expect(await review()).toEqual({ medianMinutes: null, reviewed: 0, days: 30 });
  });
});
