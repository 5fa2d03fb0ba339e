import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PATHS } from '../../contract/paths.ts';
import { ORDER_STATUSES } from '../../contract/productRegistry.ts';
import { PRODUCTS, productOf } from '../../contract/products.ts';
import { DATABASES, startTestApp, type TestApp } from '../test/harness.ts';
import { bearer, signIn } from '../test/signIn.ts';
import { listOrders, orderItems, toOrder } from './repository.ts';

const DAY = 86_400_000;
const BASE = Date.parse('2026-11-01T00:00:00Z');
/** Milliseconds within `days` of BASE, often a millisecond either side of a whole second (where a countdown's rounding shows). */
const offsetMs = (days: number) =>
  fc.tuple(fc.integer({ min: -days * 86_400, max: days * 86_400 }), fc.oneof(fc.constantFrom(0, 1, 999), fc.integer({ min: 0, max: 999 }))).map(
    ([seconds, ms]) => seconds * 1000 + ms,
  );
/** A moment within fifty days of BASE, to the microsecond, as PostgreSQL stores one. */
const moment = fc.record({ ms: offsetMs(50), micros: fc.integer({ min: 0, max: 999 }) }).map(
  ({ ms, micros }) => `${new Date(BASE + ms).toISOString().slice(0, -1)}${String(micros).padStart(3, '0')}Z`,
);
const day = fc.integer({ min: -50, max: 50 }).map((n) => new Date(BASE + n * DAY).toISOString().slice(0, 10));
const amount = fc.bigInt({ min: 0n, max: 10n ** 17n });

const order = fc.record({
  product: fc.constantFrom(...PRODUCTS),
  status: fc.constantFrom(...ORDER_STATUSES),
  principal: fc.bigInt({ min: 1n, max: 10n ** 17n }),
  income: amount,
  power: amount,
  coefficient: fc.option(fc.constantFrom('1', '1.02', '1.48594740'), { nil: null }),
  reinvest: fc.boolean(),
  autoRenew: fc.boolean(),
  startDay: day,
  createdAt: moment,
  cycleStart: fc.option(moment, { nil: null }),
  cyclesPaid: fc.integer({ min: 0, max: 400 }),
  maturesDay: fc.option(day, { nil: null }),
  renewed: fc.boolean(),
});

/**
 * The order lists' pages as PostgreSQL writes them (`order_items`) against the same page read as
 * rows and written by `toOrder` (`listOrders`), for random orders, filters and moments: the
 * same orders, the same figures, the same cursor.
 */
describe.each(DATABASES)('the order lists written by PostgreSQL on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(() => t?.close());

  it('writes each page as toOrder writes its rows, at any moment', async () => {
    let n = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(order, { minLength: 0, maxLength: 12 }),
        fc.record({ limit: fc.integer({ min: 1, max: 6 }), products: fc.subarray([...PRODUCTS], { minLength: 1 }) }),
        offsetMs(60),
        async (made, { limit, products }, offset) => {
          const { userId } = await signIn(t.app, { name: `items-${++n}` });
          const user = BigInt(userId);
          for (const [i, o] of made.entries()) {
            await sql`insert into orders (user_id, product, principal, income, power, coefficient, status, reinvest, auto_renew,
                start_day, created_at, cycle_start, cycles_paid, matures_day, renewed_from, renewed_to)
              values (${user}, ${o.product}, ${o.principal}, ${o.income}, ${o.power}, ${o.coefficient}, ${o.status}, ${o.reinvest},
                ${o.autoRenew}, ${o.startDay}::date, ${o.createdAt}::timestamptz, ${o.cycleStart}::timestamptz, ${o.cyclesPaid},
                ${o.maturesDay}::date, ${o.renewed ? BigInt(i + 1) : null}, ${o.renewed ? BigInt(i + 100) : null})`.execute(t.ctx.db);
          }
          const now = new Date(BASE + offset);
          let cursor: string | undefined;
          for (let page = 0; page < 20; page++) {
            const query = { limit, ...(cursor ? { cursor } : {}) };
            const [written, rows] = await Promise.all([orderItems(t.ctx.db, user, query, products, now), listOrders(t.ctx.db, user, query, products)]);
            const parsed = JSON.parse(written) as { items: unknown[]; nextCursor: string | null };
            expect(parsed).toEqual({ items: rows.rows.map((row) => toOrder(row, now)), nextCursor: rows.nextCursor });
            if (!parsed.nextCursor) return;
            cursor = parsed.nextCursor;
          }
          throw new Error('the walk did not end');
        },
      ),
      { numRuns: 100 },
    );
  });

  it('answers the lists in the envelope with the pages as the rows read', async () => {
    const session = await signIn(t.app, { name: 'items-route' });
    const user = BigInt(session.userId);
    for (const product of PRODUCTS) {
      await sql`insert into orders (user_id, product, principal, status, start_day, created_at, matures_day)
        values (${user}, ${product}, 123456789, 'in_progress', '2026-11-02', now(), ${productOf(product).termDays === null ? null : '2026-12-02'}::date)`.execute(
        t.ctx.db,
      );
    }
    const res = await t.app.inject({ url: PATHS.myProductList, query: { limit: '2' }, headers: bearer(session.token) });
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    const rows = await listOrders(t.ctx.db, user, { limit: 2 }, PRODUCTS);
    const now = t.ctx.clock.now();
    expect(res.json()).toEqual({ code: 0, msg: 'success', data: { items: rows.rows.map((row) => toOrder(row, now)), nextCursor: rows.nextCursor } });
    expect(rows.rows.map((row) => row.product)).toEqual([...PRODUCTS].reverse().slice(0, 2));
    expect(rows.nextCursor).not.toBeNull();
  });
});
