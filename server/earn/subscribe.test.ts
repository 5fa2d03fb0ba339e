import fc from 'fast-check';
import type { FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UNIT } from '../../contract/money.ts';
import { PATHS } from '../../contract/paths.ts';
import type { Product } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import { type Answer, idempotent } from '../http/idempotency.ts';
import { checkLedger, postEntry, SYSTEM } from '../ledger/ledger.ts';
import { utcDay } from '../platform/clock.ts';
import { DATABASES, startTestApp, type TestApp } from '../test/harness.ts';
import { buy } from './service.ts';
import { batcherOf, subscribe } from './subscribe.ts';

const PRODUCTS: Product[] = ['current', 'fixed30', 'reinvest360'];
const aic = (n: number) => BigInt(n) * UNIT;
const amount = fc.oneof(
  fc.constantFrom(UNIT / 2n, UNIT - 1n, UNIT, aic(9_999), aic(10_000), aic(10_000) + 1n),
  fc.bigInt({ min: 1n, max: aic(12_000) }),
);
const op = fc.record({
  product: fc.constantFrom(...PRODUCTS),
  amount,
  lang: fc.constantFrom('en', 'zh-cn', 'Thai'),
  // Asked with a 30-day buy only (the route refuses it with another product before any buy).
  autoRenew: fc.constantFrom(undefined, true, false),
  replay: fc.constantFrom('none', 'none', 'none', 'same', 'other'),
});
const start = fc.record({
  bound: fc.boolean(),
  wallet: fc.oneof(fc.constant(0n), fc.bigInt({ min: 0n, max: aic(25_000) })),
  quotaUsed: fc.oneof(fc.constant(null), fc.bigInt({ min: 0n, max: aic(10_000) })),
});

/** What a request is to the buy: its key, its language, and the body it hashes. */
const requestOf = (key: string, lang: string, body: object) =>
  ({
    method: 'POST',
    routeOptions: { url: PATHS.productBuy },
    params: {},
    body,
    headers: { 'idempotency-key': key, 'x-lang': lang },
  }) as unknown as FastifyRequest;

/** An answer without what differs between two holders by construction (the order's id). */
const comparable = (answer: Answer | string) =>
  typeof answer === 'string' ? answer : { ...answer, body: { ...answer.body, data: answer.body.data ? { ...(answer.body.data as object), id: 'id' } : null } };

