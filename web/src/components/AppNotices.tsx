import { useTranslation } from 'react-i18next';
import { useOffline } from '../lib/connectivity.ts';
import { switchToUpdate, useUpdateReady } from '../lib/serviceWorker.ts';
import { LightButton } from './LightButton.tsx';

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

/** A screen that shows the holder's figures, while the server cannot be reached. */
export function OfflinePage() {
  const { t } = useTranslation();
  return (
    <main className="page page--offline" data-testid="offline-page">
      <section className="card card--empty offline">
        <h1 className="offline__title">{t('offline.title')}</h1>
        <p>{t('offline.text', { app: t('app.name') })}</p>
        <LightButton color="primary" onClick={() => location.reload()}>
          {t('common.retry')}
        </LightButton>
      </section>
    </main>
  );
}
