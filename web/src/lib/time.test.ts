import { describe, expect, it } from 'vitest';
import { endOfDayIso, startOfDayIso } from './time.ts';

describe('records filter dates', () => {
  it('turns a picked day into a local [start, next start) range in UTC', () => {
    const day = new Date(2024, 4, 31, 15, 30);
    expect(new Date(startOfDayIso(day)).getTime()).toBe(new Date(2024, 4, 31).getTime());
    expect(new Date(endOfDayIso(day)).getTime()).toBe(new Date(2024, 5, 1).getTime());
    expect(startOfDayIso(day)).toMatch(/Z$/);
  });
});
