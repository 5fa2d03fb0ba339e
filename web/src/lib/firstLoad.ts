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

/**
 * Spec section 4, first load: utm_source, lang and redirectRefer from the query go to storage.
 * code and state are saved only if none were stored before, and only for a sign-in this browser
 * started: the stored state is the one of the authorisation address it asked for
 * (rememberPendingState), and a code is kept only when it comes back with that state. A code
 * with another state, or where no sign-in was started, is dropped and never exchanged: the
 * address may be an attacker's own redirect back (login CSRF, RFC 9700 §4.7.1).
 */
export function applyFirstLoad(href: string, store: Store): URLSearchParams {
  const query = readQuery(href);
  for (const key of SAVED) {
    const value = query.get(key);
    if (value) store.set(key, value);
  }
  const code = query.get('code');
  const returned = query.get('state');
  const pending = store.get('state');
  const accepted = Boolean(code && returned && pending === returned && !store.get('code'));
  if (accepted && code) store.set('code', code);
  const kept = Object.fromEntries([...query].filter(([key]) => accepted || (key !== 'code' && key !== 'state')));
  if (Object.keys(kept).length > 0) {
    // Merged with what was kept before, so an invite link's inviteCode survives the sign-in
    // round trip (the exchange comes back with only code and state).
    store.set('urlParams', JSON.stringify({ ...storedParams(store), ...kept }));
  }
  return query;
}

/**
 * Before the window goes to the exchange: remember the state of the authorisation address as
 * this browser's pending sign-in (spec key state), replacing any earlier one (also an expired
 * one), and forget a code from an earlier round. Returns the state, or null when the address
 * has none.
 */
export function rememberPendingState(address: string, store: Store & { remove(...keys: StorageKey[]): void }): string | null {
  const state = new URL(address, 'http://relative.invalid').searchParams.get('state');
  store.remove('code');
  if (state) store.set('state', state);
  else store.remove('state');
  return state;
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
