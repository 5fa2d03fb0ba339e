import { useInfiniteQuery } from '@tanstack/react-query';
import type { NoticesData, ReadBody, ReadData } from '../../../contract/notifications.ts';
import { PATHS } from '../../../contract/paths.ts';
import { apiGet, apiPost } from './client.ts';
import { noticesKey } from './unread.ts';
import { useIdempotentAction } from './useIdempotentAction.ts';

const PAGE_SIZE = 20;

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
