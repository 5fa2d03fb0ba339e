import { describe, expect, it } from 'vitest';
import { formatUnits, UNIT } from '../../../../contract/money.ts';
import { dailyIncome, dailyShare, powerOf, powerProjection, scaled, termIncome } from './estimate.ts';

const aic = (whole: bigint) => whole * UNIT;

describe('earn estimates (exact, truncated)', () => {
  it('computes current and 30-day income per day and over the term', () => {
    expect(formatUnits(dailyIncome(aic(1000n), '0.001'))).toBe('1');
    expect(formatUnits(dailyIncome(aic(1000n), '0.003'))).toBe('3');
    expect(formatUnits(termIncome(aic(1000n), '0.003', 30))).toBe('90');
    // 0.00000333 × 0.003 truncates to nothing; per-day truncation is what the server pays.
    expect(dailyIncome(333n, '0.003')).toBe(0n);
    expect(formatUnits(termIncome(123456789n, '0.003', 30))).toBe('0.111111');
  });

  it('computes 360-day power and the estimated daily share', () => {
    const power = powerOf(aic(500n), '5', '1.02');
    expect(formatUnits(power)).toBe('2550');
    // 10,000 × 2,550 ÷ 10,200 = 2,500, held to 500 × 0.5% = 2.5 by the cap.
    expect(formatUnits(dailyShare(power, aic(10000n), aic(7650n), aic(500n), '0.005'))).toBe('2.5');
    expect(formatUnits(dailyShare(power, aic(10000n), aic(7650n), aic(500n), '10'))).toBe('2500');
    expect(dailyShare(0n, aic(10000n), 0n, 0n, '0.005')).toBe(0n);
    expect(powerOf(aic(1n), 'x', '1.02')).toBe(0n);
    expect(scaled('')).toBeNull();
  });

  it('projects power with the coefficient growing by the configured base a day', () => {
    const points = powerProjection(aic(100n), '5', '1.00000000', 2, '1.02');
    expect(points.map(formatUnits)).toEqual(['500', '510', '520.2']);
    expect(powerProjection(aic(100n), '5', '1.00000000', 2, '1.1').map(formatUnits)).toEqual(['500', '550', '605']);
    expect(powerProjection(aic(100n), '5', 'bad', 2, '1.02')).toEqual([]);
  });
});