describe.each(DATABASES)('a buy in one statement answers and writes exactly as the step-by-step buy, on %s', (kind) => {
  let t: TestApp;
  let nextId = 10_000n;
  beforeAll(async () => {
    // The parameters from a copy, so that buys sent together reach the batcher together.
    t = await startTestApp(kind, { seed: false, config: { paramsCacheMs: 600_000, buyBatchMs: 5 } });
  });
  afterAll(() => t?.close());

  async function holder(state: { bound: boolean; wallet: bigint; quotaUsed: bigint | null }) {
    const id = nextId++;
    await sql`insert into users (id, subject, name, invite_code, inviter_id) values
      (${id}, ${`buy-${id}`}, ${`holder ${id}`}, ${`S${id}`}, ${state.bound ? 1n : null})`.execute(t.ctx.db);
    if (state.wallet > 0n) {
      await t.ctx.db.transaction().execute((trx) =>
        postEntry(trx, {
          kind: 'recharge',
          postings: [
            { userId: SYSTEM, asset: 'AIC', kind: 'exchange', amount: -state.wallet },
            { userId: id, asset: 'AIC', kind: 'wallet', amount: state.wallet },
          ],
        }),
      );
    }
    if (state.quotaUsed !== null) {
      await sql`insert into daily_quota (user_id, day, used) values (${id}, ${utcDay(t.ctx.clock.now())}::date, ${state.quotaUsed})`.execute(t.ctx.db);
    }
    return id;
  }

  /** What a holder has after the buys: balances, quota, orders and stored answers, ids aside. */
  async function stateOf(userId: bigint) {
    const accounts = await t.ctx.db.selectFrom('accounts').select(['kind', 'balance']).where('user_id', '=', userId).orderBy('kind').execute();
    const quota = await t.ctx.db.selectFrom('daily_quota').select('used').where('user_id', '=', userId).execute();
    const orders = await t.ctx.db
      .selectFrom('orders')
      .select(['product', 'principal', 'power', 'coefficient', 'status', 'start_day', 'cycle_start', 'matures_day', 'created_at', 'auto_renew'])
      .where('user_id', '=', userId)
      .orderBy('id')
      .execute();
    const postings = await sql<{ kind: string; amount: bigint }>`select kind, amount from postings where user_id = ${userId} order by entry_id, kind`.execute(t.ctx.db);
    const keys = await t.ctx.db.selectFrom('idempotency_keys').select(['key', 'response_status', 'response_body']).where('user_id', '=', userId).orderBy('key').execute();
    // The holder's notice of each subscription: the order's id differs between twins, the rest not.
    const notices = await sql<{ kind: string; product: string; amount: string; read: boolean }>`
      select kind, params ->> 'product' as product, params ->> 'amount' as amount, read_at = created_at as read
      from notifications where user_id = ${userId} order by id`.execute(t.ctx.db);
    return {
      accounts,
      quota,
      orders,
      notices: notices.rows,
      postings: postings.rows,
      keys: keys.map((k) => comparable({ status: k.response_status ?? 0, body: k.response_body as Answer['body'] })),
    };
  }

  it('for random holders and random buys, replays and languages', async () => {
    await sql`insert into users (id, subject, name, invite_code) values (1, 'root', 'Root', 'ROOT0001')`.execute(t.ctx.db);
    await fc.assert(
      fc.asyncProperty(start, fc.array(op, { minLength: 1, maxLength: 8 }), async (initial, ops) => {
        const fast = await holder(initial);
        const oracle = await holder(initial);
        const keys: { key: string; body: object }[] = [];
        for (const [i, step] of ops.entries()) {
          const previous = keys.at(-1);
          const renewal = step.product === 'fixed30' && step.autoRenew !== undefined ? { autoRenew: step.autoRenew } : {};
          const body: { product: Product; amount: string; autoRenew?: boolean } = { product: step.product, amount: String(step.amount), ...renewal };
          const key = step.replay !== 'none' && previous ? previous.key : `k-${i}-${fast}`;
          const sent = step.replay === 'same' && previous ? previous.body : body;
          keys.push({ key, body: sent });
          const { product, amount: units, autoRenew } = sent as typeof body;
          const input = { product, amount: BigInt(units), autoRenew: autoRenew === true };
          const run = (fn: () => Promise<Answer>) => fn().catch((error: unknown) => (error instanceof AppError ? error.errorName : Promise.reject(error)));
          const a = await run(() => subscribe(t.ctx, requestOf(key, step.lang, sent), { userId: fast, ...input }));
          const b = await run(() =>
            idempotent(t.ctx, requestOf(key, step.lang, sent), oracle, (trx) => buy(t.ctx, trx, { userId: oracle, ...input })),
          );
          expect(comparable(a)).toEqual(comparable(b));
        }
        expect(await stateOf(fast)).toEqual(await stateOf(oracle));
      }),
      { numRuns: 60 },
    );
    expect((await checkLedger(t.ctx.db)).ok).toBe(true);
  });

  it('in batches: holders buying at the same moment each get what the step-by-step buy gives their twin', async () => {
    const before = batcherOf(t.ctx).sent;
    const shared: number[] = [];
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(start, fc.array(op, { minLength: 1, maxLength: 4 })), { minLength: 2, maxLength: 6 }), async (holders) => {
        const twins: { fast: bigint; oracle: bigint }[] = [];
        for (const [initial] of holders) twins.push({ fast: await holder(initial), oracle: await holder(initial) });
        const mark = batcherOf(t.ctx).sent;
        const plan = holders.map(([, ops], h) =>
          ops.map((step, i) => ({
            key: `b-${i}-${twins[h]?.fast}`,
            lang: step.lang,
            body: { product: step.product, amount: String(step.amount), ...(step.product === 'fixed30' && step.autoRenew !== undefined ? { autoRenew: step.autoRenew } : {}) },
          })),
        );
        const input = (body: { product: Product; amount: string; autoRenew?: boolean }) => ({ product: body.product, amount: BigInt(body.amount), autoRenew: body.autoRenew === true });
        // Every holder's buys at once (in order per holder), through the batcher.
        const fast = await Promise.all(
          plan.map((buys, h) =>
            Promise.all(buys.map((b) => subscribe(t.ctx, requestOf(b.key, b.lang, b.body), { userId: twins[h]?.fast as bigint, ...input(b.body) }))),
          ),
        );
        for (const [h, buys] of plan.entries()) {
          const twin = twins[h] as { fast: bigint; oracle: bigint };
          for (const [i, b] of buys.entries()) {
            const expected = await idempotent(t.ctx, requestOf(b.key, b.lang, b.body), twin.oracle, (trx) => buy(t.ctx, trx, { userId: twin.oracle, ...input(b.body) }));
            expect(comparable(fast[h]?.[i] as Answer)).toEqual(comparable(expected));
          }
          expect(await stateOf(twin.fast)).toEqual(await stateOf(twin.oracle));
        }
        shared.push(...batcherOf(t.ctx).sizesSince(mark));
      }),
      { numRuns: 25 },
    );
    expect(batcherOf(t.ctx).sent).toBeGreaterThan(before);
    expect(shared.some((size) => size > 1)).toBe(true);
    expect((await checkLedger(t.ctx.db)).ok).toBe(true);
  });

  it('in one batch: a holder short of balance is refused alone, and a key sent twice makes one order with one answer', async () => {
    const funded = { bound: true, wallet: aic(100), quotaUsed: null };
    const rich = [await holder(funded), await holder(funded), await holder(funded)];
    const poor = await holder({ bound: true, wallet: aic(5), quotaUsed: null });
    const body = { product: 'current' as const, amount: '10' };
    const send = (userId: bigint, key: string) => subscribe(t.ctx, requestOf(key, 'en', body), { userId, product: 'current', amount: aic(10) });
    const mark = batcherOf(t.ctx).sent;
    const answers = await Promise.all([...rich.map((id) => send(id, `one-${id}`)), send(poor, `one-${poor}`), send(rich[0] as bigint, `one-${rich[0]}`)]);
    expect(batcherOf(t.ctx).sizesSince(mark)).toEqual([5]);
    expect(answers.map((a) => a.body.code)).toEqual([0, 0, 0, 103, 0]);
    // The same key twice in the batch: the second is the first's replay, one order.
    expect(answers[4]).toEqual(answers[0]);
    const orders = await t.ctx.db.selectFrom('orders').select('user_id').where('user_id', 'in', [...rich, poor]).execute();
    expect(orders.map((o) => o.user_id).sort()).toEqual([...rich].sort());
    // Replayed later, each key still answers its own first answer.
    expect(await send(poor, `one-${poor}`)).toEqual(answers[3]);
    expect(await send(rich[1] as bigint, `one-${rich[1]}`)).toEqual(answers[1]);
    expect((await checkLedger(t.ctx.db)).ok).toBe(true);
  });
});

