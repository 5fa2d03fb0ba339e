import { sql } from 'kysely';
import { OWNED_KINDS } from '../../contract/owned.ts';
import { readFunction } from '../db/readFunction.ts';
import { ORDERS, productsIn } from '../db/statuses.ts';

/** Each owned account of the holders (contract/owned.ts) as a line of `holder_holdings`' first kind. */
const accountLines = sql`
    select a.user_id, a.asset, a.kind, null::text, a.balance, 0::bigint, 0::bigint, 0::bigint, 0::bigint
    from accounts a
    where a.user_id = any(p_users) and a.kind in (${sql.join(OWNED_KINDS.map((kind) => sql.lit(kind)))})`;

/** The columns of a line of either function. */
const LINE_COLUMNS = sql`user_id bigint, asset text, kind text, product text, amount bigint, income bigint, running bigint, matured bigint,
      power bigint`;

/**
 * `holder_holdings(users)`: what each of several holders holds (earn/positions.ts, `holdingsOf`), as
 * lines of two kinds:
 * - an account's (`product` null): its asset, its kind (each account the holder owns,
 *   contract/owned.ts) and its balance (`amount`);
 * - a product's (`asset` and `kind` null): the principal (`amount`) and income of the holder's
 *   orders of it still held; the AIC the running ones hold (`running`: a pool order's income was
 *   paid out, or reinvested into its principal; the others' is in the order); and the matured
 *   fixed orders waiting to be redeemed, principal and income (`matured`); and the computing
 *   power of its earning orders (`power`: the 360-day product's; none for the others).
 * A holder of nothing has no line. Read by the positions and Earn screens, gathered for the
 * holders asking at once (one statement for all of them); the wallet reads the account lines
 * alone (`holder_accounts`, below).
 *
 * A function so that each connection plans it once (`readFunction`): sent as a statement it was
 * planned at every call, and its planning cost more than its key lookups.
 *
 * Code, not schema: `migrateToLatest` defines it on every start (server/sqlFunctions.ts). It
 * took over from `holdings_of`, which a release running beside this one still calls: that one
 * stays in the database, no longer defined here (its answer lacked `power`).
 */
export const HOLDER_HOLDINGS = readFunction(
  sql`holder_holdings(p_users bigint[]) returns table (${LINE_COLUMNS})`,
  sql`
    ${accountLines}
    union all
    select o.user_id, null, null, o.product, sum(o.principal)::bigint, sum(o.income)::bigint,
      coalesce(sum(case when o.product in ${productsIn('pool')} then o.principal else o.principal + o.income end)
        filter (where o.status in ${ORDERS.active}), 0)::bigint,
      coalesce(sum(o.principal + o.income)
        filter (where o.product in ${productsIn('fixed')} and o.status = 'redeemable'), 0)::bigint,
      coalesce(sum(o.power) filter (where o.status in ${ORDERS.earning}), 0)::bigint
    from orders o
    where o.user_id = any(p_users) and o.status in ${ORDERS.held}
    group by o.user_id, o.product`,
);

/**
 * `holder_accounts(users)`: the account lines of `holder_holdings` alone, for the wallet: its
 * figures are the books' (the earning account holds what the orders hold, which the reliability
 * suite checks), so its read does not grow with the holder's orders.
 */
export const HOLDER_ACCOUNTS = readFunction(sql`holder_accounts(p_users bigint[]) returns table (${LINE_COLUMNS})`, accountLines);
