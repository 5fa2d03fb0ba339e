import { describe, expect, it } from 'vitest';
import { isFiltered, noFilter, rangeQuery } from './rangeFilter.ts';

describe('range filter', () => {
  it('sends nothing when nothing is chosen', () => {
    expect(isFiltered(noFilter())).toBe(false);
    expect(rangeQuery(noFilter(), 'type')).toEqual({});
  });

  it('sends the choice under its key and the days as a half-open range', () => {
    const start = new Date(2026, 10, 3, 15, 0);
    const end = new Date(2026, 10, 5, 9, 30);
    const query = rangeQuery({ choice: 'withdraw', start, end }, 'type');
    expect(query.type).toBe('withdraw');
    expect(new Date(query.from as string).getTime()).toBe(new Date(2026, 10, 3).getTime());
    expect(new Date(query.to as string).getTime()).toBe(new Date(2026, 10, 6).getTime());
    expect(isFiltered({ choice: 'all', start: null, end })).toBe(true);
  });
});
