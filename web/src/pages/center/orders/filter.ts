import type { Product } from '../../../../../contract/earn.ts';
import type { OrderQuery } from '../../../api/earn.ts';
import { endOfDayIso, startOfDayIso } from '../../../lib/time.ts';

/** The order filter as chosen: a product or all, and local start and end days (inclusive). */
export type OrderFilterValue = { product: Product | 'all'; start: Date | null; end: Date | null };

export const NO_ORDER_FILTER: OrderFilterValue = { product: 'all', start: null, end: null };

export const isFiltered = (value: OrderFilterValue): boolean =>
  value.product !== 'all' || value.start !== null || value.end !== null;

/** The query sent: the end day is included, so "to" is the start of the day after it. */
export function toOrderQuery(value: OrderFilterValue): OrderQuery {
  const query: OrderQuery = {};
  if (value.product !== 'all') query.product = value.product;
  if (value.start) query.from = startOfDayIso(value.start);
  if (value.end) query.to = endOfDayIso(value.end);
  return query;
}
