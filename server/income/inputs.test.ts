import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type IncomeInputs, recomputeIncome } from '../../contract/income.ts';
import { formatUnits, parseRate } from '../../contract/money.ts';
import { PATHS } from '../../contract/paths.ts';
import { PRODUCT_REGISTRY } from '../../contract/productRegistry.ts';
import { createSession } from '../auth/sessions.ts';
import { coefficientScaled, earnParams } from '../earn/params.ts';
import { runningOn } from '../db/statuses.ts';
import { balanceOf, SYSTEM } from '../ledger/ledger.ts';
import { addDays, fixedClock } from '../platform/clock.ts';
import { setParam } from '../platform/params.ts';
import { settleDay } from '../settlement/settle.ts';
import { DATABASES, startTestApp, type TestApp } from '../test/harness.ts';
import { bearer } from '../test/signIn.ts';
import { lineInputs } from './inputs.ts';

const FIRST_DAY = '2027-01-04';

/**
 * Lines keep what they were computed from in columns (migrations 0027 and 0028): a static line
 * its order's power and reinvestment, the day's shared figures once; a fixed or current line the
 * amount its rate applies to, the rate, the day it took effect and the cycle. The oracle is what
 * each step stored on every line before, as one jsonb: the day's figures read here from the books
 * and the parameters before the day is settled, with the order's own figures.
 */
