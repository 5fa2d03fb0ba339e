import type { TransferType } from '../../../../contract/wallet.ts';
import type { RecordsFilter } from '../../api/wallet.ts';
import { endOfDayIso, startOfDayIso } from '../../lib/time.ts';

/** The records filter as chosen: a type or all, and local start and end days (inclusive). */
export type FilterValue = { type: TransferType | 'all'; start: Date | null; end: Date | null };

export const NO_FILTER: FilterValue = { type: 'all', start: null, end: null };

export const isFiltered = (value: FilterValue): boolean =>
  value.type !== 'all' || value.start !== null || value.end !== null;

/** The query sent: the end day is included, so "to" is the start of the day after it. */
export function toQuery(value: FilterValue): RecordsFilter {
  const query: RecordsFilter = {};
  if (value.type !== 'all') query.type = value.type;
  if (value.start) query.from = startOfDayIso(value.start);
  if (value.end) query.to = endOfDayIso(value.end);
  return query;
}
