import { describe, expect, it } from 'vitest';
import { gathered } from './batch.ts';

describe('gathered reads', () => {
  it('loads the keys of one turn together, once each, and answers every caller its own', async () => {
    const loads: number[][] = [];
    const read = gathered(async (keys: number[]) => {
      loads.push(keys);
      return new Map(keys.map((k) => [k, k * 10]));
    }, () => -1);
    expect(await Promise.all([read(1), read(2), read(1), read(3)])).toEqual([10, 20, 10, 30]);
    expect(await read(4)).toBe(40);
    expect(loads).toEqual([[1, 2, 3], [4]]);
  });

  it('answers a key the load did not find with the missing value', async () => {
    const read = gathered(async () => new Map<number, number>(), () => -1);
    expect(await read(7)).toBe(-1);
  });

  it('fails only the callers of the turn whose load failed', async () => {
    let fail = true;
    const read = gathered(async (keys: number[]) => {
      if (fail) throw new Error('database away');
      return new Map(keys.map((k) => [k, k]));
    }, () => -1);
    const first = Promise.all([read(1), read(2)]);
    await expect(first).rejects.toThrow('database away');
    fail = false;
    expect(await read(2)).toBe(2);
  });
});
