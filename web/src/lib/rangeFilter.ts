import { endOfDayIso, startOfDayIso } from './time.ts';

/** A list filter as chosen: one choice or all, and local start and end days (inclusive). */
export type RangeFilter<T extends string> = { choice: T | 'all'; start: Date | null; end: Date | null };

export const noFilter = <T extends string>(): RangeFilter<T> => ({ choice: 'all', start: null, end: null });

export const isFiltered = <T extends string>(value: RangeFilter<T>): boolean =>
  value.choice !== 'all' || value.start !== null || value.end !== null;

/** The query sent: the choice under `key`; the end day is included, so "to" is the next day's start. */
export function rangeQuery<T extends string, K extends string>(
  value: RangeFilter<T>,
  key: K,
): Partial<Record<K, T>> & { from?: string; to?: string } {
  const query: Partial<Record<K, T>> & { from?: string; to?: string } = {};
  if (value.choice !== 'all') (query as Record<K, T>)[key] = value.choice;
  if (value.start) query.from = startOfDayIso(value.start);
  if (value.end) query.to = endOfDayIso(value.end);
  return query;
}
