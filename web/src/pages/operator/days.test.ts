import { describe, expect, it } from 'vitest';
import { addDays, dateOfDay, dayOfDate, latestSettlementDay, serverToday } from './days.ts';

describe('operator days', () => {
  it('moves across months and years', () => {
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
  });

  it('round-trips a day through the picker date', () => {
    expect(dayOfDate(dateOfDay('2026-11-05'))).toBe('2026-11-05');
  });

  it('takes the latest of today here, the day after the last settled one, and the reported now', () => {
    const now = new Date('2026-11-01T10:00:00Z');
    expect(serverToday({ now })).toBe('2026-11-01');
    expect(serverToday({ now, lastSettled: '2026-11-09' })).toBe('2026-11-10');
    expect(serverToday({ now, lastSettled: '2026-11-09', serverNow: '2026-11-20T00:00:01Z' })).toBe('2026-11-20');
    expect(serverToday({ now, lastSettled: '2026-10-01' })).toBe('2026-11-01');
  });

  it('finds the latest day settlement has worked on', () => {
    const days = [
      { day: '2026-11-03', status: 'waiting_funds' },
      { day: '2026-11-02', status: 'done' },
      { day: '2026-11-01', status: 'done' },
    ];
    expect(latestSettlementDay(days)).toBe('2026-11-03');
    expect(latestSettlementDay([])).toBeNull();
  });
});
