import fc from 'fast-check';
import { type Kysely, sql, type Transaction } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OrderStatus } from '../../contract/products.ts';
import { parseRate } from '../../contract/money.ts';
import type { TeamRules } from '../../contract/teamRules.ts';
import { loadConfig } from '../config.ts';
import { postEntry, SYSTEM } from '../ledger/ledger.ts';
import type { Database } from '../db/schema.ts';
import { lineInputs } from '../income/inputs.ts';
import { DATABASES, startTestApp, type TestApp } from '../test/harness.ts';
import { payRebates, payRebatesPart, refreshTeamStats, stageRebates } from './settle.ts';

const DAY = '2026-11-10';
const team = loadConfig({}).team;
const UNIT = 100_000_000n;

/**
 * The team figures as computed before the roll-up: every member's whole ancestor path unnested
 * (O(members × depth)). Kept here as the oracle of `refreshTeamStats`.
 */
async function figuresByPaths(t: TestApp) {
  const { rows } = await sql<{ user_id: string; active: string; team_quantity: string; team_count: number; direct_count: number; effective: boolean; level: number }>`
    with own as (
      select user_id, sum(principal)::bigint as active from orders
      where status in ('confirming', 'in_progress', 'reinvested', 'redeemable') group by user_id
    ),
    tm as (
      select a.ancestor as user_id, coalesce(sum(o.active), 0)::bigint as quantity, count(*)::int as members
      from users u cross join unnest(u.path) as a(ancestor)
      left join own o on o.user_id = u.id
      group by a.ancestor
    ),
    direct as (select inviter_id as user_id, count(*)::int as n from users where inviter_id is not null group by inviter_id)
    select u.id::text as user_id, coalesce(o.active, 0)::text as active, coalesce(t.quantity, 0)::text as team_quantity,
      coalesce(t.members, 0) as team_count, coalesce(d.n, 0) as direct_count,
      coalesce(o.active, 0) >= ${10n * UNIT}::bigint as effective,
      (select count(*)::int from unnest(${team.levelThresholds.map((x) => BigInt(x) * UNIT)}::bigint[]) th(v) where coalesce(t.quantity, 0) >= th.v) as level
    from users u
    left join own o on o.user_id = u.id
    left join tm t on t.user_id = u.id
    left join direct d on d.user_id = u.id
    where o.user_id is not null or t.user_id is not null or d.user_id is not null
    order by u.id`.execute(t.ctx.db);
  return rows;
}

/** The recruitment window the figures are rolled up for, and moments around its edges. */
const WINDOW = { from: new Date('2026-11-01T00:00:00Z'), to: new Date('2026-11-11T00:00:00Z') };
const MOMENTS = [null, '2026-10-31T23:59:59.999Z', '2026-11-01T00:00:00Z', '2026-11-05T12:00:00Z', '2026-11-10T23:59:59.999Z', '2026-11-11T00:00:00Z'];

/**
 * What each listed member's downline did inside the window, as the activity page computed it per
 * request before the roll-up kept it: the downline walked by path, effective from team_stats.
 * The oracle of the roll-up's window columns.
 */
async function windowByPaths(t: TestApp) {
  const { rows } = await sql<WindowRow>`
    select ts.user_id::text as user_id,
      (select count(*)::int from users d where d.inviter_id = ts.user_id
        and d.bound_at >= ${WINDOW.from} and d.bound_at < ${WINDOW.to}) as direct,
      (select count(*)::int from users d join team_stats e on e.user_id = d.id and e.effective
        where d.inviter_id = ts.user_id and d.bound_at >= ${WINDOW.from} and d.bound_at < ${WINDOW.to}) as direct_effective,
      (select count(*)::int from users d where d.path @> array[ts.user_id]
        and d.bound_at >= ${WINDOW.from} and d.bound_at < ${WINDOW.to}) as members,
      (select count(*)::int from users d join team_stats e on e.user_id = d.id and e.effective
        where d.path @> array[ts.user_id] and d.bound_at >= ${WINDOW.from} and d.bound_at < ${WINDOW.to}) as effective,
      (select coalesce(sum(o.principal), 0)::text from orders o join users d on d.id = o.user_id
        where d.path @> array[ts.user_id] and o.status in ('confirming', 'in_progress', 'reinvested', 'redeemable')
          and o.created_at >= ${WINDOW.from} and o.created_at < ${WINDOW.to}) as quantity
    from team_stats ts order by ts.user_id`.execute(t.ctx.db);
  return rows;
}

type WindowRow = { user_id: string; direct: number; direct_effective: number; members: number; effective: number; quantity: string };

async function windowStored(t: TestApp) {
  const { rows } = await sql<WindowRow>`
    select user_id::text, window_direct::int as direct, window_direct_effective::int as direct_effective,
      window_members::int as members, window_effective::int as effective, window_quantity::text as quantity
    from team_stats order by user_id`.execute(t.ctx.db);
  return rows;
}

