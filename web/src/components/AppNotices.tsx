import { useTranslation } from 'react-i18next';
import { useOffline } from '../lib/connectivity.ts';
import { switchToUpdate, useUpdateReady } from '../lib/serviceWorker.ts';

/** On every screen: offline, and a new version waiting (with the button that switches to it). */
export function AppNotices() {
  const { t } = useTranslation();
  const offline = useOffline();
  const updateReady = useUpdateReady();
  return (
    <>
      {offline && (
        <p className="notice notice--offline" role="status">
          {t('offline.banner')}
        </p>
      )}
      {updateReady && (
        <p className="notice notice--update" role="status">
          {t('update.ready')}{' '}
          <button type="button" className="link-button" onClick={switchToUpdate}>
            {t('update.reload')}
          </button>
        </p>
      )}
    </>
  );
}
