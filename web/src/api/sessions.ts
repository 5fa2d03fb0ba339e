import { useQuery } from '@tanstack/react-query';
import { PATHS } from '../../../contract/paths.ts';
import type { RevokedData, SessionsData } from '../../../contract/sessions.ts';
import { apiGet, apiPost } from './client.ts';
import { useIdempotentAction } from './useIdempotentAction.ts';

const sessionsKey = ['sessions'] as const;

/** The holder's signed-in devices (never cached past a visit: revocations change them). */
export const useSessions = () =>
  useQuery({ queryKey: sessionsKey, queryFn: () => apiGet<SessionsData>(PATHS.sessions), staleTime: 0 });

export const useRevokeSession = () =>
  useIdempotentAction<{ id: string }, RevokedData>({
    run: (body, idempotencyKey) => apiPost(PATHS.sessionsRevoke, body, { idempotencyKey }),
    fingerprint: (body) => `revoke:${body.id}`,
    invalidate: [sessionsKey],
  });

export const useRevokeOthers = () =>
  useIdempotentAction<Record<string, never>, RevokedData>({
    run: (body, idempotencyKey) => apiPost(PATHS.sessionsRevokeOthers, body, { idempotencyKey }),
    fingerprint: () => 'revoke-others',
    invalidate: [sessionsKey],
  });
