import { describe, expect, it } from 'vitest';
import { dayHeading, localDay } from './noticeDays.ts';

describe('notice days', () => {
  const noon = (day: string) => new Date(`${day}T12:00:00`).getTime();

  it('heads today and yesterday by name, other days by date', () => {
    const now = noon('2027-01-06');
    expect(dayHeading('2027-01-06', now)).toBe('today');
    expect(dayHeading('2027-01-05', now)).toBe('yesterday');
    expect(dayHeading('2027-01-04', now)).toBeNull();
    expect(dayHeading('2027-01-07', now)).toBeNull();
  });

  it('counts across a month and a year', () => {
    expect(dayHeading('2026-12-31', noon('2027-01-01'))).toBe('yesterday');
    expect(dayHeading('2027-02-28', noon('2027-03-01'))).toBe('yesterday');
  });

  it('puts a moment on its local calendar day', () => {
    expect(localDay(new Date(2027, 0, 6, 0, 0, 1).getTime())).toBe('2027-01-06');
    expect(localDay(new Date(2027, 0, 5, 23, 59, 59).getTime())).toBe('2027-01-05');
  });
});
