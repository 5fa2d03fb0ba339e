import { describe, expect, it } from 'vitest';
import { heardServerTime, onServerClock } from './serverClock.ts';

describe('the server clock as answers tell it', () => {
  const phone = Date.parse('2026-12-07T10:00:00Z');

  it('puts a moment of this phone on the server’s clock, however far the demo clock stands', () => {
    heardServerTime('2027-01-06T10:00:00.000Z', phone);
    expect(new Date(onServerClock(phone)).toISOString()).toBe('2027-01-06T10:00:00.000Z');
    expect(new Date(onServerClock(phone + 5_000)).toISOString()).toBe('2027-01-06T10:00:05.000Z');
  });

  it('keeps what it knows when an answer says nothing or nonsense, or differs by the network’s delay', () => {
    heardServerTime(null, phone);
    heardServerTime('not a time', phone);
    heardServerTime('2027-01-06T10:00:00.400Z', phone);
    expect(new Date(onServerClock(phone)).toISOString()).toBe('2027-01-06T10:00:00.000Z');
    heardServerTime('2026-12-07T10:00:00.000Z', phone);
    expect(onServerClock(phone)).toBe(phone);
  });
});
