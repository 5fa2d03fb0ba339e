import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import type { NoticesData, ReadBody, ReadData, UnreadData } from '../../../contract/notifications.ts';
import { PATHS } from '../../../contract/paths.ts';
import { apiGet, apiPost } from './client.ts';
import { useIdempotentAction } from './useIdempotentAction.ts';

/** Every notification query starts with this key: marking read invalidates them all. */
const noticesKey = ['notifications'] as const;
const PAGE_SIZE = 20;
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

export const useNotices = () =>
  useInfiniteQuery({
    queryKey: [...noticesKey, 'list'],
    queryFn: ({ pageParam, signal }) =>
      apiGet<NoticesData>(PATHS.notifications, { cursor: pageParam, limit: PAGE_SIZE }, { signal }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    staleTime: 0,
  });

export const useMarkRead = () =>
  useIdempotentAction<ReadBody, ReadData>({
    run: (body, idempotencyKey) => apiPost(PATHS.notificationsRead, body, { idempotencyKey }),
    fingerprint: (body) => ('id' in body ? `read:${body.id}` : 'read:all'),
    invalidate: [noticesKey],
  });