describe.each(DATABASES)('income lines’ inputs on %s', (kind) => {
  let t: TestApp;
  let run = 0;
  let holders = 0;
  beforeAll(async () => {
    t = await startTestApp(kind, { clock: fixedClock(new Date('2027-06-01T08:00:00Z')) });
  });
  afterAll(async () => {
    await t.close();
  });

  /** What the pool's output used to store on each of the day's lines, by order id. */
  async function storedBefore(day: string): Promise<Map<string, unknown>> {
    const params = await earnParams(t.ctx.db, t.ctx.config.earn, day);
    const pool = await balanceOf(t.ctx.db, { userId: SYSTEM, asset: 'AIC', kind: 'supercomputing_pool' });
    const { numerator, denominator } = parseRate(params.poolDailyOutputRate);
    const active = runningOn('pool', day);
    const { rows: power } = await sql<{ total: bigint }>`select coalesce(sum(power), 0)::bigint as total from orders where ${active}`.execute(t.ctx.db);
    const figures = JSON.stringify({
      totalPower: String(power[0]?.total),
      output: String((pool * numerator) / denominator),
      coefficient: coefficientScaled(params, day).toString(),
      multiplier: params.powerMultiplier.toString(),
      poolBalance: pool.toString(),
      outputRate: params.poolDailyOutputRate,
      outputRateFrom: params.versions.poolDailyOutputRate,
      maxRate: params.poolMaxDailyRate,
      maxRateFrom: params.versions.poolMaxDailyRate,
    });
    const { rows } = await sql<{ id: string; inputs: unknown }>`
      select id::text, ${figures}::jsonb || jsonb_build_object('power', power::text, 'reinvest', reinvest, 'principal', principal::text) as inputs
      from orders where ${active}`.execute(t.ctx.db);
    return new Map(rows.map((r) => [r.id, r.inputs]));
  }

  it('read back as the jsonb every static line stored before, over random orders and days', async () => {
    const order = fc.record({ units: fc.integer({ min: 100, max: 500_000 }), power: fc.integer({ min: 1, max: 5_000_000 }), reinvest: fc.boolean() });
    await fc.assert(
      fc.asyncProperty(fc.array(order, { minLength: 1, maxLength: 6 }), async (orders) => {
        const day = addDays(FIRST_DAY, 2 * run++);
        const owners: bigint[] = [];
        for (const o of orders) {
          const user = await sql<{ id: bigint }>`
            insert into users (subject, name, invite_code) values (${`inputs-${++holders}`}, 'holder', ${`INPUTS${holders}`})
            returning id`.execute(t.ctx.db);
          owners.push(user.rows[0]?.id as bigint);
          await sql`insert into orders (user_id, product, principal, power, coefficient, status, reinvest, start_day, created_at, matures_day)
            values (${user.rows[0]?.id}, 'reinvest360', ${BigInt(o.units) * 100_000_000n}, ${BigInt(o.power) * 100_000_000n}, '1.00000000',
              ${o.reinvest ? 'reinvested' : 'in_progress'}, ${o.reinvest}, ${day}::date, now(), ${addDays(day, 360)}::date)`.execute(t.ctx.db);
        }
        const expected = await storedBefore(day);
        expect((await settleDay(t.ctx, day)).status).toBe('done');
        const { rows } = await sql<{ id: string; inputs: unknown; raw: unknown }>`
          select order_id::text as id, ${lineInputs('i')} as inputs, i.inputs as raw
          from income i where i.day = ${day}::date and i.kind = 'static'`.execute(t.ctx.db);
        expect(new Map(rows.map((r) => [r.id, r.inputs]))).toEqual(expected);
        // Nothing per line but the columns: the day's figures are the day's.
        expect(rows.every((r) => r.raw === null)).toBe(true);
        // The reward log serves the same inputs, and its formula gives the line's amount from them.
        const token = await createSession(t.ctx.db, owners[0] as bigint, 30, 'test');
        const log: { orderId: string; day: string; amount: string; inputs: IncomeInputs }[] = (
          await t.app.inject({ url: PATHS.rewardLog, query: { kind: 'static' }, headers: bearer(token) })
        ).json().data.items;
        expect(log.map((line) => line.day)).toEqual([day]);
        for (const line of log) {
          expect(line.inputs).toEqual(expected.get(line.orderId));
          expect(formatUnits(recomputeIncome('static', line.inputs))).toBe(line.amount);
        }
      }),
      { numRuns: kind === 'pglite' ? 6 : 5 },
    );
  });

  /**
   * What the fixed accrual and the current cycles stored on each line before migration 0028, by
   * order id: the amount the rate applies to, the product's rate in force and the day it took effect,
   * and for a current line the cycle it pays.
   */
  async function rateInputsBefore(day: string, ids: bigint[]): Promise<Map<string, unknown>> {
    const params = await earnParams(t.ctx.db, t.ctx.config.earn, day);
    const rows = await t.ctx.db.selectFrom('orders').select(['id', 'product', 'principal', 'income', 'cycles_paid']).where('id', 'in', ids).execute();
    return new Map(
      rows.map((o) => {
        const { rate, from } = params.dailyRates[o.product] ?? { rate: '', from: null };
        const inputs =
          o.product === 'current'
            ? { holding: String(o.principal + o.income), rate, cycle: o.cycles_paid + 1, rateFrom: from }
            : { principal: String(o.principal), rate, rateFrom: from };
        return [String(o.id), inputs];
      }),
    );
  }

  it('read back as the jsonb every fixed and current line stored before, over random orders, rates and days', async () => {
    const order = fc.record({
      current: fc.boolean(),
      units: fc.integer({ min: 100, max: 500_000 }),
      income: fc.integer({ min: 0, max: 10_000_000_000 }),
      cyclesPaid: fc.integer({ min: 0, max: 400 }),
    });
    const rate = fc.option(fc.integer({ min: 1, max: 9_999 }).map((n) => `0.${String(n).padStart(6, '0')}`), { nil: null });
    await fc.assert(
      fc.asyncProperty(fc.array(order, { minLength: 1, maxLength: 6 }), rate, rate, async (orders, fixedRate, currentRate) => {
        const day = addDays(FIRST_DAY, 2 * run++);
        // A new rate from this day on, or the one in force before.
        if (fixedRate) await setParam(t.ctx.db, PRODUCT_REGISTRY.fixed30.rateParam, day, fixedRate);
        if (currentRate) await setParam(t.ctx.db, PRODUCT_REGISTRY.current.rateParam, day, currentRate);
        // The current orders of earlier runs are closed: their next cycles would fall between the days.
        await sql`update orders set status = 'redeemed' where product = 'current' and status = 'in_progress'`.execute(t.ctx.db);
        const ids: bigint[] = [];
        for (const o of orders) {
          const user = await sql<{ id: bigint }>`
            insert into users (subject, name, invite_code) values (${`inputs-${++holders}`}, 'holder', ${`INPUTS${holders}`})
            returning id`.execute(t.ctx.db);
          const principal = BigInt(o.units) * 100_000_000n;
          // A current order's cycle ends on the day; a fixed order's term runs through it.
          const inserted = await sql<{ id: bigint }>`
            insert into orders (user_id, product, principal, income, status, start_day, created_at, cycle_start, cycles_paid, matures_day)
            values (${user.rows[0]?.id}, ${o.current ? 'current' : 'fixed30'}, ${principal}, ${o.current ? BigInt(o.income) : 0n},
              'in_progress', ${addDays(day, -1)}::date, now(),
              ${o.current ? sql`${day}::timestamptz + interval '5 hours' - ${o.cyclesPaid + 1} * interval '1 day'` : sql`null`},
              ${o.current ? o.cyclesPaid : 0}, ${o.current ? sql`null` : sql`${addDays(day, 29)}::date`})
            returning id`.execute(t.ctx.db);
          ids.push(inserted.rows[0]?.id as bigint);
        }
        const expected = await rateInputsBefore(day, ids);
        expect((await settleDay(t.ctx, day)).status).toBe('done');
        const { rows } = await sql<{ id: string; kind: string; amount: bigint; inputs: IncomeInputs; raw: unknown }>`
          select order_id::text as id, kind, amount, ${lineInputs('i')} as inputs, i.inputs as raw
          from income i where i.day = ${day}::date and i.kind in ('fixed', 'current') and i.order_id = any(${ids}::bigint[])`.execute(t.ctx.db);
        expect(new Map(rows.map((r) => [r.id, r.inputs]))).toEqual(expected);
        for (const line of rows) {
          expect(line.raw).toBeNull();
          expect(recomputeIncome(line.kind as 'fixed' | 'current', line.inputs)).toBe(line.amount);
        }
      }),
      { numRuns: kind === 'pglite' ? 6 : 5 },
    );
  });

  it('read a line written with its inputs as a jsonb (before migration 0027) as it was stored', async () => {
    const stored = { power: '7', reinvest: true, output: '1', totalPower: '7' };
    await sql`insert into income (user_id, order_id, day, kind, amount, inputs)
      values (424242, 1, ${FIRST_DAY}::date, 'static', 1, ${JSON.stringify(stored)}::jsonb)`.execute(t.ctx.db);
    const { rows } = await sql<{ inputs: unknown }>`
      select ${lineInputs('i')} as inputs from income i where i.user_id = 424242`.execute(t.ctx.db);
    expect(rows).toEqual([{ inputs: stored }]);
  });
});
