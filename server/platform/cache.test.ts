import { describe, expect, it, vi } from 'vitest';
import { shortLived } from './cache.ts';

describe('shortLived', () => {
  it('computes once for a burst, again after the time is up or for another key', async () => {
    vi.useFakeTimers();
    try {
      let runs = 0;
      const get = shortLived(1000, async (day: string) => `${day}:${++runs}`);
      expect(await Promise.all([get('a'), get('a'), get('a')])).toEqual(['a:1', 'a:1', 'a:1']);
      vi.advanceTimersByTime(999);
      expect(await get('a')).toBe('a:1');
      expect(await get('b')).toBe('b:2');
      vi.advanceTimersByTime(1000);
      expect(await get('b')).toBe('b:3');
      get.forget();
      expect(await get('b')).toBe('b:4');
    } finally {
      vi.useRealTimers();
    }
  });

  it('does not keep a failure', async () => {
    let fail = true;
    const get = shortLived(60_000, async () => {
      if (fail) throw new Error('database down');
      return 'ok';
    });
    await expect(get(0)).rejects.toThrow('database down');
    fail = false;
    expect(await get(0)).toBe('ok');
  });

  it('computes every time with no lifetime', async () => {
    let runs = 0;
    const get = shortLived(0, async () => ++runs);
    await get(0);
    expect(await get(0)).toBe(2);
  });
});
