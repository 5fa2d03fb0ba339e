import { sql } from 'kysely';
import type { Db } from '../server/db/connect.ts';

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
  await sql`with e as (insert into journal_entries (kind, ref) values ('bench', 'bench') returning id),
    per_user as (select user_id, sum(principal)::bigint as amount from orders group by user_id),
    total as (select sum(amount)::bigint as amount from per_user),
    p as (insert into postings (entry_id, user_id, asset, kind, amount)
      select e.id, user_id, 'AIC', 'earning', amount from e, per_user
      union all select e.id, 0, 'AIC', 'exchange', -(total.amount + 2000000000000000) from e, total
      union all select e.id, 0, 'AIC', 'treasury', 1000000000000000 from e
      union all select e.id, 0, 'AIC', 'supercomputing_pool', 1000000000000000 from e)
    insert into accounts (user_id, asset, kind, balance, allow_negative)
      select user_id, 'AIC', 'earning', amount, false from per_user
      union all select 0, 'AIC', 'exchange', -(total.amount + 2000000000000000), true from total
      union all select 0, 'AIC', 'treasury', 1000000000000000, false
      union all select 0, 'AIC', 'supercomputing_pool', 1000000000000000, false`.execute(db);
  await sql`analyze`.execute(db);
}