async function figuresStored(t: TestApp) {
  const { rows } = await sql<{ user_id: string; active: string; team_quantity: string; team_count: number; direct_count: number; effective: boolean; level: number }>`
    select user_id::text, active::text, team_quantity::text, team_count, direct_count, effective, level
    from team_stats order by user_id`.execute(t.ctx.db);
  return rows;
}

/**
 * The rebates as computed before the top-down uplines: every earner's whole path unnested and
 * its effective ancestors numbered (O(earners × depth)). The oracle of `payRebates`.
 */
async function rebatesByPaths(trx: Transaction<Database>, rules: TeamRules = team) {
  const rates = rules.rebateRates.map((rate, i) => {
    const { numerator, denominator } = parseRate(rate);
    return `when ${i + 1} then div(e.amount::numeric * ${numerator}, ${denominator})`;
  });
  const rateText = rules.rebateRates.map((rate, i) => `when ${i + 1} then '${rate.trim()}'`);
  const { rows } = await sql<RebateRow>`
    with source as (
      select i.user_id as earner, i.order_id, i.amount, u.path
      from income i join users u on u.id = i.user_id
      where i.day = ${DAY}::date and i.kind = 'static' and i.amount > 0 and cardinality(u.path) > 0
    ),
    ancestors as (
      select s.earner, s.order_id, s.amount, a.ancestor, a.pos, coalesce(s.path[a.pos + 1], s.earner) as branch
      from source s cross join unnest(s.path) with ordinality as a(ancestor, pos)
      where a.ancestor <> s.earner
    ),
    effective as (
      select x.*, ts.level, row_number() over (partition by x.earner, x.order_id order by x.pos desc) as generation
      from ancestors x join team_stats ts on ts.user_id = x.ancestor and ts.effective
    )
    select e.ancestor::text as user_id, e.order_id::text as order_id,
      (case e.generation ${sql.raw(rates.join(' '))} else 0 end)::bigint::text as amount,
      jsonb_build_object('generation', e.generation, 'level', e.level, 'source', e.amount::text,
        'rate', case e.generation ${sql.raw(rateText.join(' '))} end,
        'earner', e.earner::text, 'branch', e.branch::text) as inputs
    from effective e
    where e.generation <= ${rules.rebateRates.length} and e.generation <= e.level
    order by 1, 2`.execute(trx);
  return rows;
}

type RebateRow = { user_id: string; order_id: string; amount: string; inputs: unknown };

async function rebatesPaid(trx: Transaction<Database>) {
  const { rows } = await sql<RebateRow>`
    select user_id::text, order_id::text, amount::text, ${lineInputs('income')} as inputs from income
    where day = ${DAY}::date and kind = 'rebate' order by 1, 2`.execute(trx);
  return rows;
}

class Rollback extends Error {}

const HELD: OrderStatus[] = ['confirming', 'in_progress', 'reinvested', 'redeemable'];
const STATUSES: OrderStatus[] = [...HELD, 'redeemed', 'ended', 'redemption_successful'];

/** A random forest: each member hangs under an earlier one (or starts a tree), some deep chains. */
const forest = fc.array(
  fc.record({
    parent: fc.option(fc.nat(), { nil: null, freq: 4 }),
    chain: fc.boolean(),
    bound: fc.constantFrom(...MOMENTS),
    orders: fc.array(
      fc.record({
        units: fc.integer({ min: 1, max: 3_000_000 }),
        status: fc.constantFrom(...STATUSES),
        created: fc.constantFrom(...MOMENTS.filter((m) => m !== null)),
      }),
      { maxLength: 3 },
    ),
  }),
  { minLength: 1, maxLength: 60 },
);
type Forest = typeof forest extends fc.Arbitrary<infer T> ? T : never;

