import { sql } from 'kysely';
import { readFunction } from '../db/readFunction.ts';
import { ORDERS } from '../db/statuses.ts';

/**
 * `zero_profit(user)`: the network income summary's figures in one row (team/repository.ts,
 * `zeroProfit`): the claimable and locked balances, what the holder holds in orders now (the
 * unlock tiers look at this), and the lock-ups not yet released (their total, and the next day's).
 * A function so that each connection plans it once, and the summaries asked at once are one
 * statement (platform/readCalls.ts).
 *
 * Code, not schema: `migrateToLatest` defines it on every start (server/sqlFunctions.ts).
 */
export const ZERO_PROFIT = readFunction(
  sql`zero_profit(p_user bigint)
    returns table (network bigint, locked bigint, holding bigint, total bigint, next_day text, next_amount bigint)`,
  sql`
    select
      (select a.balance from accounts a where a.user_id = p_user and a.asset = 'AIC' and a.kind = 'network_rewards'),
      (select a.balance from accounts a where a.user_id = p_user and a.asset = 'AIC' and a.kind = 'locked_rewards'),
      (select coalesce(sum(o.principal), 0) from orders o where o.user_id = p_user and o.status in ${ORDERS.held})::bigint,
      coalesce(sum(l.unlockable), 0)::bigint, min(l.unlock_day)::text,
      (select sum(l2.unlockable) from lockups l2 where l2.user_id = p_user and l2.released_on is null
        and l2.unlock_day = (select min(l3.unlock_day) from lockups l3 where l3.user_id = p_user and l3.released_on is null))::bigint
    from lockups l where l.user_id = p_user and l.released_on is null`,
);
