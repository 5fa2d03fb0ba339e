import { type RawBuilder, sql } from 'kysely';
import type { ProductKind } from '../../contract/productRegistry.ts';
import { productsOfKind, STATUS_GROUPS, type StatusGroup } from '../../contract/products.ts';

// The statuses and product names are the registry's own constants, never input: safe to write
// into the SQL (as literals, so the planner matches the partial index on active orders).
const quoted = (values: readonly string[]): RawBuilder<unknown> => sql.raw(`(${values.map((v) => `'${v}'`).join(', ')})`);
const list = (group: StatusGroup) => quoted(STATUS_GROUPS[group]);

/** The registry's products of a kind as an SQL list, for `product in ${productsIn('fixed')}`. */
export const productsIn = (kind: ProductKind): RawBuilder<unknown> => quoted(productsOfKind(kind));

/**
 * The named status groups of contract/products.ts as SQL lists, for `status in ${ORDERS.held}`:
 * no query spells a status list of its own.
 */
export const ORDERS = {
  active: list('active'),
  held: list('held'),
  earning: list('earning'),
} as const satisfies Record<StatusGroup, RawBuilder<unknown>>;

/**
 * The orders of a kind of product that run on `day`: active, started, not yet matured. What the
 * day's fixed accrual pays and the pool's output is shared among.
 */
export const runningOn = (kind: ProductKind, day: string): RawBuilder<unknown> =>
  sql`product in ${productsIn(kind)} and status in ${ORDERS.active} and start_day <= ${day}::date and ${day}::date < matures_day`;
