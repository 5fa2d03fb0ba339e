import { sql } from 'kysely';
import type { Db } from '../server/db/connect.ts';
import { postBatch } from '../server/ledger/batch.ts';

/** What the treasury and the pool each start with: 10,000,000 AIC. */
const FUNDING = 1_000_000_000_000_000n;

/**
 * The benches' orders: `orders` of them spread over users 1..`users` (order i belongs to user
 * 1 + i mod users), 40% 30-day, 40% 360-day of which half reinvest, 20% current with a cycle
 * that has finished by the settled day; their principal in the users' earning accounts, and
 * money in the treasury and the pool. Then the statistics, as a live database would have them.
 */
export async function insertOrdersAndFund(db: Db, orders: number, users: number): Promise<void> {
  await sql`insert into orders (user_id, product, principal, power, coefficient, status, reinvest, start_day,
      created_at, cycle_start, matures_day)
    select 1 + (i % ${users}),
      case when i % 5 < 2 then 'fixed30' when i % 5 < 4 then 'reinvest360' else 'current' end,
      (100 + (i % 1000)) * 100000000::bigint,
      case when i % 5 in (2, 3) then 5 * (100 + (i % 1000)) * 100000000::bigint else 0 end,
      case when i % 5 in (2, 3) then '1.00000000' end,
      'in_progress', i % 5 = 3, '2026-11-02', '2026-11-01T08:00:00Z',
      case when i % 5 = 4 then '2026-11-09T20:00:00Z'::timestamptz end,
      case when i % 5 < 2 then '2026-12-02'::date when i % 5 < 4 then '2027-10-28'::date end
    from generate_series(1, ${orders}) i`.execute(db);
  // Through the ledger's batch form, dated with the orders, so the accounts carry their month
  // figures as a live platform's do (ledger/balances.ts).
  await postBatch(db, {
    kind: 'bench',
    ref: 'bench',
    at: new Date('2026-11-01T08:00:00Z'),
    lines: sql`select user_id, 'earning' as kind, sum(principal)::bigint as amount from orders group by user_id
      union all select 0, 'exchange', -(coalesce(sum(principal), 0) + ${2n * FUNDING}::bigint) from orders
      union all select 0, 'treasury', ${FUNDING}::bigint
      union all select 0, 'supercomputing_pool', ${FUNDING}::bigint`,
  });
  await sql`analyze`.execute(db);
}
