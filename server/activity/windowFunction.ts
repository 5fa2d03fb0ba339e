import { sql } from 'kysely';
import { readFunction } from '../db/readFunction.ts';
import { ORDERS } from '../db/statuses.ts';

/**
 * `window_performance(user, from, to)`: what the holder and their team did inside [from, to), one
 * row (activity/repository.ts, `windowPerformance`): the holder's own subscriptions of the window
 * still held, now; and the team's window figures as of the last settled day, rolled up as the day
 * settles (team_roll_up, team/functions.ts) into one row of team_stats. A function so that each
 * connection plans it once, and the activity pages asked at once are one statement
 * (platform/readCalls.ts).
 *
 * Code, not schema: `migrateToLatest` defines it on every start (server/sqlFunctions.ts).
 */
export const WINDOW_PERFORMANCE = readFunction(
  sql`window_performance(p_user bigint, p_from timestamptz, p_to timestamptz)
    returns table (own_subscribed bigint, direct_invites bigint, direct_effective bigint, new_members bigint,
      new_effective bigint, quantity_added bigint, team_as_of text)`,
  sql`
    select
      (select coalesce(sum(o.principal), 0) from orders o
        where o.user_id = p_user and o.status in ${ORDERS.held} and o.created_at >= p_from and o.created_at < p_to)::bigint,
      ts.window_direct, ts.window_direct_effective, ts.window_members, ts.window_effective, ts.window_quantity, (select t.day::text from team_stats t limit 1)
    from (select 1) one left join team_stats ts on ts.user_id = p_user`,
);
