import { sql } from 'kysely';
import { readFunction } from '../db/readFunction.ts';
import { ORDERS, productsIn } from '../db/statuses.ts';

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

/** An amount of 1e-8 units as the wire's decimal text (contract/money.ts, `formatUnits`). */
const units = (column: string) => sql.raw(`trim_scale(${column}::numeric / 100000000)::text`);
/** A moment's milliseconds since 1970, as a JavaScript Date holds it (truncated to the millisecond). */
const epochMs = (moment: string) => sql.raw(`floor(extract(epoch from ${moment}) * 1000)::bigint`);
const day = (column: string) => sql.raw(`to_char(${column}, 'YYYY-MM-DD')`);

/**
 * `order_items(user, products, status, from, to, before, limit, now)`: the page of `order_page`
 * as the order lists send it: the orders as JSON text in the wire's shape (earn/repository.ts,
 * `toOrder`, with the countdowns at `now`), and the next page's cursor (null on the last page).
 * The lists pass the text through: parsing each order's row and writing it again cost more than
 * the read (earn/orderItems.test.ts holds the two to each other).
 */
export const ORDER_ITEMS = readFunction(
  sql`order_items(p_user bigint, p_products text, p_status text, p_from timestamptz, p_to timestamptz, p_before bigint, p_limit int,
      p_now timestamptz) returns table (items text, next_cursor bigint)`,
  sql`
    with page as (
      select o.*, row_number() over (order by o.id desc) as n,
        case
          when o.product in ${productsIn('flexible')} and o.status in ${ORDERS.active} and o.cycle_start is not null
            then greatest(0, (${epochMs('o.cycle_start')} + (o.cycles_paid + 1) * 86400000::bigint - ${epochMs('p_now')} + 999) / 1000)
          when o.matures_day is not null and o.status in ${ORDERS.active}
            then greatest(0, ((o.matures_day - date '1970-01-01')::bigint * 86400000 - ${epochMs('p_now')} + 999) / 1000)
        end as countdown
      from order_page(p_user, p_products, p_status, p_from, p_to, p_before, p_limit + 1) o
    )
    select coalesce(json_agg(json_build_object(
        'id', p.id::text,
        'product', p.product,
        'quantity', ${units('p.principal')},
        'income', ${units('p.income')},
        'redeemable', case
          when (p.product in ${productsIn('flexible')} and p.status in ${ORDERS.active})
            or (p.product in ${productsIn('fixed')} and p.status = 'redeemable') then ${units('(p.principal + p.income)')}
          else '0' end,
        'status', p.status,
        'reinvest', p.reinvest,
        'autoRenew', p.auto_renew,
        'renewedFrom', p.renewed_from::text,
        'renewedTo', p.renewed_to::text,
        'createdAt', to_char(p.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
        'startDay', ${day('p.start_day')},
        'maturesDay', ${day('p.matures_day')},
        'remainingDays', case when p.matures_day is not null then p.countdown / 86400 end,
        'countdownSeconds', p.countdown,
        'dates', case when p.matures_day is not null then json_build_object(
          'valueDay', ${day('p.start_day')}, 'maturesDay', ${day('p.matures_day')}, 'principalReturnDay', ${day('p.matures_day')}) end,
        'power', case when p.product in ${productsIn('pool')} then ${units('p.power')} end,
        'coefficient', p.coefficient
      ) order by p.id desc) filter (where p.n <= p_limit), '[]')::text,
      case when count(*) > p_limit then min(p.id) filter (where p.n <= p_limit) end
    from page p`,
);
