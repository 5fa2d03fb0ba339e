import { useTranslation } from 'react-i18next';
import { useOffline } from '../lib/connectivity.ts';

/**
 * Offline, under the buttons that move money (disabled then): why they cannot be used. `id` for
 * a group of buttons to point at it (aria-describedby); unique per page, kept screens included.
 */
export function OfflineReason({ id }: { id?: string }) {
  const { t } = useTranslation();
  const offline = useOffline();
  if (!offline) return null;
  return (
    <p className="offline-reason" id={id}>
      {t('offline.noMoves')}
    </p>
  );
}
