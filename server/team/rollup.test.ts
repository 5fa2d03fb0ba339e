import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OrderStatus } from '../../contract/products.ts';
import { loadConfig } from '../config.ts';
import { DATABASES, startTestApp, type TestApp } from '../test/harness.ts';
import { refreshTeamStats } from './settle.ts';

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

async function figuresStored(t: TestApp) {
  const { rows } = await sql<{ user_id: string; active: string; team_quantity: string; team_count: number; direct_count: number; effective: boolean; level: number }>`
    select user_id::text, active::text, team_quantity::text, team_count, direct_count, effective, level
    from team_stats order by user_id`.execute(t.ctx.db);
  return rows;
}

const HELD: OrderStatus[] = ['confirming', 'in_progress', 'reinvested', 'redeemable'];
const STATUSES: OrderStatus[] = [...HELD, 'redeemed', 'ended', 'redemption_successful'];

/** A random forest: each member hangs under an earlier one (or starts a tree), some deep chains. */
const forest = fc.array(
  fc.record({
    parent: fc.option(fc.nat(), { nil: null, freq: 4 }),
    chain: fc.boolean(),
    orders: fc.array(fc.record({ units: fc.integer({ min: 1, max: 3_000_000 }), status: fc.constantFrom(...STATUSES) }), { maxLength: 3 }),
  }),
  { minLength: 1, maxLength: 60 },
);

describe.each(DATABASES)('team figures rolled up the tree on %s', (kind) => {
  let t: TestApp;
  let nextId = 1000;
  beforeAll(async () => {
    t = await startTestApp(kind, { seed: false });
  });
  afterAll(async () => {
    await t.close();
  });

  it('equal the path-by-path computation, member by member, over random forests', async () => {
    await fc.assert(
      fc.asyncProperty(forest, async (spec) => {
        // Each run adds a new forest next to the earlier ones: the figures cover all of them.
        const ids: bigint[] = [];
        const paths: bigint[][] = [];
        for (const [i, member] of spec.entries()) {
          const id = BigInt(nextId++);
          const parentIndex = i === 0 || member.parent === null ? null : member.chain ? i - 1 : member.parent % i;
          const path = parentIndex === null ? [] : [...(paths[parentIndex] as bigint[]), ids[parentIndex] as bigint];
          ids.push(id);
          paths.push(path);
          await sql`insert into users (id, subject, name, invite_code, inviter_id, path)
            values (${id}, ${`r-${id}`}, ${`r ${id}`}, ${`R${id}`}, ${path.at(-1) ?? null}, ${path}::bigint[])`.execute(t.ctx.db);
          for (const order of member.orders) {
            await sql`insert into orders (user_id, product, principal, power, coefficient, status, start_day, created_at, matures_day)
              values (${id}, 'reinvest360', ${BigInt(order.units) * 1_000_000n}, 0, '1.00000000', ${order.status},
                ${DAY}::date, now(), '2027-12-31')`.execute(t.ctx.db);
          }
        }
        await t.ctx.db.transaction().execute((trx) => refreshTeamStats(trx, DAY, team));
        expect(await figuresStored(t)).toEqual(await figuresByPaths(t));
      }),
      { numRuns: kind === 'pglite' ? 40 : 25 },
    );
  });
});
