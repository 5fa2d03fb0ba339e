import { useTranslation } from 'react-i18next';
import { LOGOUT_DELAY_MS, TOAST_MS } from '../api/client.ts';
import { showToast } from '../lib/toast.ts';
import { logoutEverywhere, startAuthorisation } from './auth.ts';
import { sessionStore, useSignedIn } from './store.ts';

/** The signed-in state and the actions that change it. */
export function useSession() {
  const { t } = useTranslation();
  const signedIn = useSignedIn();

  const authorise = () => startAuthorisation().catch(() => undefined);

  /** Spec section 4: clear, say so, and after 1 s start authorisation again. */
  const logout = async () => {
    sessionStore.beginLogout();
    await logoutEverywhere();
    showToast({ content: t('common.logoutSuccess'), icon: 'success', duration: TOAST_MS });
    setTimeout(() => void authorise(), LOGOUT_DELAY_MS);
  };

  return { signedIn, startAuthorisation: authorise, logout };
}
