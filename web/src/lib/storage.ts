/**
 * The storage helper of spec section 3: values live in cookies under a fixed prefix and last
 * 30 days. The session-only key previousRoute lives in sessionStorage.
 */
export const STORAGE_PREFIX = 'aic_earn_';
const COOKIE_DAYS = 30;

const KEYS = [
  'token',
  'userId',
  'code',
  'state',
  'userInfo',
  'lang',
  'redirectRefer',
  'utm_source',
  'urlParams',
] as const;
export type StorageKey = (typeof KEYS)[number];

/**
 * `document.cookie` as read once per task: each read is a synchronous call into the browser
 * (a screen's first render read it a dozen times). Our own writes drop it at once; a change
 * made elsewhere (another tab) is seen from the next task on.
 */
let jar: string | undefined;
function cookies(): string {
  if (jar === undefined) {
    jar = document.cookie;
    queueMicrotask(() => {
      jar = undefined;
    });
  }
  return jar;
}

export const storage = {
  get(key: StorageKey): string | null {
    const name = `${STORAGE_PREFIX}${key}=`;
    for (const part of cookies().split('; ')) {
      if (part.startsWith(name)) return decodeURIComponent(part.slice(name.length));
    }
    return null;
  },
  set(key: StorageKey, value: string): void {
    jar = undefined;
    const secure = location.protocol === 'https:' ? '; Secure' : '';
    // biome-ignore lint/suspicious/noDocumentCookie: the spec's helper keeps values in cookies for 30 days
    document.cookie = `${STORAGE_PREFIX}${key}=${encodeURIComponent(value)}; Max-Age=${
      COOKIE_DAYS * 86_400
    }; Path=/; SameSite=Lax${secure}`;
  },
  remove(...keys: StorageKey[]): void {
    jar = undefined;
    for (const key of keys) {
      // biome-ignore lint/suspicious/noDocumentCookie: see set()
      document.cookie = `${STORAGE_PREFIX}${key}=; Max-Age=0; Path=/; SameSite=Lax`;
    }
  },
};

const PREVIOUS_ROUTE = 'previousRoute';

const FORCE_LOGIN = 'forceLogin';

const SESSION_ENDED = 'sessionEnded';

export const session = {
  previousRoute: () => sessionStorage.getItem(PREVIOUS_ROUTE),
  rememberRoute: (path: string) => sessionStorage.setItem(PREVIOUS_ROUTE, path),
  /** After a logout the exchange must ask again, not sign the same person straight back in. */
  requireFreshLogin: () => sessionStorage.setItem(FORCE_LOGIN, '1'),
  takeFreshLogin: (): boolean => {
    const wanted = sessionStorage.getItem(FORCE_LOGIN) === '1';
    sessionStorage.removeItem(FORCE_LOGIN);
    return wanted;
  },
  /** The server ended the session (a 401): Home says so and waits for the holder to sign in again. */
  markEnded: () => sessionStorage.setItem(SESSION_ENDED, '1'),
  hasEnded: (): boolean => sessionStorage.getItem(SESSION_ENDED) === '1',
  clearEnded: () => sessionStorage.removeItem(SESSION_ENDED),
};

/**
 * The localStorage key of the query cache kept on the device (api/savedFigures.ts): the last
 * figures, shown offline. Logout and forced logout remove it with the signed-in keys.
 */
export const SAVED_FIGURES_KEY = `${STORAGE_PREFIX}figures`;

/** What logout and forced logout clear (spec section 4). */
export const SIGNED_IN_KEYS: StorageKey[] = ['code', 'state', 'token', 'userInfo', 'userId'];
