import type { StorageKey } from './storage.ts';

type Store = { get(key: StorageKey): string | null; set(key: StorageKey, value: string): void };

/** Query parameters of both the URL and the hash route (#/home?code=...); the hash wins. */
export function readQuery(href: string): URLSearchParams {
  const url = new URL(href);
  const merged = new URLSearchParams(url.search);
  const hashQuery = url.hash.includes('?') ? url.hash.slice(url.hash.indexOf('?') + 1) : '';
  for (const [key, value] of new URLSearchParams(hashQuery)) merged.set(key, value);
  return merged;
}

const SAVED: StorageKey[] = ['utm_source', 'lang', 'redirectRefer'];
const ONCE: StorageKey[] = ['code', 'state'];

/**
 * Spec section 4, first load: code, state, utm_source, lang and redirectRefer from the query
 * go to storage; code and state only if none were stored before.
 */
export function applyFirstLoad(href: string, store: Store): URLSearchParams {
  const query = readQuery(href);
  const hadCredentials = ONCE.some((key) => store.get(key));
  for (const key of SAVED) {
    const value = query.get(key);
    if (value) store.set(key, value);
  }
  if (!hadCredentials) {
    for (const key of ONCE) {
      const value = query.get(key);
      if (value) store.set(key, value);
    }
  }
  if ([...query.keys()].length > 0) {
    // Merged with what was kept before, so an invite link's inviteCode survives the sign-in
    // round trip (the exchange comes back with only code and state).
    store.set('urlParams', JSON.stringify({ ...storedParams(store), ...Object.fromEntries(query) }));
  }
  return query;
}

/** The query parameters kept under urlParams (spec section 3), or none. */
export function storedParams(store: Pick<Store, 'get'>): Record<string, string> {
  try {
    const parsed: unknown = JSON.parse(store.get('urlParams') ?? '{}');
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return {};
    return Object.fromEntries(Object.entries(parsed).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
  } catch {
    return {};
  }
}
