import { useSyncExternalStore } from 'react';
import { listeners } from '../lib/listeners.ts';
import { SAVED_FIGURES_KEY, SIGNED_IN_KEYS, session, storage } from '../lib/storage.ts';

/** The signed-in state is "a token is stored" (spec section 6); this makes it reactive. */
const changes = listeners();
const notify = changes.notify;
let loggingOut = false;

export const sessionStore = {
  token: () => storage.get('token'),
  signIn(token: string, userId: string) {
    storage.set('token', token);
    storage.set('userId', userId);
    notify();
  },
  /** Logout and forced logout clear the same keys (spec section 4). */
  clear() {
    storage.remove(...SIGNED_IN_KEYS);
    // A shared phone: the next holder must not see this one's last figures.
    localStorage.removeItem(SAVED_FIGURES_KEY);
    session.requireFreshLogin();
    notify();
  },
  /** A failed login silently removes token, userId, code and state. */
  forgetLogin() {
    storage.remove('token', 'userId', 'code', 'state');
    notify();
  },
  /** A logout says so and re-authorises after 1 s; start-up must not jump ahead of it. */
  beginLogout() {
    loggingOut = true;
  },
  isLoggingOut: () => loggingOut,
  subscribe: changes.subscribe,
};

export const useSignedIn = (): boolean =>
  useSyncExternalStore(sessionStore.subscribe, () => Boolean(sessionStore.token()));
