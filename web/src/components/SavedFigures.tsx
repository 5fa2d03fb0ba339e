import { useQueryClient } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { oldestFigureOnView } from '../api/savedFigures.ts';
import { useOffline } from '../lib/connectivity.ts';
import { formatDateTime } from '../lib/format.ts';
import { onServerClock } from '../lib/serverClock.ts';

/**
 * Offline, under a screen's header: the time the figures on view are from (the oldest of their
 * answers, kept on the device, on the server's clock), or that this device has none saved yet
 * for this screen.
 */
export function SavedFigures() {
  const { t } = useTranslation();
  const offline = useOffline();
  const queryClient = useQueryClient();
  const oldest = useSyncExternalStore(queryClient.getQueryCache().subscribe, () => oldestFigureOnView(queryClient));
  if (!offline) return null;
  return (
    <p className="saved-figures" role="status" data-testid="saved-figures">
      {oldest ? t('offline.figuresFrom', { time: formatDateTime(new Date(onServerClock(oldest)).toISOString()) }) : t('offline.noFigures')}
    </p>
  );
}
