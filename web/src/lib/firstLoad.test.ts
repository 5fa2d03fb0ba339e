import { describe, expect, it } from 'vitest';
import { applyFirstLoad, readQuery, rememberPendingState, storedParams } from './firstLoad.ts';
import type { StorageKey } from './storage.ts';

function memoryStore(initial: Partial<Record<StorageKey, string>> = {}) {
  const values = new Map<StorageKey, string>(Object.entries(initial) as [StorageKey, string][]);
  return {
    get: (k: StorageKey) => values.get(k) ?? null,
    set: (k: StorageKey, v: string) => values.set(k, v),
    remove: (...keys: StorageKey[]) => {
      for (const k of keys) values.delete(k);
    },
    values,
  };
}

describe('first load (spec 4)', () => {
  it('reads both the URL query and the hash query', () => {
    const q = readQuery('https://x.test/?code=c1&utm_source=tw#/home?state=s1&lang=en');
    expect(Object.fromEntries(q)).toEqual({ code: 'c1', utm_source: 'tw', state: 's1', lang: 'en' });
  });

  it('saves code, state, utm_source, lang and redirectRefer', () => {
    // The state is the one this browser's sign-in started with (rememberPendingState).
    const store = memoryStore({ state: 's1' });
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
    rememberPendingState('https://exchange.test/auth?client_id=aic&state=s1', store);
    applyFirstLoad('https://x.test/?code=c1&state=s1#/home', store);
    expect(storedParams(store)).toEqual({ inviteCode: 'ABC123', code: 'c1', state: 's1' });
    expect(storedParams(memoryStore({ urlParams: 'not json' }))).toEqual({});
  });
});

describe('sign-in bound to this browser (login CSRF, RFC 9700 §4.7.1)', () => {
  it('keeps a code that comes back with the state this browser started', () => {
    const store = memoryStore();
    expect(rememberPendingState('https://exchange.test/auth?client_id=aic&state=mine&nonce=n', store)).toBe('mine');
    applyFirstLoad('https://x.test/?code=c1&state=mine&iss=https%3A%2F%2Fexchange.test#/', store);
    expect(store.get('code')).toBe('c1');
    expect(store.get('state')).toBe('mine');
  });

  it('drops a code whose state is not the one this browser started', () => {
    const store = memoryStore({ state: 'mine', lang: 'en' });
    applyFirstLoad('https://x.test/?code=theirs&state=their-state&lang=Thai', store);
    expect(store.get('code')).toBeNull();
    expect(store.get('state')).toBe('mine');
    // The rest of the query is still read; the refused code and state are not kept anywhere.
    expect(store.get('lang')).toBe('Thai');
    expect(storedParams(store)).toEqual({ lang: 'Thai' });
  });

  it('drops a code where no sign-in was started (nothing stored), also in the hash query', () => {
    const store = memoryStore();
    applyFirstLoad('https://x.test/?code=theirs&state=their-state#/', store);
    applyFirstLoad('https://x.test/#/home?code=theirs&state=their-state&inviteCode=EVIL1', store);
    expect(store.get('code')).toBeNull();
    expect(store.get('state')).toBeNull();
    expect(storedParams(store)).toEqual({ inviteCode: 'EVIL1' });
  });

  it('drops a code without a state, and a state without a code changes nothing', () => {
    const store = memoryStore({ state: 'mine' });
    applyFirstLoad('https://x.test/?code=c1#/', store);
    applyFirstLoad('https://x.test/?state=mine&error=access_denied#/', store);
    expect(store.get('code')).toBeNull();
    expect(store.get('state')).toBe('mine');
  });

  it('does not replace a stored code, even one with the same state', () => {
    const store = memoryStore({ code: 'first', state: 'mine' });
    applyFirstLoad('https://x.test/?code=second&state=mine#/', store);
    expect(store.get('code')).toBe('first');
  });

  it('a new authorisation replaces the pending state (an expired one too) and forgets an old code', () => {
    const store = memoryStore({ code: 'used', state: 'expired' });
    expect(rememberPendingState('/oidc/auth?state=fresh', store)).toBe('fresh');
    expect(store.get('code')).toBeNull();
    expect(store.get('state')).toBe('fresh');
    // The code of the earlier, expired round no longer fits.
    applyFirstLoad('https://x.test/?code=late&state=expired#/', store);
    expect(store.get('code')).toBeNull();
    applyFirstLoad('https://x.test/?code=c2&state=fresh#/', store);
    expect(store.get('code')).toBe('c2');
  });

  it('remembers nothing for an address without a state', () => {
    const store = memoryStore({ state: 'old' });
    expect(rememberPendingState('https://exchange.test/auth?client_id=aic', store)).toBeNull();
    expect(store.get('state')).toBeNull();
  });
});
