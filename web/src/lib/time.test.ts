import { describe, expect, it } from 'vitest';
import { endOfDayIso, formatDate, formatDateTime, startOfDayIso } from './time.ts';

describe('records filter dates', () => {
  it('turns a picked day into a local [start, next start) range in UTC', () => {
    const day = new Date(2024, 4, 31, 15, 30);
    expect(new Date(startOfDayIso(day)).getTime()).toBe(new Date(2024, 4, 31).getTime());
    expect(new Date(endOfDayIso(day)).getTime()).toBe(new Date(2024, 5, 1).getTime());
    expect(startOfDayIso(day)).toMatch(/Z$/);
  });

  it('shows dates and times in local time', () => {
    expect(formatDate(new Date(2024, 0, 5))).toBe('2024-01-05');
    const local = new Date(2024, 0, 5, 7, 8, 9);
    expect(formatDateTime(local.toISOString())).toBe('2024-01-05 07:08:09');
    expect(formatDateTime('not a date')).toBe('not a date');
  });
});
