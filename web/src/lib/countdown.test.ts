import { describe, expect, it } from 'vitest';
import { secondsLeft, splitCountdown } from './countdown.ts';

describe('countdown', () => {
  it('counts down from when the answer came, never below zero', () => {
    expect(secondsLeft(100, 1_000, 1_000)).toBe(100);
    expect(secondsLeft(100, 1_000, 2_999)).toBe(99);
    expect(secondsLeft(100, 1_000, 500_000)).toBe(0);
    expect(secondsLeft(100, 1_000, 0)).toBe(100);
  });

  it('splits into days and HH:MM:SS', () => {
    expect(splitCountdown(0)).toEqual({ days: 0, time: '00:00:00' });
    expect(splitCountdown(2 * 86_400 + 3 * 3600 + 4 * 60 + 5)).toEqual({ days: 2, time: '03:04:05' });
  });
});
