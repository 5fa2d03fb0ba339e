import { sql } from 'kysely';
import { readFunction } from '../db/readFunction.ts';

/**
 * `order_page(user, products, status, from, to, before, limit)`: a holder's orders, newest first,
 * of the products named (a comma-separated list), with the status and the creation time in
 * [from, to) when given, with ids below `before`: the order lists' page (earn/repository.ts,
 * `listOrders`), gathered for the holders asking at once (platform/readCalls.ts).
 *
 * Code, not schema: `migrateToLatest` defines it on every start (server/sqlFunctions.ts).
 */
export const ORDER_PAGE = readFunction(
  sql`order_page(p_user bigint, p_products text, p_status text, p_from timestamptz, p_to timestamptz, p_before bigint, p_limit int)
    returns table (id bigint, user_id bigint, product text, principal bigint, income bigint, power bigint, coefficient text,
      status text, reinvest boolean, start_day date, created_at timestamptz, cycle_start timestamptz, cycles_paid int,
      matures_day date, auto_renew boolean, renewed_from bigint, renewed_to bigint)`,
  sql`
    select o.id, o.user_id, o.product, o.principal, o.income, o.power, o.coefficient, o.status, o.reinvest, o.start_day,
      o.created_at, o.cycle_start, o.cycles_paid, o.matures_day, o.auto_renew, o.renewed_from, o.renewed_to
    from orders o
    where o.user_id = p_user and o.id < p_before
      and o.product = any(string_to_array(p_products, ','))
      and (p_status is null or o.status = p_status)
      and (p_from is null or o.created_at >= p_from)
      and (p_to is null or o.created_at < p_to)
    order by o.id desc
    limit p_limit`,
);
