import fc from 'fast-check';
import { type RawBuilder, sql, type Transaction } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/schema.ts';
import { earnParams } from '../earn/params.ts';
import { addDays } from '../platform/clock.ts';
import { currentCyclesStep, fixedAccrualStep, staticStep } from '../settlement/settle.ts';
import { DATABASES, startTestApp, type TestApp } from '../test/harness.ts';
import { fundSystem } from '../test/population.ts';
import { type OrderPayment, STORED } from './orderPayment.ts';
import { inPart } from './parts.ts';
import { type IncomeStep, payIncome } from './payIncome.ts';

type Trx = Transaction<Database>;
const DAY = '2027-03-10';
const ASOF = new Date(`${addDays(DAY, 1)}T01:00:00Z`);

/** Orders of every product around the day: some paid by each step, some not (not yet, matured, closed). */
const order = fc.record({
  userId: fc.integer({ min: 1, max: 12 }),
  product: fc.constantFrom('fixed30', 'reinvest360', 'current'),
  principal: fc.bigInt({ min: 1n, max: 10n ** 13n }),
  income: fc.bigInt({ min: 0n, max: 10n ** 11n }),
  power: fc.bigInt({ min: 0n, max: 10n ** 13n }),
  reinvest: fc.boolean(),
  status: fc.constantFrom('in_progress', 'in_progress', 'reinvested', 'confirming', 'redeemable', 'ended'),
  startOffset: fc.integer({ min: -400, max: 1 }),
  cyclesPaid: fc.integer({ min: 0, max: 40 }),
  /** Hours after midnight of the day the cycle being run ends (negative: the day before). */
  cycleEndHour: fc.integer({ min: -30, max: 40 }),
});
type Order = typeof order extends fc.Arbitrary<infer T> ? T : never;

const TERMS: Record<string, number> = { fixed30: 30, reinvest360: 360, current: 0 };

async function insertOrders(trx: Trx, orders: Order[]) {
  for (const o of orders) {
    const start = addDays(DAY, o.startOffset);
    const cycleEnd = Date.parse(`${DAY}T00:00:00Z`) + o.cycleEndHour * 3_600_000;
    const cycleStart = new Date(cycleEnd - (o.cyclesPaid + 1) * 86_400_000);
    await sql`insert into orders (user_id, product, principal, income, power, status, reinvest, start_day, created_at,
        cycle_start, cycles_paid, matures_day)
      values (${o.userId}, ${o.product}, ${o.principal}, ${o.income}, ${o.power}, ${o.status}, ${o.reinvest}, ${start}::date,
        ${cycleStart}, ${o.product === 'current' ? cycleStart : null}, ${o.cyclesPaid},
        ${o.product === 'current' ? null : addDays(start, TERMS[o.product] as number)}::date)`.execute(trx);
  }
}

/**
 * The slower way, as settlement paid before: the candidates read from the orders first (into a
 * table, so that they are what the orders held before), paid as candidates, and the orders'
 * totals updated by joining them back.
 */
async function payByCandidates(trx: Trx, step: IncomeStep, payment: OrderPayment, paidBefore: bigint | null) {
  const zero = () => sql`0`;
  const principalAdd = payment.principalAdd ?? zero;
  const powerAdd = payment.powerAdd ?? zero;
  await sql`create temp table oracle on commit drop as
    select user_id, id as order_id, x.amount, ${payment.dest(STORED)} as dest,
      (${principalAdd(sql`x.amount`, STORED)})::bigint as principal_add, (${powerAdd(sql`x.amount`, STORED)})::bigint as power_add,
      ${sql.lit(payment.cycle ? 1 : 0)} as cycle_add, ${payment.inputs(STORED)}
    from orders cross join lateral (select ${payment.amount(STORED)} as amount) x
    where ${payment.where}`.execute(trx);
  const { orders: _orders, ...base } = step;
  const paid = await payIncome(trx, { ...base, candidates: sql`select * from oracle` });
  await sql`update orders o set income = o.income + c.amount, principal = o.principal + c.principal_add,
      power = o.power + c.power_add, cycles_paid = o.cycles_paid + c.cycle_add
    from oracle c where o.user_id = c.user_id and o.id = c.order_id and o.id is distinct from ${paidBefore}::bigint`.execute(trx);
  return paid;
}

/** What a step leaves: the orders' totals, the day's lines with their inputs, the postings and balances. */
async function books(trx: Trx) {
  const read = async (query: RawBuilder<unknown>) => JSON.stringify((await query.execute(trx)).rows, (_, v) => (typeof v === 'bigint' ? v.toString() : v));
  return {
    // Ids relative to the first order's: each run draws its own from the sequence.
    orders: await read(sql`select id - min(id) over () as id, income, principal, power, cycles_paid from orders order by id`),
    lines: await read(sql`select user_id, order_id - (select min(id) from orders) as order_id, kind, amount, source, rate,
        rate_from, cycle, power, reinvest
      from income where day = ${DAY}::date order by user_id, order_id, kind`),
    // Summed per account: a step paid in parts posts an entry per part.
    postings: await read(sql`select p.user_id, p.kind, sum(p.amount)::bigint as amount from ledger_postings p
      join journal_entries e on e.id = p.entry_id
      where e.ref like ${`settlement:${DAY}:%`} group by p.user_id, p.kind order by p.user_id, p.kind`),
    balances: await read(sql`select user_id, kind, balance from accounts where asset = 'AIC' order by user_id, kind`),
  };
}

