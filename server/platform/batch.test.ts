import { describe, expect, it } from 'vitest';
import { gathered, gatheredByAsk } from './batch.ts';

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

  it('loads the holders asking the same thing together, and each distinct ask apart', async () => {
    const loads: string[] = [];
    const read = gatheredByAsk(
      async (ids: bigint[], ask: { day: string }) => {
        loads.push(`${ask.day}:${ids.join(',')}`);
        return new Map(ids.map((id) => [id, `${id}@${ask.day}`]));
      },
      (ask) => ask.day,
      () => 'none',
    );
    const day = (d: string) => ({ day: d });
    const answers = await Promise.all([read(1n, day('a')), read(2n, day('b')), read(3n, day('a')), read(1n, day('b'))]);
    expect(answers).toEqual(['1@a', '2@b', '3@a', '1@b']);
    expect(await read(4n, day('a'))).toBe('4@a');
    expect(loads.sort()).toEqual(['a:1,3', 'a:4', 'b:2,1'].sort());
  });
});
