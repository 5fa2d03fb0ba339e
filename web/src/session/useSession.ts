import { Toast } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { LOGOUT_DELAY_MS, TOAST_MS } from '../api/client.ts';
import { SIGNED_IN_KEYS, storage } from '../lib/storage.ts';

/** The signed-in state (a stored token) and the actions that change it. */
export function useSession() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const signedIn = Boolean(storage.get('token'));

  const startAuthorisation = async () => {
    navigate('/center');
  };

  const logout = async () => {
    storage.remove(...SIGNED_IN_KEYS);
    Toast.show({ content: t('common.logoutSuccess'), icon: 'success', duration: TOAST_MS });
    setTimeout(() => void startAuthorisation(), LOGOUT_DELAY_MS);
  };

  return { signedIn, startAuthorisation, logout };
}
