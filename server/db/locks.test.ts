import { describe, expect, it } from 'vitest';
import { allLockKeys, LOCKS } from './locks.ts';

describe('advisory lock keys', () => {
  it('are distinct, and each is a 32-bit integer as the two-key form needs', () => {
    const keys = allLockKeys();
    expect(new Set(keys).size).toBe(keys.length);
    for (const key of keys) expect(Number.isInteger(key) && key > 0 && key < 2 ** 31).toBe(true);
    expect(keys.length).toBe(8 + Object.keys(LOCKS.settlementStep).length);
  });
});
