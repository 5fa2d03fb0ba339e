import { useQuery } from '@tanstack/react-query';
import type { UnreadData } from '../../../contract/notifications.ts';
import { PATHS } from '../../../contract/paths.ts';
import { apiGet } from './client.ts';

/**
 * The unread count the bell shows, apart from the notification centre's list and its mark-read
 * action (notifications.ts): the bell is on home, whose parts then load neither that action nor
 * the toast it shows.
 */

/** Every notification query starts with this key: marking read invalidates them all. */
export const noticesKey = ['notifications'] as const;
/** How often an open screen asks for the unread count (a settled day or a review adds one). */
const UNREAD_REFRESH_MS = 60_000;

export const useUnread = () =>
  useQuery({
    queryKey: [...noticesKey, 'unread'],
    queryFn: () => apiGet<UnreadData>(PATHS.notificationsUnread, undefined, { toast: false }),
    refetchInterval: UNREAD_REFRESH_MS,
    // Asked again on each screen that shows the bell: a notice may have come in between.
    staleTime: 0,
  });