/**
 * A batch does not wait for one holder's row that another transaction holds (a settlement step
 * crediting earning accounts holds them until it commits): the others in the batch are answered
 * meanwhile, and that holder's buy waits for the row, then goes through. PostgreSQL only: the
 * embedded database has one connection, so a transaction held open stops every other statement.
 */
describe('a buy waiting for a row held elsewhere on postgres', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp('postgres', { seed: false, config: { paramsCacheMs: 600_000, buyBatchMs: 5 } });
  });
  afterAll(() => t?.close());

  it('does not hold up the other buys of its batch, and is answered once the row is free', async () => {
    const [held, free] = [20_001n, 20_002n];
    for (const id of [held, free]) {
      await sql`insert into users (id, subject, name, invite_code, inviter_id) values
        (${id}, ${`held-${id}`}, ${`holder ${id}`}, ${`H${id}`}, 1)`.execute(t.ctx.db);
      await t.ctx.db.transaction().execute((trx) =>
        postEntry(trx, {
          kind: 'recharge',
          postings: [
            { userId: SYSTEM, asset: 'AIC', kind: 'exchange', amount: -aic(100) },
            { userId: id, asset: 'AIC', kind: 'wallet', amount: aic(100) },
          ],
        }),
      );
    }
    const body = { product: 'current' as const, amount: '10' };
    const send = (userId: bigint) => subscribe(t.ctx, requestOf(`held-${userId}`, 'en', body), { userId, product: 'current', amount: aic(10) });
    let heldAnswered = false;
    const heldBuy = await t.ctx.db.transaction().execute(async (trx) => {
      await sql`select 1 from accounts where user_id = ${held} and asset = 'AIC' and kind = 'wallet' for update`.execute(trx);
      const mark = batcherOf(t.ctx).sent;
      const waiting = send(held).then((answer) => {
        heldAnswered = true;
        return answer;
      });
      const freeAnswer = await send(free);
      expect(batcherOf(t.ctx).sizesSince(mark)).toEqual([2]);
      expect(freeAnswer.body.code).toBe(0);
      expect(heldAnswered).toBe(false);
      // Wrapped: the transaction would wait for the held buy, which waits for the transaction.
      return { waiting };
    });
    expect((await heldBuy.waiting).body.code).toBe(0);
    const orders = await t.ctx.db.selectFrom('orders').select('user_id').where('user_id', 'in', [held, free]).execute();
    expect(orders.map((o) => o.user_id).sort()).toEqual([held, free]);
    expect((await checkLedger(t.ctx.db)).ok).toBe(true);
  });
});
