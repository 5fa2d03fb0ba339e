import { spawnSync } from 'node:child_process';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS } from '../../contract/errors.ts';
import { formatUnits, UNIT } from '../../contract/money.ts';
import { PATHS } from '../../contract/paths.ts';
import { signInOverHttp } from '../../e2e/support/httpSignIn.ts';
import { freePort, type RunningServer, startServer } from '../../e2e/support/server.ts';
import { connect, type DbHandle } from '../db/connect.ts';
import { newKey } from '../test/signIn.ts';
import { CLUSTER_PASSWORD, clusterProgramsMissing, DatabaseCluster, type Member } from './cluster.ts';
import { callOf, Effects, type Op } from './effects.ts';
import { type Answer, type Call, expectBooksExact, getCall, pick, postCall, randomAmount } from './load.ts';

const CLIENTS = 10;
const USERS = 6;
/** Answers the load gets between one fault and the next, so each fault meets requests in flight. */
const ANSWERS_BETWEEN_FAULTS = 60;

type User = { token: string; userId: string };

const missing = clusterProgramsMissing();
// In CI nothing is skipped: a missing program fails the test below with what to install.
const skip = missing.length > 0 && !process.env.CI;
if (skip) console.warn(`failover.test.ts skipped: needs ${missing.join(', ')}`);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const seconds = (ms: number) => (ms / 1_000).toFixed(1);

/**
 * The database host dies under load: a cluster as deploy/ ships it (Patroni with a synchronous
 * standby, strict; HAProxy in front), two app processes, and clients moving money with
 * Idempotency-Keys, retrying with the same key whatever answer means "not now" (no answer, 503,
 * 409 busy), as the web app does. Three faults in turn: kill -9 of the primary's postmaster;
 * kill -9 of Patroni on the new primary (restarted afterwards, as systemd would); both of the
 * standby's processes (started again a few seconds later). After each, writes come back; at the
 * end every acknowledged request is in the books once, nothing else is, and `npm run verify` is
 * green. `npm run test:failover` runs this alone.
 */
