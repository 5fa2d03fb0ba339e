import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatUnits, UNIT } from '../../contract/money.ts';
import { PATHS } from '../../contract/paths.ts';
import { TRANSFER_TYPES } from '../../contract/wallet.ts';
import { DAY_MS } from '../platform/clock.ts';
import { DATABASES, startTestApp, type TestApp } from '../test/harness.ts';
import { newKey, signIn } from '../test/signIn.ts';
import { Effects, type Op } from './effects.ts';
import { expectBooksExact, getCall, pick, postCall, randomAmount, runClients } from './load.ts';

const CLIENTS = 30;
/** Requests each client sends: 480 in all, besides the operator's settlements. */
const STEPS = 16;
const USERS = 8;
const SETUP_IN = '15000';
/** Above the 5,000 AIC that unlocks 30% of network income, so rebates become claimable. */
const SETUP_360 = '6000';
const SETUP_FIXED = '100';

type User = { token: string; userId: string };

/**
 * The extended bank test: clients move money, buy all three products, redeem, claim, switch
 * reinvestment and replay earlier keys while an operator moves the clock and settles days in
 * between. Afterwards the books balance, and the database holds exactly the accepted effects.
 */
describe.each(DATABASES)('extended bank test on %s', (kind) => {
  let t: TestApp;
  let base: string;
  let operator: User;
  const users: User[] = [];
  const effects = new Effects();
  const tally = new Map<string, { sent: number; accepted: number }>();

  const perform = async (op: Op, user: User) => {
    const answer = await effects.perform(base, op, user);
    const name = op.kind === 'move' ? op.type : op.kind === 'buy' || op.kind === 'redeem' ? `${op.kind} ${op.product}` : op.kind;
    const line = tally.get(name) ?? { sent: 0, accepted: 0 };
    tally.set(name, { sent: line.sent + 1, accepted: line.accepted + (answer.body.code === 0 ? 1 : 0) });
    return answer;
  };

  beforeAll(async () => {
    t = await startTestApp(kind, { config: { operatorUserIds: [1n], sessionTtlDays: 1000 } });
    operator = await signIn(t.app, { name: 'operator' });
    for (let i = 0; i < USERS; i++) users.push(await signIn(t.app, { name: `saver ${i}` }));
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    // A chain of invitations under the operator, so settlement pays rebates up the chain.
    let inviter = operator;
    for (const user of users) {
      const info = await getCall<{ inviteCode: string }>(base, PATHS.userInfo, inviter.token);
      const bound = await postCall(base, { path: PATHS.bindInviter, token: user.token, key: newKey(), body: { inviteCode: info.body.data.inviteCode } });
      expect(bound.body.code).toBe(0);
      inviter = user;
    }
    for (const user of users) {
      await perform({ kind: 'move', type: 'transfer_in', asset: 'AIC', amount: SETUP_IN }, user);
      expect((await perform({ kind: 'buy', product: 'reinvest360', amount: SETUP_360 }, user)).body.code).toBe(0);
      expect((await perform({ kind: 'buy', product: 'fixed30', amount: SETUP_FIXED }, user)).body.code).toBe(0);
    }
    // A month on: the 30-day orders mature and network income unlocks, so the load can redeem
    // and claim them.
    const month = await postCall(base, { path: PATHS.operatorClockAdvance, token: operator.token, key: newKey(), body: { days: 32 } });
    expect(month.body.code, month.text).toBe(0);
  });
  afterAll(async () => {
    await t.close();
  });

  it('keeps the books exact while days settle under load', async () => {
    const started = t.ctx.clock.now().getTime();
    const pending: string[] = [];
    const redeemed = new Set<string>();
    let daysAdvanced = 0;
    let settleCalls = 0;
    let clientsDone = false;

    const ordersOf = (user: User, product: string) =>
      [...effects.orders].filter(([id, o]) => o.userId === user.userId && o.product === product && !redeemed.has(id));

    const step = async () => {
      const roll = Math.random();
      const user = pick(users);
      if (roll < 0.1) return effects.replay(base);
      if (roll < 0.18 && pending.length > 0) {
        const transferId = pending.splice(Math.floor(Math.random() * pending.length), 1)[0] as string;
        await perform({ kind: 'review', approve: Math.random() < 0.5, transferId }, operator);
        return;
      }
      if (roll < 0.45) {
        const type = pick(TRANSFER_TYPES);
        const answer = await perform({ kind: 'move', type, asset: pick(['AIC', 'USDT'] as const), amount: randomAmount(300) }, user);
        if (answer.body.code === 0 && (type === 'transfer_out' || type === 'withdraw')) {
          pending.push((answer.body.data as { id: string }).id);
        }
        return;
      }
      if (roll < 0.65) {
        const amount = formatUnits(UNIT + BigInt(Math.floor(Math.random() * 300)) * (UNIT / 7n));
        await perform({ kind: 'buy', product: pick(['current', 'fixed30', 'reinvest360'] as const), amount }, user);
        return;
      }
      if (roll < 0.78) {
        const product = pick(['current', 'fixed30'] as const);
        const candidates = ordersOf(user, product);
        if (candidates.length === 0) return;
        const [orderId] = pick(candidates);
        const answer = await perform({ kind: 'redeem', product, orderId }, user);
        if (answer.body.code === 0) redeemed.add(orderId);
        return;
      }
      if (roll < 0.88) {
        const candidates = ordersOf(user, 'reinvest360');
        if (candidates.length > 0) await perform({ kind: 'switch', on: Math.random() < 0.5, orderId: pick(candidates)[0] }, user);
        return;
      }
      await perform({ kind: Math.random() < 0.5 ? 'claim' : 'claimNetwork' }, user);
    };

    // The operator moves the clock a day or two at a time and settles, while the clients run
    // (at least three times, however fast they are).
    const settler = async () => {
      while (!clientsDone || settleCalls < 3) {
        const days = 1 + Math.floor(Math.random() * 2);
        const call = { path: PATHS.operatorClockAdvance, token: operator.token, key: newKey(), body: { days } };
        const answer = await postCall(base, call);
        expect(answer.body.code, answer.text).toBe(0);
        effects.history.push({ call, answer });
        daysAdvanced += days;
        settleCalls++;
        await new Promise((r) => setTimeout(r, 100));
      }
    };
    const clients = runClients(CLIENTS, STEPS, step).finally(() => {
      clientsDone = true;
    });
    await Promise.all([clients, settler()]);

    // Replayed clock moves moved nothing: the clock stands where the accepted moves put it.
    expect(t.ctx.clock.now().getTime()).toBe(started + daysAdvanced * DAY_MS);
    // Every finished day was settled (its income lines are unique by order, day and kind).
    const days = await t.ctx.db.selectFrom('settlement_days').select(['day', 'status']).orderBy('day').execute();
    expect(days.length).toBeGreaterThanOrEqual(daysAdvanced);
    expect(days.every((d) => d.status === 'done')).toBe(true);

    await expectBooksExact(t.ctx.db);
    await effects.verify(t.ctx.db, users.map((u) => u.userId));

    const lines = [...tally].map(([name, line]) => `${name} ${line.accepted}/${line.sent}`).join(', ');
    console.log(
      `extended bank test on ${kind}: ${effects.answered.length} requests (${effects.accepted} accepted), ` +
        `${effects.replays} replays, ${settleCalls} settlements over ${daysAdvanced} days; ${lines}; ledger ok`,
    );
    expect(effects.replays).toBeGreaterThan(0);
    for (const name of [
      'buy current', 'buy fixed30', 'buy reinvest360', 'redeem current', 'redeem fixed30', 'switch', 'claim', 'claimNetwork',
    ]) {
      expect(tally.get(name)?.accepted ?? 0, name).toBeGreaterThan(0);
    }
  });
});
