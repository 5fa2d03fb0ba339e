import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatUnits, UNIT } from '../../contract/money.ts';
import { PATHS } from '../../contract/paths.ts';
import { TRANSFER_TYPES } from '../../contract/wallet.ts';
import { signInOverHttp } from '../../e2e/support/httpSignIn.ts';
import { freePort, type RunningServer, startServer } from '../../e2e/support/server.ts';
import { connect, type DbHandle } from '../db/connect.ts';
import { TEST_DATABASE_URL } from '../test/harness.ts';
import { newKey } from '../test/signIn.ts';
import { callOf, Effects, type Op } from './effects.ts';
import { type Call, expectBooksExact, getCall, pick, postCall, randomAmount, runClients } from './load.ts';

const CLIENTS = 16;
const USERS = 6;

type User = { token: string; userId: string };

const randomOp = (): Op =>
  Math.random() < 0.6
    ? { kind: 'move', type: pick(TRANSFER_TYPES), asset: pick(['AIC', 'USDT'] as const), amount: randomAmount(300) }
    : {
        kind: 'buy',
        product: pick(['current', 'fixed30', 'reinvest360'] as const),
        amount: formatUnits(UNIT + BigInt(Math.floor(Math.random() * 300)) * (UNIT / 7n)),
      };

/**
 * kill -9 of the real server in the middle of concurrent moves and buys, then a restart on the
 * same database and a retry, with the same Idempotency-Key, of every request that got no
 * answer. Each answered request's effect is in the database exactly once, each retried one has
 * exactly one effect, nothing is lost and the books balance.
 *
 * PostgreSQL only: that is how the product scales (many stateless processes on one server),
 * and a crash of one process there leaves the database running. The embedded PGlite lives
 * inside the server process itself, so killing it is killing the database, a different story
 * (its durability is PGlite's write-ahead log, not something this suite can add to).
 */
describe('kill -9 during load on PostgreSQL', () => {
  const database = `rel_${randomBytes(5).toString('hex')}`;
  const url = new URL(TEST_DATABASE_URL);
  url.pathname = `/${database}`;
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
  let server: RunningServer | undefined;
  let env: Record<string, string>;

  beforeAll(async () => {
    await admin.connect();
    await admin.query(`create database ${database}`);
    env = {
      PORT: String(await freePort()),
      DATABASE_URL: url.href,
      SETTLEMENT_INTERVAL_MS: '0',
      OPERATOR_USER_IDS: '1',
      RATE_LIMIT_POSTS_PER_MINUTE: '1000000',
      RATE_LIMIT_SIGNIN_PER_MINUTE: '1000000',
      RATE_LIMIT_GETS_PER_MINUTE: '1000000',
      RATE_LIMIT_HEAVY_READS_PER_MINUTE: '1000000',
      WEB_DIR: '/nonexistent',
      // A transfer the kill left in flight is taken over by the worker after its lease (here 9 s),
      // within the time a retry waits for its first answer.
      EXCHANGE_TIMEOUT_MS: '2000',
      EXCHANGE_ATTEMPTS: '1',
      TRANSFER_WORKER_INTERVAL_MS: '500',
    };
    server = await startServer(env);
  });
  afterAll(async () => {
    await server?.stop();
    await admin.query(`drop database if exists ${database} with (force)`);
    await admin.end();
  });

  it('loses nothing and does nothing twice across a crash and restart', async () => {
    const base = (server as RunningServer).baseUrl;
    const effects = new Effects();
    const operator = await signInOverHttp(base, { name: 'operator' });
    const users: User[] = [];
    const { inviteCode } = (await getCall<{ inviteCode: string }>(base, PATHS.userInfo, operator.token)).body.data;
    for (let i = 0; i < USERS; i++) {
      const user = await signInOverHttp(base, { name: `crash ${i}` });
      await postCall(base, { path: PATHS.bindInviter, token: user.token, key: newKey(), body: { inviteCode } });
      await effects.perform(base, { kind: 'move', type: 'transfer_in', asset: 'AIC', amount: '10000' }, user);
      users.push(user);
    }

    // Load until the server dies: a client whose request gets no answer keeps it for the retry.
    const unanswered: { op: Op; user: User; call: Call }[] = [];
    let dead = false;
    let sent = 0;
    let answeredBeforeKill = 0;
    // Each client could send far more than it will: the kill below stops them all.
    const load = runClients(
      CLIENTS,
      10_000,
      async () => {
        const op = randomOp();
        const user = pick(users);
        const call = callOf(op, user.token);
        sent++;
        try {
          // Now and then the client gives up waiting: the server may well commit without it.
          const signal = Math.random() < 0.1 ? AbortSignal.timeout(5 + Math.floor(Math.random() * 30)) : undefined;
          const answer = await postCall(base, call, signal);
          effects.record(op, user.userId, call, answer);
          answeredBeforeKill++;
        } catch (error) {
          unanswered.push({ op, user, call });
          if ((error as Error).name !== 'TimeoutError') dead = true;
        }
      },
      () => dead,
    );
    // Kill once the load is well under way, in the middle of requests in flight.
    while (answeredBeforeKill < 150) await new Promise((r) => setTimeout(r, 20));
    await (server as RunningServer).kill();
    dead = true;
    await load;
    const killedWith = unanswered.length;

    // Which of them had committed before the kill (their answer was lost on the way)?
    const handle: DbHandle = await connect({ databaseUrl: url.href, poolSize: 2 });
    const keys = unanswered.map((u) => u.call.key);
    const committed = keys.length
      ? (await handle.db.selectFrom('idempotency_keys').select('key').where('key', 'in', keys).execute()).length
      : 0;

    // The same database, a new process (same port), and every unanswered request sent again.
    await server?.stop();
    server = await startServer(env);
    let lost = 0;
    let retriedAccepted = 0;
    for (const { op, user, call } of unanswered) {
      // As a client would: a few tries, a moment apart, always with the same key.
      let answer: Awaited<ReturnType<typeof postCall>> | undefined;
      for (let attempt = 0; attempt < 3 && !answer; attempt++) {
        answer = await postCall(server.baseUrl, call).catch(() => undefined);
        if (!answer) await new Promise((r) => setTimeout(r, 200));
      }
      if (!answer) lost++;
      else if (effects.record(op, user.userId, call, answer)) retriedAccepted++;
    }
    // And the restarted server carries on under load.
    await runClients(CLIENTS, 3, async () => {
      await effects.perform((server as RunningServer).baseUrl, randomOp(), pick(users));
    });

    try {
      await expectBooksExact(handle.db);
      await effects.verify(handle.db, users.map((u) => u.userId));
    } finally {
      await handle.close();
    }
    console.log(
      `kill -9 on postgres: ${sent} requests sent before the kill, ${answeredBeforeKill} answered, ` +
        `${killedWith} without an answer (given up by the client, in flight or refused at the kill; ` +
        `${committed} of them had committed), ` +
        'all retried with their keys: ' +
        `${retriedAccepted} accepted, ${killedWith - retriedAccepted - lost} refused, ${lost} lost; ` +
        `${effects.answered.length} answers in all (${effects.accepted} accepted); ledger ok`,
    );
    expect(killedWith).toBeGreaterThan(0);
    expect(lost).toBe(0);
  });
});
