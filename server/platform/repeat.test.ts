import type { FastifyBaseLogger } from 'fastify';
import { describe, expect, it, vi } from 'vitest';
import { repeat } from './repeat.ts';

const logger = (errors: unknown[]) => ({ error: (fields: unknown) => errors.push(fields) }) as unknown as FastifyBaseLogger;

describe('repeat', () => {
  it('runs at once and every interval, never two runs at once, and stops', async () => {
    vi.useFakeTimers();
    try {
      let running = 0;
      let most = 0;
      let runs = 0;
      const stop = repeat(10, logger([]), 'failed', async () => {
        runs++;
        running++;
        most = Math.max(most, running);
        await new Promise((resolve) => setTimeout(resolve, 25));
        running--;
      });
      expect(runs).toBe(1);
      // Ticks at 10 and 20 find the first run going; the one at 30 starts the second.
      await vi.advanceTimersByTimeAsync(30);
      expect(runs).toBe(2);
      await vi.advanceTimersByTimeAsync(100);
      expect(most).toBe(1);
      stop();
      const after = runs;
      await vi.advanceTimersByTimeAsync(100);
      expect(runs).toBe(after);
    } finally {
      vi.useRealTimers();
    }
  });

  it('logs a failed run and tries again at the next tick', async () => {
    vi.useFakeTimers();
    try {
      const errors: unknown[] = [];
      let runs = 0;
      const stop = repeat(10, logger(errors), 'work failed', async () => {
        runs++;
        if (runs === 1) throw new Error('boom');
      });
      await vi.advanceTimersByTimeAsync(10);
      stop();
      expect(runs).toBe(2);
      expect(errors).toHaveLength(1);
      expect(String((errors[0] as { err: Error }).err.message)).toBe('boom');
    } finally {
      vi.useRealTimers();
    }
  });
});
