import { sql } from 'kysely';
import { pageFunction, readFunction } from '../db/readFunction.ts';
import { ORDERS, productsIn } from '../db/statuses.ts';
import { epochMs, json } from '../db/wireText.ts';

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

/**
 * `order_items(user, products, status, from, to, before, limit, now)`: the page of `order_page`
 * as the order lists send it (`pageFunction`): the orders in the wire's shape (earn/repository.ts,
 * `toOrder`, with the countdowns at `now`) and the next page's cursor. orderItems.test.ts holds
 * the two to each other.
 */
export const ORDER_ITEMS = pageFunction(
  sql`order_items(p_user bigint, p_products text, p_status text, p_from timestamptz, p_to timestamptz, p_before bigint, p_limit int,
      p_now timestamptz)`,
  {
    rows: sql`order_page(p_user, p_products, p_status, p_from, p_to, p_before, p_limit + 1)`,
    lateral: sql`
      select case
        when r.product in ${productsIn('flexible')} and r.status in ${ORDERS.active} and r.cycle_start is not null
          then greatest(0, (${epochMs('r.cycle_start')} + (r.cycles_paid + 1) * 86400000::bigint - ${epochMs('p_now')} + 999) / 1000)
        when r.matures_day is not null and r.status in ${ORDERS.active}
          then greatest(0, ((r.matures_day - date '1970-01-01')::bigint * 86400000 - ${epochMs('p_now')} + 999) / 1000)
      end as countdown`,
    item: json.object({
      id: json.text('r.id::text'),
      product: json.text('r.product'),
      quantity: json.units('r.principal'),
      income: json.units('r.income'),
      redeemable: json.units(sql`case
        when (r.product in ${productsIn('flexible')} and r.status in ${ORDERS.active})
          or (r.product in ${productsIn('fixed')} and r.status = 'redeemable') then r.principal + r.income
        else 0 end`),
      status: json.text('r.status'),
      reinvest: json.plain('r.reinvest'),
      autoRenew: json.plain('r.auto_renew'),
      renewedFrom: json.text('r.renewed_from::text'),
      renewedTo: json.text('r.renewed_to::text'),
      createdAt: json.moment('r.created_at'),
      startDay: json.day('r.start_day'),
      maturesDay: json.day('r.matures_day'),
      remainingDays: json.when(sql`r.matures_day is not null`, json.plain('x.countdown / 86400')),
      countdownSeconds: json.plain('x.countdown'),
      dates: json.when(
        sql`r.matures_day is not null`,
        json.object({ valueDay: json.day('r.start_day'), maturesDay: json.day('r.matures_day'), principalReturnDay: json.day('r.matures_day') }),
      ),
      power: json.when(sql`r.product in ${productsIn('pool')}`, json.units('r.power')),
      coefficient: json.text('r.coefficient'),
    }),
    cursor: sql`r.id::text`,
  },
);
