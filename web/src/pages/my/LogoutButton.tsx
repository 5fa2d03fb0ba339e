import Button from 'antd-mobile/es/components/button';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useSession } from '../../session/useSession.ts';

/** Log out, at the bottom of My (issue 44: not on home or the wallet, as a phone app's account tab). */
export function LogoutButton() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { logout } = useSession();
  // Leave this signed-in-only screen first: signed out here, the layout would send the window
  // home, whose start-up authorises at once, before the logout message and its 1 s pause.
  const signOut = () => {
    navigate('/home', { replace: true });
    void logout();
  };
  return (
    <div className="actions my-logout">
      <Button block fill="outline" size="large" onClick={signOut}>
        {t('common.logout')}
      </Button>
    </div>
  );
}