class Rollback extends Error {}

/**
 * Paying orders in place (one update, the lines from what it returned) leaves the same books to
 * the 1e-8 as the candidates read first and the totals joined back, for each step that pays
 * orders, over random orders: products, statuses, terms, reinvestment and current cycles ending
 * around the day. Each run starts from the same books (both ways roll back).
 */
describe.each(DATABASES)('orders paid in place on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind, { seed: false });
    await fundSystem(t.ctx.db, { treasury: 10n ** 16n, supercomputing_pool: 10n ** 16n });
  });
  afterAll(async () => {
    await t.close();
  });

  const steps = fc.oneof(
    fc.constant('fixed' as const),
    fc.constant('current' as const),
    fc.record({
      output: fc.bigInt({ min: 0n, max: 10n ** 14n }),
      /** Power beyond the orders' own (the day's total is at least theirs: shares never exceed the output). */
      otherPower: fc.bigInt({ min: 0n, max: 10n ** 15n }),
      coefficient: fc.bigInt({ min: 0n, max: 3n * 10n ** 8n }),
      multiplier: fc.bigInt({ min: 1n, max: 5n }),
      // A cap that binds some shares, all, or none.
      maxRate: fc.constantFrom('0.005', '0.00000001', '1000'),
    }),
  );

  it('leaves the same lines, totals, postings and balances as the candidates paid and joined back, whole or in parts', async () => {
    const params = await earnParams(t.ctx.db, t.ctx.config.earn, DAY);
    await fc.assert(
      fc.asyncProperty(fc.array(order, { minLength: 1, maxLength: 25 }), steps, fc.boolean(), fc.integer({ min: 2, max: 4 }), async (orders, which, partly, of) => {
        const step =
          which === 'fixed'
            ? fixedAccrualStep(DAY, params, ASOF)
            : which === 'current'
              ? currentCyclesStep(DAY, ASOF, params)
              : staticStep(
                  DAY,
                  {
                    output: which.output,
                    totalPower: 1n + which.otherPower + orders.reduce((sum, o) => sum + o.power, 0n),
                    coefficient: which.coefficient.toString(),
                    multiplier: which.multiplier,
                    maxRate: which.maxRate,
                  },
                  ASOF,
                );
        const payment = step.orders as OrderPayment;
        const settle = async (pay: (trx: Trx, paidBefore: bigint | null) => Promise<{ rows: number; total: bigint }>) => {
          let result: { books: Awaited<ReturnType<typeof books>>; paid: { rows: number; total: bigint } } | undefined;
          await t.ctx.db
            .transaction()
            .execute(async (trx) => {
              await insertOrders(trx, orders);
              // A later run: one order's line of the day is there already, paid by an earlier run.
              const before = partly
                ? await sql<{ order_id: bigint }>`insert into income (user_id, order_id, day, kind, amount)
                    select user_id, id, ${DAY}::date, ${step.kind}, 0 from orders where ${payment.where} order by id limit 1
                    returning order_id`.execute(trx)
                : { rows: [] };
              const paid = await pay(trx, before.rows[0]?.order_id ?? null);
              result = { books: await books(trx), paid };
              throw new Rollback();
            })
            .catch((error: unknown) => {
              if (!(error instanceof Rollback)) throw error;
            });
          return result;
        };
        const inPlace = await settle((trx) => payIncome(trx, step));
        const oracle = await settle((trx, paidBefore) => payByCandidates(trx, step, payment, paidBefore));
        expect(inPlace).toEqual(oracle);
        // As settlement pays these steps: part after part by holder (settle.ts, INCOME_PARTS).
        const inParts = await settle(async (trx, paidBefore) => {
          const sum = { rows: 0, total: 0n };
          for (let index = 0; index < of; index++) {
            const part = await payIncome(trx, { ...step, part: { index, of } });
            // Each part pays its own holders' lines, all of them.
            const { rows } = await sql<{ n: number }>`select count(*)::int as n from income
              where day = ${DAY}::date and kind = ${step.kind} and order_id is distinct from ${paidBefore}::bigint
                and ${inPart('user_id', { index, of })}`.execute(trx);
            expect(part.rows).toBe(rows[0]?.n);
            sum.rows += part.rows;
            sum.total += part.total;
          }
          return sum;
        });
        expect(inParts).toEqual(inPlace);
      }),
      { numRuns: 40 },
    );
  });
});
