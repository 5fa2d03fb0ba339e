import { type RawBuilder, sql } from 'kysely';
import { STATUS_GROUPS, type StatusGroup } from '../../contract/products.ts';

const list = (group: StatusGroup): RawBuilder<unknown> =>
  // The statuses are the registry's own constants, never input: safe to write into the SQL.
  sql.raw(`(${STATUS_GROUPS[group].map((status) => `'${status}'`).join(', ')})`);

/**
 * The named status groups of contract/products.ts as SQL lists, for `status in ${ORDERS.held}`:
 * no query spells a status list of its own.
 */
export const ORDERS = {
  active: list('active'),
  held: list('held'),
  earning: list('earning'),
} as const satisfies Record<StatusGroup, RawBuilder<unknown>>;
