import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASES, startTestApp, type TestApp } from '../test/harness.ts';
import { DAY_MS, utcDay } from './clock.ts';
import { loadClockOffset, sharedClock } from './sharedClock.ts';

describe.each(DATABASES)('the demo clock, one for every process, on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(async () => {
    await t.close();
  });

  it('starts at CLOCK_START for the first process only, moves for all, and counts advances made at once', async () => {
    const start = new Date('2026-11-01T08:00:00Z');
    const a = await sharedClock(t.ctx.db, { start, refreshMs: 20 });
    // A second process starting later with another CLOCK_START keeps the clock the first set.
    const b = await sharedClock(t.ctx.db, { start: new Date('2030-01-01T00:00:00Z'), refreshMs: 20 });
    try {
      expect(utcDay(a.now())).toBe('2026-11-01');
      expect(utcDay(b.now())).toBe('2026-11-01');

      a.advance(DAY_MS);
      // The process that advanced is there at once; the other within its refresh.
      expect(utcDay(a.now())).toBe('2026-11-02');
      await a.flush?.();
      await expect.poll(() => utcDay(b.now())).toBe('2026-11-02');

      // Two advances at once, one on each: both count.
      a.advance(DAY_MS);
      b.advance(DAY_MS);
      await Promise.all([a.flush?.(), b.flush?.()]);
      await expect.poll(() => [utcDay(a.now()), utcDay(b.now())]).toEqual(['2026-11-04', '2026-11-04']);

      // A restart reads the offset back: the clock does not go back to CLOCK_START.
      const restarted = await sharedClock(t.ctx.db, { start, refreshMs: 20 });
      expect(utcDay(restarted.now())).toBe('2026-11-04');
      restarted.stop();
      expect(Math.round((await loadClockOffset(t.ctx.db)) / DAY_MS)).toBe(Math.round((start.getTime() + 3 * DAY_MS - Date.now()) / DAY_MS));
    } finally {
      a.stop();
      b.stop();
    }
  });
});
