import type { LoginData } from '../../../contract/auth.ts';
import { PATHS } from '../../../contract/paths.ts';
import { apiGet, apiPost } from '../api/client.ts';
import { currentLanguage } from '../i18n/index.ts';
import { rememberPendingState } from '../lib/firstLoad.ts';
import { session, storage } from '../lib/storage.ts';
import { sessionStore } from './store.ts';

/** The web app's home address, as the exchange should send the window back to it. */
const homeUrl = () => `${location.origin}${location.pathname}`;

/**
 * Spec section 4: ask for the authorisation address and navigate the window to it. Its state is
 * remembered first (spec key state): only a code that comes back with it is exchanged, which
 * binds the sign-in to this browser (see applyFirstLoad).
 */
export async function startAuthorisation(): Promise<void> {
  session.clearEnded();
  const redirectRefer = storage.get('redirectRefer') ?? undefined;
  const address = await apiGet<string>(PATHS.authorPage, {
    redirectUri: homeUrl(),
    lang: currentLanguage(),
    redirectRefer,
    prompt: session.takeFreshLogin() ? 'login' : undefined,
  });
  // An address without a state could never be accepted on the way back: stay, do not loop.
  if (!rememberPendingState(address, storage)) throw new Error('authorisation address without state');
  location.assign(address);
}

/**
 * Exchange the stored code and state for a session; a failure is silent (spec section 4). A code
 * is stored only with the state this browser started (applyFirstLoad).
 */
export async function loginWithStoredCode(): Promise<{ redirectRefer: string | null } | null> {
  const code = storage.get('code');
  const state = storage.get('state');
  if (!code || !state) return null;
  try {
    const data = await apiGet<LoginData>(PATHS.login, { code, state }, { toast: false });
    sessionStore.signIn(data.token, data.userId);
    const redirectRefer = data.redirectRefer ?? storage.get('redirectRefer');
    storage.remove('redirectRefer');
    return { redirectRefer };
  } catch {
    sessionStore.forgetLogin();
    return null;
  }
}

/**
 * Revoke the session on the server, then forget it here. Push notifications on this device stop
 * first (the next holder to sign in here must not get this one's notices).
 */
export async function logoutEverywhere(): Promise<void> {
  await import('../lib/push.ts').then(({ disablePush }) => disablePush()).catch(() => undefined);
  await apiPost(PATHS.logout, {}, { toast: false }).catch(() => undefined);
  sessionStore.clear();
}