describe.each(DATABASES)('team figures rolled up the tree on %s', (kind) => {
  let t: TestApp;
  let nextId = 1000;
  beforeAll(async () => {
    t = await startTestApp(kind, { seed: false });
    // The treasury pays the rebates.
    const funds = 1_000_000_000n * UNIT;
    await t.ctx.db.transaction().execute((trx) =>
      postEntry(trx, {
        kind: 'test_fund',
        postings: [
          { userId: SYSTEM, asset: 'AIC', kind: 'exchange', amount: -funds },
          { userId: SYSTEM, asset: 'AIC', kind: 'treasury', amount: funds },
        ],
      }),
    );
  });
  afterAll(async () => {
    await t.close();
  });

  /**
   * Adds a forest drawn by `forest` beside the earlier ones: each member under its drawn parent
   * (or a root), with its path and its orders. Answers the members' ids, in the drawn order.
   */
  async function plantForest(db: Kysely<Database> | Transaction<Database>, spec: Forest): Promise<bigint[]> {
    const ids: bigint[] = [];
    const paths: bigint[][] = [];
    for (const [i, member] of spec.entries()) {
      const id = BigInt(nextId++);
      const parentIndex = i === 0 || member.parent === null ? null : member.chain ? i - 1 : member.parent % i;
      const path = parentIndex === null ? [] : [...(paths[parentIndex] as bigint[]), ids[parentIndex] as bigint];
      ids.push(id);
      paths.push(path);
      const boundAt = path.length ? member.bound : null;
      await sql`insert into users (id, subject, name, invite_code, inviter_id, path, bound_at)
        values (${id}, ${`r-${id}`}, ${`r ${id}`}, ${`R${id}`}, ${path.at(-1) ?? null}, ${path}::bigint[], ${boundAt}::timestamptz)`.execute(db);
      for (const order of member.orders) {
        await sql`insert into orders (user_id, product, principal, power, coefficient, status, start_day, created_at, matures_day)
          values (${id}, 'reinvest360', ${BigInt(order.units) * 1_000_000n}, 0, '1.00000000', ${order.status},
            ${DAY}::date, ${order.created}::timestamptz, '2027-12-31')`.execute(db);
      }
    }
    return ids;
  }

  it('equal the path-by-path computation, member by member, over random forests, inside the window too', async () => {
    await fc.assert(
      fc.asyncProperty(forest, async (spec) => {
        // Each run adds a new forest next to the earlier ones: the figures cover all of them.
        await plantForest(t.ctx.db, spec);
        await t.ctx.db.transaction().execute((trx) => refreshTeamStats(trx, DAY, team, WINDOW));
        expect(await figuresStored(t)).toEqual(await figuresByPaths(t));
        expect(await windowStored(t)).toEqual(await windowByPaths(t));
      }),
      { numRuns: kind === 'pglite' ? 40 : 25 },
    );
  });

  /**
   * Plants a random forest with the day's static lines in a transaction, runs `pay` after the
   * day's figures, checks the rebate lines against the path-by-path walk, and rolls back.
   */
  const rebatesProperty = (pay: (trx: Transaction<Database>, rules: TeamRules) => Promise<void>, rules: TeamRules = team) =>
    fc.asyncProperty(forest, fc.array(fc.integer({ min: 0, max: 5_000_000 }), { maxLength: 60 }), async (spec, earnings) => {
      await t.ctx.db
        .transaction()
        .execute(async (trx) => {
          const ids = await plantForest(trx, spec);
          // The day's static lines: one per order of the new members, of the drawn amounts.
          await sql`
            insert into income (user_id, order_id, day, kind, amount, inputs)
            select o.user_id, o.id, ${DAY}::date, 'static', (${earnings}::bigint[])[1 + (row_number() over (order by o.id))::int % greatest(${earnings.length}, 1)], '{}'
            from orders o where o.user_id = any(${ids}::bigint[]) and ${earnings.length} > 0`.execute(trx);
          await refreshTeamStats(trx, DAY, rules, WINDOW);
          const expected = await rebatesByPaths(trx, rules);
          await pay(trx, rules);
          expect(await rebatesPaid(trx)).toEqual(expected);
          // Each receiver's lock-up of the day holds what their lines paid, however they were paid.
          const { rows } = await sql<{ n: bigint }>`
            select count(*) as n from (select user_id, sum(amount) as paid from income
              where day = ${DAY}::date and kind = 'rebate' group by user_id having sum(amount) > 0) r
            full join (select user_id, amount from lockups where day = ${DAY}::date) l using (user_id)
            where r.paid is distinct from l.amount`.execute(trx);
          expect(rows[0]?.n).toBe(0n);
          throw new Rollback();
        })
        .catch((error) => {
          if (!(error instanceof Rollback)) throw error;
        });
    });

  it('pay the same rebates as the path-by-path walk, line by line, over random forests', async () => {
    await fc.assert(
      rebatesProperty(async (trx) => {
        await payRebates(trx, DAY, team);
      }),
      { numRuns: kind === 'pglite' ? 40 : 25 },
    );
  });

  it('pay the same rebates as the path-by-path walk with one, two and seven generations', async () => {
    // The uplines keep as many places as there are rates (stageRebates writes their columns).
    const rates = ['0.10', '0.05', '0.03', '0.02', '0.01', '0.005', '0.002'];
    for (const generations of [1, 2, 7]) {
      await fc.assert(
        rebatesProperty(
          async (trx, rules) => {
            await payRebates(trx, DAY, rules);
          },
          { ...team, rebateRates: rates.slice(0, generations) },
        ),
        { numRuns: kind === 'pglite' ? 12 : 8 },
      );
    }
  });

  it('pay the same rebates in parts by receiver as in one, over random forests and part counts', async () => {
    for (const parts of [2, 3]) {
      await fc.assert(
        rebatesProperty(async (trx) => {
          await stageRebates(trx, team);
          for (let index = 0; index < parts; index++) await payRebatesPart(trx, DAY, team, { index, of: parts });
        }),
        { numRuns: kind === 'pglite' ? 20 : 12 },
      );
    }
  });
});
