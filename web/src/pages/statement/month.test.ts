import { describe, expect, it } from 'vitest';
import { monthOfPicked, pickerDate, shiftMonth } from './month.ts';

describe('statement months', () => {
  it('moves across years', () => {
    expect(shiftMonth('2026-01', -1)).toBe('2025-12');
    expect(shiftMonth('2026-12', 1)).toBe('2027-01');
    expect(shiftMonth('2026-11', 0)).toBe('2026-11');
    expect(shiftMonth('2026-03', -14)).toBe('2025-01');
  });

  it('round-trips through the picker’s local dates', () => {
    expect(monthOfPicked(pickerDate('2026-02'))).toBe('2026-02');
    expect(monthOfPicked(new Date(2026, 0, 31, 23, 59))).toBe('2026-01');
  });
});
