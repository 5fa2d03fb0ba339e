import { describe, expect, it } from 'vitest';
import { applyFirstLoad, readQuery, storedParams } from './firstLoad.ts';
import type { StorageKey } from './storage.ts';

function memoryStore(initial: Partial<Record<StorageKey, string>> = {}) {
  const values = new Map<StorageKey, string>(Object.entries(initial) as [StorageKey, string][]);
  return { get: (k: StorageKey) => values.get(k) ?? null, set: (k: StorageKey, v: string) => values.set(k, v), values };
}

describe('first load (spec 4)', () => {
  it('reads both the URL query and the hash query', () => {
    const q = readQuery('https://x.test/?code=c1&utm_source=tw#/home?state=s1&lang=en');
    expect(Object.fromEntries(q)).toEqual({ code: 'c1', utm_source: 'tw', state: 's1', lang: 'en' });
  });

  it('saves code, state, utm_source, lang and redirectRefer', () => {
    const store = memoryStore();
    applyFirstLoad('https://x.test/?code=c1&state=s1&utm_source=tw&lang=Thai&redirectRefer=%2Fcenter#/', store);
    expect(store.get('code')).toBe('c1');
    expect(store.get('state')).toBe('s1');
    expect(store.get('utm_source')).toBe('tw');
    expect(store.get('lang')).toBe('Thai');
    expect(store.get('redirectRefer')).toBe('/center');
  });

  it('keeps code and state that were stored before', () => {
    const store = memoryStore({ code: 'old', state: 'old-state' });
    applyFirstLoad('https://x.test/?code=new&state=new-state&lang=en', store);
    expect(store.get('code')).toBe('old');
    expect(store.get('state')).toBe('old-state');
    expect(store.get('lang')).toBe('en');
  });

  it('writes nothing when there is no query', () => {
    const store = memoryStore();
    applyFirstLoad('https://x.test/#/home', store);
    expect(store.values.size).toBe(0);
  });

  it('keeps earlier urlParams (an invite code) when the exchange comes back with code and state', () => {
    const store = memoryStore();
    applyFirstLoad('https://x.test/#/home?inviteCode=ABC123', store);
    applyFirstLoad('https://x.test/?code=c1&state=s1#/home', store);
    expect(storedParams(store)).toEqual({ inviteCode: 'ABC123', code: 'c1', state: 's1' });
    expect(storedParams(memoryStore({ urlParams: 'not json' }))).toEqual({});
  });
});
