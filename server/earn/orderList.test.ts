import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Order } from '../../contract/earn.ts';
import { ERRORS } from '../../contract/errors.ts';
import { PATHS } from '../../contract/paths.ts';
import { ORDER_STATUSES } from '../../contract/productRegistry.ts';
import { PRODUCTS, productOf } from '../../contract/products.ts';
import type { Product } from '../db/schema.ts';
import { DATABASES, startTestApp, type TestApp } from '../test/harness.ts';
import { bearer, signIn } from '../test/signIn.ts';

const TERMED = PRODUCTS.filter((product) => productOf(product).termDays !== null);
// Orders and bounds on a few hours, so that an order often falls on a bound.
const START = Date.parse('2026-11-01T00:00:00Z');
const HOUR = 3_600_000;
const at = (hours: number) => new Date(START + hours * HOUR).toISOString();

/**
 * The order lists (`order_page`, gathered) walked page by page against the rows read straight
 * from the table with the same filters, for random orders and random queries.
 */
describe.each(DATABASES)('the order lists on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(() => t?.close());

  const orders = fc.array(
    fc.record({ product: fc.constantFrom(...PRODUCTS), status: fc.constantFrom(...ORDER_STATUSES), hours: fc.integer({ min: 0, max: 6 }) }),
    { minLength: 10, maxLength: 30 },
  );
  const query = fc.record(
    {
      product: fc.constantFrom(...PRODUCTS),
      status: fc.constantFrom(...ORDER_STATUSES),
      from: fc.integer({ min: 0, max: 6 }).map(at),
      to: fc.integer({ min: 0, max: 6 }).map(at),
      limit: fc.integer({ min: 1, max: 7 }).map(String),
    },
    { requiredKeys: ['limit'] },
  );

  type Query = { product?: string; status?: string; from?: string; to?: string; limit: string };

  const walk = async (token: string, path: string, q: Query) => {
    const ids: string[] = [];
    let cursor: string | null = null;
    for (let page = 0; page < 100; page++) {
      const res = await t.app.inject({ url: path, query: { ...q, ...(cursor ? { cursor } : {}) }, headers: bearer(token) });
      const data = res.json().data as { items: Order[]; nextCursor: string | null };
      ids.push(...data.items.map((o) => o.id));
      cursor = data.nextCursor;
      if (!cursor) return ids;
    }
    throw new Error('the walk did not end');
  };

  const fromTable = async (userId: bigint, products: readonly Product[], q: Query) => {
    const rows = await t.ctx.db
      .selectFrom('orders')
      .select('id')
      .where('user_id', '=', userId)
      .where('product', 'in', q.product ? [q.product as Product] : [...products])
      .$if(q.status !== undefined, (b) => b.where('status', '=', q.status as never))
      .$if(q.from !== undefined, (b) => b.where('created_at', '>=', new Date(q.from as string)))
      .$if(q.to !== undefined, (b) => b.where('created_at', '<', new Date(q.to as string)))
      .orderBy('id', 'desc')
      .execute();
    return rows.map((r) => String(r.id));
  };

  it('pages every order the filters match once, newest first, both lists, asked at once', async () => {
    let n = 0;
    await fc.assert(
      fc.asyncProperty(orders, query, async (made, q) => {
        const session = await signIn(t.app, { name: `orders-${++n}` });
        const userId = BigInt(session.userId);
        for (const order of made) {
          await sql`insert into orders (user_id, product, principal, status, start_day, created_at)
            values (${userId}, ${order.product}, 100000000, ${order.status}, '2026-11-02', ${at(order.hours)})`.execute(t.ctx.db);
        }
        const [termed, all] = await Promise.all([walk(session.token, PATHS.productList, q), walk(session.token, PATHS.myProductList, q)]);
        expect(termed).toEqual(await fromTable(userId, TERMED, q));
        expect(all).toEqual(await fromTable(userId, PRODUCTS, q));
      }),
      { numRuns: 40 },
    );
  });

  it('reads a cursor past the largest id as one from the newest', async () => {
    const session = await signIn(t.app, { name: 'orders-cursor' });
    await sql`insert into orders (user_id, product, principal, status, start_day, created_at)
      values (${BigInt(session.userId)}, 'current', 100000000, 'in_progress', '2026-11-02', now())`.execute(t.ctx.db);
    const res = await t.app.inject({ url: PATHS.myProductList, query: { cursor: '9999999999999999999' }, headers: bearer(session.token) });
    expect(res.json().data.items).toHaveLength(1);
  });

  it('refuses a time PostgreSQL cannot take without failing the pages asked in the same moment', async () => {
    const session = await signIn(t.app, { name: 'orders-year-zero' });
    await sql`insert into orders (user_id, product, principal, status, start_day, created_at)
      values (${BigInt(session.userId)}, 'current', 100000000, 'in_progress', '2026-11-02', now())`.execute(t.ctx.db);
    const ask = (from?: string) => t.app.inject({ url: PATHS.myProductList, query: from ? { from } : {}, headers: bearer(session.token) });
    const [bad, good] = await Promise.all([ask('0000-01-01T00:00:00Z'), ask()]);
    expect(bad.json().code).toBe(ERRORS.PARAM.code);
    expect(good.json().data.items).toHaveLength(1);
  });

  it('answers each order read of one moment with its own order, as listed, and none for another id', async () => {
    const holders = await Promise.all([0, 1, 2].map((i) => signIn(t.app, { name: `orders-one-${i}` })));
    for (const [i, h] of holders.entries()) {
      for (const product of PRODUCTS.slice(0, i + 2)) {
        await sql`insert into orders (user_id, product, principal, status, start_day, created_at)
          values (${BigInt(h.userId)}, ${product}, ${100000000 * (i + 1)}, 'in_progress', '2026-11-02', ${at(i)})`.execute(t.ctx.db);
      }
    }
    const lists = await Promise.all(
      holders.map(async (h) => (await t.app.inject({ url: PATHS.myProductList, headers: bearer(h.token) })).json().data.items as Order[]),
    );
    // The second holder's orders asked by the first, an id past the largest bigint and one past PostgreSQL's range, all in the same moment.
    const asks = [
      ...holders.flatMap((h, i) => (lists[i] ?? []).map((order) => ({ token: h.token, id: order.id, want: order }))),
      ...(lists[1] ?? []).map((order) => ({ token: holders[0]?.token ?? '', id: order.id, want: null })),
      // An id no order has, above the holder's newest: the read must not answer their newest.
      { token: holders[2]?.token ?? '', id: String(BigInt(lists[2]?.[0]?.id ?? '0') + 1000n), want: null },
      { token: holders[2]?.token ?? '', id: '9223372036854775807', want: null },
      { token: holders[2]?.token ?? '', id: '9999999999999999999', want: null },
    ];
    const answers = await Promise.all(asks.map((ask) => t.app.inject({ url: PATHS.product, query: { id: ask.id }, headers: bearer(ask.token) })));
    expect(asks.length).toBeGreaterThan(10);
    for (const [i, ask] of asks.entries()) {
      const body = answers[i]?.json();
      if (ask.want) expect(body.data).toEqual(ask.want);
      else expect(body.code).toBe(ERRORS.NOT_FOUND.code);
    }
  });
});
