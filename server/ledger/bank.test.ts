import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TRANSFER_TYPES } from '../../contract/wallet.ts';
import { Effects } from '../reliability/effects.ts';
import { expectBooksExact, pick, randomAmount, runClients } from '../reliability/load.ts';
import { DATABASES, startTestApp, type TestApp } from '../test/harness.ts';
import { signIn } from '../test/signIn.ts';

const CLIENTS = 50;
/** Requests each client sends: 300 in all. */
const STEPS = 6;
const USERS = 8;

/**
 * The bank test: many clients move money at once, a fixed number of requests; at the end the books
 * balance, nobody is negative, and every accepted request had exactly one effect.
 * (server/reliability/bank.test.ts extends it to the earn products and settlement.)
 */
describe.each(DATABASES)('bank test on %s', (kind) => {
  let t: TestApp;
  let base: string;
  let operator: { token: string; userId: string };
  const users: { token: string; userId: string }[] = [];
  beforeAll(async () => {
    t = await startTestApp(kind, { config: { operatorUserIds: [1n] } });
    operator = await signIn(t.app, { name: 'operator' });
    for (let i = 0; i < USERS; i++) users.push(await signIn(t.app, { name: `client ${i}` }));
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await t.close();
  });

  it('keeps the books exact under concurrent load', async () => {
    const effects = new Effects();
    const pending: string[] = [];
    await runClients(CLIENTS, STEPS, async () => {
      const roll = Math.random();
      if (roll < 0.1 && effects.history.length > 0) {
        // A retry of an earlier request with its key: same answer, no second effect.
        await effects.replay(base);
      } else if (roll < 0.3 && pending.length > 0) {
        const transferId = pending.splice(Math.floor(Math.random() * pending.length), 1)[0] as string;
        await effects.perform(base, { kind: 'review', approve: Math.random() < 0.5, transferId }, operator);
      } else {
        // Refusals other than the balance fail the test inside `perform`.
        const type = pick(TRANSFER_TYPES);
        const asset = pick(['AIC', 'USDT'] as const);
        const answer = await effects.perform(base, { kind: 'move', type, asset, amount: randomAmount(300) }, pick(users));
        if (answer.body.code === 0 && (type === 'transfer_out' || type === 'withdraw')) {
          pending.push((answer.body.data as { id: string }).id);
        }
      }
    });

    // The books balance to the unit, nobody is negative, balances equal their postings; every
    // accepted request had exactly one effect, nothing else happened, and each user's balances
    // follow from what was accepted and how it was reviewed.
    await expectBooksExact(t.ctx.db);
    await effects.verify(t.ctx.db, users.map((u) => u.userId));
    console.log(
      `bank test on ${kind}: ${effects.answered.length + effects.replays} requests from ${CLIENTS} clients, ` +
        `${effects.moves.size} accepted moves, ${effects.reviews.size} reviews, ${effects.replays} replays; ledger ok`,
    );
    expect(effects.moves.size).toBeGreaterThan(50);
    expect(effects.replays).toBeGreaterThan(0);
  });
});
