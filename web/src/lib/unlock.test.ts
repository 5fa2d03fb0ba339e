import { describe, expect, it } from 'vitest';
import { UNIT } from '../../../contract/money.ts';
import { inviteLink } from './inviteLink.ts';
import { unlockProgress } from './unlock.ts';

const tiers = [
  { holding: '10000', percent: '0.5' },
  { holding: '5000', percent: '0.3' },
];

describe('unlock progress', () => {
  it('places the holding and the tiers on the bar, lowest tier first', () => {
    const progress = unlockProgress({ held: '2500', tiers });
    expect(progress.max).toBe(10_000n * UNIT);
    expect(progress.filled).toBe(25);
    expect(progress.marks.map((m) => [m.percent, m.at])).toEqual([
      ['0.3', 50],
      ['0.5', 100],
    ]);
    expect(progress.next).toEqual({ holding: 5000n * UNIT, percent: '0.3', missing: 2500n * UNIT });
  });

  it('names the next tier exactly, to the last unit', () => {
    const progress = unlockProgress({ held: '5000.00000001', tiers });
    expect(progress.next?.percent).toBe('0.5');
    expect(progress.next?.missing).toBe(5000n * UNIT - 1n);
  });

  it('is full and has no next tier at or above the highest holding', () => {
    const progress = unlockProgress({ held: '25000', tiers });
    expect(progress.filled).toBe(100);
    expect(progress.next).toBeNull();
  });

  it('counts a missing holding as nothing', () => {
    expect(unlockProgress({ held: '', tiers }).filled).toBe(0);
    expect(unlockProgress({ held: '1', tiers: [] }).next).toBeNull();
  });
});

describe('invite link', () => {
  it('carries the code in the query and opens the centre', () => {
    expect(inviteLink('AB12CD', { origin: 'https://earn.example', pathname: '/' })).toBe(
      'https://earn.example/?inviteCode=AB12CD#/center',
    );
    expect(inviteLink('a b', { origin: 'http://localhost:3000', pathname: '/app/' })).toBe(
      'http://localhost:3000/app/?inviteCode=a%20b#/center',
    );
  });
});
