import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PATHS } from '../../contract/paths.ts';
import { createSession } from '../auth/sessions.ts';
import { loadConfig } from '../config.ts';
import { checkLedger } from '../ledger/ledger.ts';
import { settleDue } from '../settlement/settle.ts';
import { fixedClock } from '../platform/clock.ts';
import { PARAM, setParam } from '../platform/params.ts';
import { DATABASES, startTestApp, type TestApp } from '../test/harness.ts';
import { bearer, post, signIn } from '../test/signIn.ts';

const RECRUITMENT = { start: '2026-11-10', activityDays: 60, assessmentDays: 60 };
const DAY_S = 86_400;
const TIERS = [
  { holding: '10000', percent: '0.5' },
  { holding: '5000', percent: '0.3' },
];

/**
 * The recruitment activity: 60 days from 2026-11-10 (to 2027-01-08 inclusive), then 60 days
 * of assessment (2027-01-09 to 2027-03-09). Alice is the holder; Erin binds to her before the
 * activity, Bob and Dave inside it, and Carol below Bob inside it.
 */
describe.each(DATABASES)('the recruitment activity on %s', (kind) => {
  let t: TestApp;
  const users: Record<string, { id: bigint; token: string }> = {};

  beforeAll(async () => {
    t = await startTestApp(kind, {
      clock: fixedClock(new Date('2026-11-09T12:00:00Z')),
      config: { recruitment: RECRUITMENT },
    });
    for (const name of ['root', 'alice', 'bob', 'carol', 'dave', 'erin']) {
      const session = await signIn(t.app, { name });
      users[name] = { id: BigInt(session.userId), token: session.token };
    }
  });
  afterAll(async () => {
    await t.close();
  });

  const token = (name: string) => (users[name] as { token: string }).token;
  /** Moves the clock to a moment; sessions live 30 days, so each user gets a fresh one. */
  const at = async (iso: string) => {
    t.ctx.clock.set(new Date(iso));
    for (const user of Object.values(users)) user.token = await createSession(t.ctx.db, user.id, 30, 'test');
  };
  const activity = async (name = 'alice') => {
    const res = await t.app.inject({ url: PATHS.activity, headers: bearer(token(name)) });
    expect(res.statusCode).toBe(200);
    return res.json().data;
  };
  const codeOf = async (name: string) =>
    (await t.app.inject({ url: PATHS.userInfo, headers: bearer(token(name)) })).json().data.inviteCode as string;
  const bind = async (name: string, inviter: string) =>
    expect((await post(t.app, PATHS.bindInviter, token(name), { inviteCode: await codeOf(inviter) })).json().code).toBe(0);
  const buy = async (name: string, product: string, amount: string) =>
    expect((await post(t.app, PATHS.productBuy, token(name), { product, amount })).json().code).toBe(0);
  const records = async (query: Record<string, string>) =>
    (await t.app.inject({ url: PATHS.inviteRecords, query, headers: bearer(token('alice')) })).json().data.items as {
      name: string;
      joinedAt: string;
    }[];

  it('needs a session', async () => {
    expect((await t.app.inject({ url: PATHS.activity })).statusCode).toBe(401);
  });

  it('defaults to the launch day, 60 days of activity and 60 of assessment', () => {
    expect(loadConfig({}).recruitment).toEqual({ start: '2026-11-01', activityDays: 60, assessmentDays: 60 });
    expect(loadConfig({ LAUNCH_DAY: '2026-12-01' }).recruitment.start).toBe('2026-12-01');
    expect(loadConfig({ RECRUITMENT_START: '2027-01-01', RECRUITMENT_ACTIVITY_DAYS: '30' }).recruitment).toEqual({
      start: '2027-01-01',
      activityDays: 30,
      assessmentDays: 60,
    });
  });

  it('before it starts: counts down to the start, and what happens before does not count', async () => {
    await bind('alice', 'root');
    await bind('erin', 'alice');
    await post(t.app, PATHS.transferIn, token('alice'), { asset: 'AIC', amount: '6600' });
    await buy('alice', 'fixed30', '6000');
    expect(await activity()).toEqual({
      phase: 'before',
      phaseStartsAt: null,
      phaseEndsAt: '2026-11-10T00:00:00.000Z',
      secondsLeft: 12 * 3600,
      activity: { firstDay: '2026-11-10', lastDay: '2027-01-08', days: 60 },
      assessment: { firstDay: '2027-01-09', lastDay: '2027-03-09', days: 60 },
      own: { subscribed: '0', directInvites: 0, directEffective: 0 },
      team: { newMembers: 0, newEffective: 0, quantityAdded: '0', asOf: null },
      unlock: { held: '6000', unlockPercent: '0.3', tiers: TIERS, lockupDays: 10 },
    });
    await at('2026-11-09T23:59:59.500Z');
    expect(await activity()).toMatchObject({ phase: 'before', secondsLeft: 1 });
  });

  it('starts at midnight of its first day, and counts who joins and what is subscribed inside it', async () => {
    await at('2026-11-10T00:00:00.000Z');
    expect(await activity()).toMatchObject({
      phase: 'activity',
      phaseStartsAt: '2026-11-10T00:00:00.000Z',
      phaseEndsAt: '2027-01-09T00:00:00.000Z',
      secondsLeft: 60 * DAY_S,
    });
    await bind('bob', 'alice');
    await bind('dave', 'alice');
    await bind('carol', 'bob');
    await post(t.app, PATHS.transferIn, token('bob'), { asset: 'AIC', amount: '2000' });
    await post(t.app, PATHS.transferIn, token('carol'), { asset: 'AIC', amount: '100' });
    await buy('bob', 'reinvest360', '2000');
    await buy('carol', 'current', '5'); // under the 10 AIC that makes an effective user
    await buy('alice', 'current', '500');

    // The team's figures are the settled day's: nothing shows before the day settles.
    expect(await activity()).toMatchObject({ own: { subscribed: '500' }, team: { newMembers: 0, quantityAdded: '0', asOf: null } });
    await at('2026-11-11T01:00:00.000Z');
    await settleDue(t.ctx);
    expect((await checkLedger(t.ctx.db)).ok).toBe(true);
    expect(await activity()).toEqual({
      phase: 'activity',
      phaseStartsAt: '2026-11-10T00:00:00.000Z',
      phaseEndsAt: '2027-01-09T00:00:00.000Z',
      secondsLeft: 59 * DAY_S - 3600,
      activity: { firstDay: '2026-11-10', lastDay: '2027-01-08', days: 60 },
      assessment: { firstDay: '2027-01-09', lastDay: '2027-03-09', days: 60 },
      own: { subscribed: '500', directInvites: 2, directEffective: 1 },
      team: { newMembers: 3, newEffective: 1, quantityAdded: '2005', asOf: '2026-11-10' },
      unlock: { held: '6500', unlockPercent: '0.3', tiers: TIERS, lockupDays: 10 },
    });
    // Bob sees his own branch: Carol joined, not effective; her 5 AIC.
    expect(await activity('bob')).toMatchObject({
      own: { subscribed: '2000', directInvites: 1, directEffective: 0 },
      team: { newMembers: 1, newEffective: 0, quantityAdded: '5' },
      unlock: { held: '2000', unlockPercent: '0' },
    });
  });

  it('filters the invitation records to the window, by the moment each invitee bound', async () => {
    expect((await records({})).map((r) => r.name)).toEqual(['erin', 'dave', 'bob']);
    const inside = await records({ from: '2026-11-10T00:00:00.000Z', to: '2027-01-09T00:00:00.000Z' });
    expect(inside.map((r) => [r.name, r.joinedAt])).toEqual([
      ['dave', '2026-11-10T00:00:00.000Z'],
      ['bob', '2026-11-10T00:00:00.000Z'],
    ]);
    expect((await records({ to: '2026-11-10T00:00:00.000Z' })).map((r) => [r.name, r.joinedAt])).toEqual([
      ['erin', '2026-11-09T12:00:00.000Z'],
    ]);
  });

  // The window's edges for the team's figures are the roll-up's (team/rollup.test.ts holds them
  // to the downline walked by path, bound and bought at each edge); here, the holder's own.
  it('the last instant of the activity still counts; the first of the assessment does not', async () => {
    await at('2027-01-08T23:59:59.999Z');
    await buy('carol', 'current', '20');
    await buy('alice', 'current', '10');
    expect(await activity()).toMatchObject({
      phase: 'activity',
      secondsLeft: 1,
      own: { subscribed: '510' },
      // A buy shows in the team's figures once its day settles.
      team: { quantityAdded: '2005', asOf: '2026-11-10' },
    });

    await at('2027-01-09T00:00:00.000Z');
    await buy('carol', 'current', '30');
    await post(t.app, PATHS.transferIn, token('alice'), { asset: 'AIC', amount: '4000' });
    await buy('alice', 'current', '4000');
    expect(await activity()).toMatchObject({
      phase: 'assessment',
      phaseStartsAt: '2027-01-09T00:00:00.000Z',
      phaseEndsAt: '2027-03-10T00:00:00.000Z',
      secondsLeft: 60 * DAY_S,
      own: { subscribed: '510', directInvites: 2, directEffective: 1 },
      team: { newMembers: 3, newEffective: 1, quantityAdded: '2005' },
      // 6,000 + 510 + 4,000 of principal held now (income is not principal): 50%.
      unlock: { held: '10510', unlockPercent: '0.5' },
    });
  });

  it('ends after the assessment', async () => {
    await at('2027-03-09T23:59:59.000Z');
    expect(await activity()).toMatchObject({ phase: 'assessment', secondsLeft: 1 });
    await at('2027-03-10T00:00:00.000Z');
    expect(await activity()).toMatchObject({
      phase: 'ended',
      phaseStartsAt: '2027-03-10T00:00:00.000Z',
      phaseEndsAt: null,
      secondsLeft: null,
      own: { subscribed: '510', directInvites: 2, directEffective: 1 },
    });
  });

  it('answers the dual-currency positions with the price in force', async () => {
    await at('2026-11-11T01:00:00.000Z');
    const res = await t.app.inject({ url: PATHS.positions, headers: bearer(token('alice')) });
    expect(res.json().data).toEqual({
      price: '0.85',
      products: [
        // 500 subscribed 11-10 00:00, 10 on 01-08 and 4,000 on 01-09 (all still held); one finished cycle: 0.5.
        { product: 'current', principal: '4510', income: '0.5', power: '0' },
        // 6,000 from 11-10 on: 0.3% a day for the days settled (11-10).
        { product: 'fixed30', principal: '6000', income: '18', power: '0' },
        { product: 'reinvest360', principal: '0', income: '0', power: '0' },
      ],
      claimable: { rewards: '0', network: '0', fixed: '0' },
    });
    await setParam(t.ctx.db, PARAM.aicPriceUsd, '2026-11-11', '1.2');
    await setParam(t.ctx.db, PARAM.aicPriceUsd, '2026-11-12', '9'); // not in force yet
    const later = await t.app.inject({ url: PATHS.positions, headers: bearer(token('alice')) });
    expect(later.json().data.price).toBe('1.2');
  });
});
