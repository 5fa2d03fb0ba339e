import { sql } from 'kysely';
import { readFunction } from '../db/readFunction.ts';
import { ORDERS, productsIn } from '../db/statuses.ts';

/**
 * `holdings_of(user)`: a holder's earn figures (earn/positions.ts, `holdingsOf`): per product,
 * principal and income of the orders still held, and the AIC the running ones hold (`running`: a
 * pool order's income was paid out, or reinvested into its principal; the others' is in the
 * order); and what can be claimed now, on every row (on the one row of nulls for a holder of no
 * order). Read by the wallet on every open, the positions and the Earn screens.
 *
 * A function so that each connection plans it once (`readFunction`): sent as a statement it was
 * planned at every call, and its planning cost more than its key lookups.
 *
 * Code, not schema: `migrateToLatest` defines it on every start (server/sqlFunctions.ts).
 */
export const HOLDINGS_OF = readFunction(
  sql`holdings_of(p_user bigint)
    returns table (rewards bigint, network bigint, fixed bigint, product text, principal bigint, income bigint, running bigint)`,
  sql`
    select c.rewards, c.network, c.fixed, p.product, p.principal, p.income, p.running
    from (
      select
        (select coalesce(sum(a.balance), 0) from accounts a
          where a.user_id = p_user and a.asset = 'AIC' and a.kind = 'rewards')::bigint as rewards,
        (select coalesce(sum(a.balance), 0) from accounts a
          where a.user_id = p_user and a.asset = 'AIC' and a.kind = 'network_rewards')::bigint as network,
        (select coalesce(sum(o.principal + o.income), 0) from orders o
          where o.user_id = p_user and o.product in ${productsIn('fixed')} and o.status = 'redeemable')::bigint as fixed
    ) c
    left join (
      select o.product, coalesce(sum(o.principal), 0)::bigint as principal, coalesce(sum(o.income), 0)::bigint as income,
        coalesce(sum(case when o.product in ${productsIn('pool')} then o.principal else o.principal + o.income end)
          filter (where o.status in ${ORDERS.active}), 0)::bigint as running
      from orders o where o.user_id = p_user and o.status in ${ORDERS.held}
      group by o.product
    ) p on true`,
);