describe.skipIf(skip)('failover of the database host under load', () => {
  let cluster: DatabaseCluster | undefined;
  const servers: RunningServer[] = [];
  const effects = new Effects();
  const users: User[] = [];
  let operator: User;
  let stopLoad = false;
  let daysPassed = 0;
  /** Requests acknowledged (code 0), by user and key. */
  const acknowledged: { userId: string; key: string }[] = [];
  const pendingReviews: string[] = [];

  beforeAll(async () => {
    if (missing.length > 0) throw new Error(`CI must run the failover test: install ${missing.join(', ')}`);
    cluster = await DatabaseCluster.start();
    const admin = new pg.Client({ connectionString: cluster.url() });
    await admin.connect();
    await admin.query(`create role aic_earn login password '${CLUSTER_PASSWORD}'`);
    await admin.query('create database aic_earn owner aic_earn');
    // docs/deploy.md: the app sees its synchronous standby through pg_stat_replication.
    await admin.query('grant pg_monitor to aic_earn');
    await admin.end();
    const portA = await freePort();
    const shared = {
      DATABASE_URL: cluster.url('aic_earn', 'aic_earn'),
      PUBLIC_URL: `http://localhost:${portA}`,
      OAUTH_REDIRECT_URIS: `http://localhost:${portA}/`,
      OPERATOR_USER_IDS: '1',
      CLOCK_START: '2026-11-01T08:00:00Z',
      WEB_DIR: '/nonexistent',
      RATE_LIMIT_POSTS_PER_MINUTE: '1000000',
      RATE_LIMIT_SIGNIN_PER_MINUTE: '1000000',
      RATE_LIMIT_GETS_PER_MINUTE: '1000000',
      RATE_LIMIT_HEAVY_READS_PER_MINUTE: '1000000',
      EXCHANGE_TIMEOUT_MS: '2000',
      EXCHANGE_ATTEMPTS: '1',
      TRANSFER_WORKER_INTERVAL_MS: '500',
    };
    // The first process settles days by itself too, so the scheduler meets the faults.
    servers.push(await startServer({ ...shared, PORT: String(portA), SETTLEMENT_INTERVAL_MS: '1000' }));
    servers.push(await startServer({ ...shared, SETTLEMENT_INTERVAL_MS: '0' }));
  });
  afterAll(async () => {
    // At once: a graceful stop would wait for requests the test has already given up on.
    for (const server of servers) await server.kill();
    await Promise.all(servers.map((server) => server.stop()));
    await cluster?.stop();
  });

  /** The "not now" answers the load met, by kind: 503s, busy keys, connections dropped, hangs. */
  const notNow = { unavailable: 0, busy: 0, dropped: 0, hung: 0 };

  /** Sends `call` until it gets an answer that is not "not now", to either process in turn. */
  async function untilAnswered(call: Call): Promise<Answer> {
    const deadline = Date.now() + 120_000;
    for (let attempt = 0; ; attempt++) {
      const base = (servers[attempt % servers.length] as RunningServer).baseUrl;
      const answer = await postCall(base, call, AbortSignal.timeout(30_000)).catch((error: Error) => {
        // The app's processes never die here: no answer within the request timeout is a hang.
        if (error.name === 'TimeoutError') notNow.hung++;
        else notNow.dropped++;
        return undefined;
      });
      if (answer?.status === 503) notNow.unavailable++;
      if (answer?.body.code === ERRORS.IDEMPOTENCY_BUSY.code) notNow.busy++;
      if (answer && answer.status !== 503 && answer.body.code !== ERRORS.IDEMPOTENCY_BUSY.code) return answer;
      if (Date.now() > deadline) throw new Error(`${call.path} unanswered for 120 s: ${answer?.text ?? 'no answer'}`);
      await sleep(200);
    }
  }

  async function perform(op: Op, user: User): Promise<Answer> {
    const call = callOf(op, user.token);
    const answer = await untilAnswered(call);
    effects.record(op, user.userId, call, answer);
    if (answer.body.code === 0) acknowledged.push({ userId: user.userId, key: call.key });
    return answer;
  }

  const randomOp = (user: User): { op: Op; as: User } => {
    const roll = Math.random();
    const open = [...effects.orders].filter(([id, o]) => o.userId === user.userId && o.product === 'current' && !effects.redeems.has(id));
    if (roll < 0.1 && pendingReviews.length > 0) {
      const transferId = pendingReviews.splice(Math.floor(Math.random() * pendingReviews.length), 1)[0] as string;
      return { op: { kind: 'review', approve: Math.random() < 0.5, transferId }, as: operator };
    }
    if (roll < 0.45) {
      const type = pick(['recharge', 'transfer_in', 'transfer_out', 'withdraw'] as const);
      return { op: { kind: 'move', type, asset: pick(['AIC', 'USDT'] as const), amount: randomAmount(300) }, as: user };
    }
    if (roll < 0.75) {
      const amount = formatUnits(UNIT + BigInt(Math.floor(Math.random() * 100)) * (UNIT / 7n));
      return { op: { kind: 'buy', product: pick(['current', 'fixed30', 'reinvest360'] as const), amount }, as: user };
    }
    if (roll < 0.88 && open.length > 0) return { op: { kind: 'redeem', product: 'current', orderId: pick(open)[0] }, as: user };
    return { op: { kind: Math.random() < 0.5 ? 'claim' : 'claimNetwork' }, as: user };
  };

  /** One client: random requests until the load stops. */
  async function client(): Promise<void> {
    while (!stopLoad) {
      const { op, as } = randomOp(pick(users));
      const answer = await perform(op, as);
      const type = op.kind === 'move' ? op.type : '';
      if (answer.body.code === 0 && (type === 'transfer_out' || type === 'withdraw')) {
        pendingReviews.push((answer.body.data as { id: string }).id);
      }
    }
  }

  /**
   * A day passes: the shared demo clock (clock_offset, which every process reads each second)
   * moves a day, as the test's own write through HAProxy, and the first process's scheduler
   * settles the day that ended. Returns once that day's settlement has begun (or is done), so
   * the fault that follows may meet it half done. Days pass before the faults only: a stored
   * answer is kept 7 days, and the test holds every answer to what is stored.
   */
  async function passDay(): Promise<void> {
    const db = new pg.Client({ connectionString: (cluster as DatabaseCluster).url('aic_earn', 'aic_earn') });
    await db.connect();
    try {
      const begun = async () => (await db.query<{ n: number }>('select count(*)::int as n from settlement_days')).rows[0]?.n ?? 0;
      const before = await begun();
      await db.query('update clock_offset set offset_ms = offset_ms + 86400000, version = version + 1, set_at = now() where id = 1');
      daysPassed++;
      const deadline = Date.now() + 10_000;
      while ((await begun()) <= before) {
        if (Date.now() > deadline) throw new Error('the scheduler began no settlement within 10 s of a day passing');
        await sleep(20);
      }
    } finally {
      await db.end();
    }
  }

  /** Waits until the scheduler has settled each of the `days` that ended, and no day is left half done. */
  async function everyDaySettled(days: number): Promise<void> {
    const db = new pg.Client({ connectionString: (cluster as DatabaseCluster).url('aic_earn', 'aic_earn') });
    await db.connect();
    try {
      const deadline = Date.now() + 120_000;
      for (;;) {
        const { rows } = await db.query<{ done: number; all: number }>(
          "select count(*) filter (where status = 'done')::int as done, count(*)::int as all from settlement_days",
        );
        const { done, all } = rows[0] as { done: number; all: number };
        if (done >= days && done === all) return;
        if (Date.now() > deadline) throw new Error(`settled ${done} of ${days} days (${all} begun) after the load`);
        await sleep(500);
      }
    } finally {
      await db.end();
    }
  }

  /**
   * Milliseconds from `since` to the first write that the books take (a 1 AIC transfer in), sent
   * once the new primary leads: the old one may take writes until HAProxy marks it down.
   */
  async function writesBackAfter(since: number, probe: User): Promise<number> {
    for (;;) {
      const call = callOf({ kind: 'move', type: 'transfer_in', asset: 'AIC', amount: '1' }, probe.token);
      const base = pick(servers).baseUrl;
      const answer = await postCall(base, call, AbortSignal.timeout(2_000)).catch(() => undefined);
      if (answer?.body.code === 0) {
        effects.record({ kind: 'move', type: 'transfer_in', asset: 'AIC', amount: '1' }, probe.userId, call, answer);
        acknowledged.push({ userId: probe.userId, key: call.key });
        return Date.now() - since;
      }
      if (answer && answer.status !== 503) {
        // Not "not now": an answer the books must hold to, like any other.
        effects.record({ kind: 'move', type: 'transfer_in', asset: 'AIC', amount: '1' }, probe.userId, call, answer);
      } else if (!answer) {
        // It may have committed before its answer was lost: its retry says which, once.
        const retried = await untilAnswered(call);
        effects.record({ kind: 'move', type: 'transfer_in', asset: 'AIC', amount: '1' }, probe.userId, call, retried);
        if (retried.body.code === 0) acknowledged.push({ userId: probe.userId, key: call.key });
      }
      if (Date.now() - since > 120_000) throw new Error('writes did not come back within 120 s');
      await sleep(100);
    }
  }

  /** Waits until `server`'s /readyz answers 503 with `status`. */
  async function readyzSays(server: RunningServer, status: string): Promise<void> {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const response = await fetch(`${server.baseUrl}/readyz`);
      const body = (await response.json()) as { status: string };
      if (response.status === 503 && body.status === status) return;
      if (Date.now() > deadline) throw new Error(`/readyz still answers ${response.status} ${body.status}`);
      await sleep(200);
    }
  }

  /** Waits until the load has had `count` more answers. */
  async function answersGo(count: number): Promise<void> {
    const target = effects.answered.length + count;
    while (effects.answered.length < target) await sleep(50);
  }

  it('acknowledges nothing it loses, does nothing twice, and takes writes again after each fault', async () => {
    const live = cluster as DatabaseCluster;
    const [a] = servers as [RunningServer];
    operator = await signInOverHttp(a.baseUrl, { name: 'operator' });
    const { inviteCode } = (await getCall<{ inviteCode: string }>(a.baseUrl, PATHS.userInfo, operator.token)).body.data;
    for (let i = 0; i < USERS; i++) {
      const user = await signInOverHttp(a.baseUrl, { name: `failover ${i}` });
      const bound = await untilAnswered({ path: PATHS.bindInviter, token: user.token, key: newKey(), body: { inviteCode } });
      expect(bound.body.code, bound.text).toBe(0);
      await perform({ kind: 'move', type: 'transfer_in', asset: 'AIC', amount: '10000' }, user);
      users.push(user);
    }
    const probe = users[0] as User;

    const load = Promise.all(Array.from({ length: CLIENTS }, () => client()));
    const faults: { what: string; writesBackMs: number }[] = [];

    // 1. The primary's PostgreSQL dies; its Patroni stays and brings it back as a standby.
    await answersGo(ANSWERS_BETWEEN_FAULTS);
    const first = await live.leader();
    await passDay();
    const firstKilled = Date.now();
    live.killPostgres(first);
    await live.leader(first);
    faults.push({ what: `kill -9 of ${first.name}'s postmaster (the primary)`, writesBackMs: await writesBackAfter(firstKilled, probe) });
    await live.waitUntilSynchronous();

    // 2. Patroni dies on the new primary and stays down: its PostgreSQL runs on without it and
    //    loses the lead when the key expires (a Patroni back within the key's life keeps it).
    //    Started again, Patroni demotes its PostgreSQL and rewinds it into a standby, without
    //    which the new primary's commits wait (strict).
    await answersGo(ANSWERS_BETWEEN_FAULTS);
    const second = await live.leader();
    await passDay();
    const secondKilled = Date.now();
    live.killPatroni(second);
    await live.leader(second);
    live.startPatroni(second);
    faults.push({ what: `kill -9 of ${second.name}'s Patroni (the primary)`, writesBackMs: await writesBackAfter(secondKilled, probe) });
    await live.waitUntilSynchronous();

    // 3. The standby's host dies (Patroni and PostgreSQL): with no synchronous standby, commits
    //    wait rather than go on unprotected; the host comes back and they go through.
    await answersGo(ANSWERS_BETWEEN_FAULTS);
    const leader = await live.leader();
    const standby = live.members.find((m) => m.name !== leader.name) as Member;
    await passDay();
    live.killPatroni(standby);
    live.killPostgres(standby);
    // Writes stop rather than go on unprotected, and say so: each process reads that the primary
    // has no synchronous standby, /readyz answers 503 with why, and a POST is refused at once.
    for (const server of servers) await readyzSays(server, 'no synchronous standby: writes wait for one');
    const refused = await postCall(a.baseUrl, callOf({ kind: 'move', type: 'transfer_in', asset: 'AIC', amount: '1' }, probe.token));
    expect({ status: refused.status, code: refused.body.code }).toEqual({ status: 503, code: ERRORS.UNAVAILABLE.code });
    await sleep(3_000);
    const restarted = Date.now();
    live.startPatroni(standby);
    faults.push({ what: `the standby ${standby.name} down, then started`, writesBackMs: await writesBackAfter(restarted, probe) });
    await live.waitUntilSynchronous();

    await answersGo(ANSWERS_BETWEEN_FAULTS);
    stopLoad = true;
    await load;
    await everyDaySettled(daysPassed);

    // Count by key: every acknowledged request is stored once under its key, and its effect is in
    // the books once (effects.verify holds every row and journal entry to the answers).
    const handle: DbHandle = await connect({ databaseUrl: live.url('aic_earn', 'aic_earn'), poolSize: 2 });
    let lost = 0;
    let twice = 0;
    try {
      const stored = await handle.db.selectFrom('idempotency_keys').select(['user_id', 'key']).execute();
      const keys = new Set(stored.map((row) => `${row.user_id}|${row.key}`));
      lost = acknowledged.filter((ack) => !keys.has(`${ack.userId}|${ack.key}`)).length;
      const refs = await handle.db
        .selectFrom('journal_entries')
        .select(['kind', 'ref'])
        .where('kind', 'in', ['subscribe', 'redeem', 'recharge', 'transfer_in', 'transfer_out', 'withdraw', 'transfer_approved', 'transfer_rejected'])
        .execute();
      const seen = new Map<string, number>();
      for (const row of refs) seen.set(`${row.kind}|${row.ref}`, (seen.get(`${row.kind}|${row.ref}`) ?? 0) + 1);
      twice = [...seen.values()].filter((n) => n > 1).length;
      await expectBooksExact(handle.db);
      await effects.verify(handle.db, users.map((u) => u.userId));
    } finally {
      await handle.close();
    }

    const verify = spawnSync(process.execPath, ['--import', 'tsx', 'server/settlement/verifyCli.ts'], {
      encoding: 'utf8',
      env: { ...process.env, DATABASE_URL: live.url('aic_earn', 'aic_earn') },
    });
    expect(verify.status, `npm run verify:\n${verify.stdout}\n${verify.stderr}`).toBe(0);

    const worst = Math.max(...faults.map((f) => f.writesBackMs));
    for (const fault of faults) console.log(`  ${fault.what}: writes back after ${seconds(fault.writesBackMs)} s`);
    console.log(`  ${effects.answered.length} answers (${effects.refused} refusals), ${daysPassed} days settled, verify green`);
    console.log(
      `  on the way: ${notNow.unavailable} answered 503, ${notNow.busy} busy, ${notNow.dropped} connections dropped, ${notNow.hung} hung past 30 s`,
    );
    console.log(`failover: ${acknowledged.length} acknowledged, ${lost} lost, ${twice} twice, writes back after ${seconds(worst)} s`);
    expect(lost).toBe(0);
    expect(twice).toBe(0);
    // A request in flight at a fault is answered (503 at worst), never left waiting.
    expect(notNow.hung).toBe(0);
  });
});
