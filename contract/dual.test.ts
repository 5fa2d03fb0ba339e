import { describe, expect, it } from 'vitest';
import { aicInUsdt } from './dual.ts';

describe('aicInUsdt', () => {
  it('multiplies exactly and truncates at 1e-8', () => {
    expect(aicInUsdt('1000', '0.85')).toBe('850');
    expect(aicInUsdt('0.00000001', '0.85')).toBe('0');
    expect(aicInUsdt('0.00000003', '0.5')).toBe('0.00000001');
    expect(aicInUsdt('12345.67891234', '1.23456789')).toBe('15241.57876542');
    // A float would give 0.30000000000000004 for 0.1 × 3.
    expect(aicInUsdt('0.1', '3')).toBe('0.3');
    expect(aicInUsdt('10000000000', '0.00000001')).toBe('100');
  });

  it('is empty (null) when the amount or the price is missing or malformed', () => {
    expect(aicInUsdt(null, '0.85')).toBeNull();
    expect(aicInUsdt('', '0.85')).toBeNull();
    expect(aicInUsdt('12', null)).toBeNull();
    expect(aicInUsdt('12', '')).toBeNull();
    expect(aicInUsdt('12', '-1')).toBeNull();
    expect(aicInUsdt('12', '1e3')).toBeNull();
    expect(aicInUsdt('abc', '1')).toBeNull();
  });
});
