import { type QueryKey, useMutation, useQueryClient } from '@tanstack/react-query';
import Toast from 'antd-mobile/es/components/toast';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, TOAST_MS } from './client.ts';

/**
 * Failures after which the same action may still have happened or still be running: no
 * answer at all (network), timeouts, gateway errors, or the server still busy with the key.
 * Retrying such an action must reuse its key so the server runs it at most once. A server too
 * busy to take it (170) did nothing, but its retry keeps the key all the same.
 */
const UNSETTLED = new Set([0, 408, 131, 170, 502, 503, 504]);

export type IdempotentAction<B, R> = {
  /** Sends the call with the action's Idempotency-Key. */
  run: (body: B, key: string) => Promise<R>;
  /** What makes two sends "the same action" (path, ids, amounts). */
  fingerprint: (body: B) => string;
  /** Queries whose data the action may change, settled or not. */
  invalidate: readonly QueryKey[];
};

/**
 * Sends one user action that moves money or changes state. A confirmed action gets one
 * Idempotency-Key; a retry of the very same action (same fingerprint) after an unsettled
 * failure sends that key again. Any settled answer ends the action, so the next confirmation
 * is a new one with a new key. Resolves to the answer, or null when it was refused (the api
 * client has already shown why).
 */
export function useIdempotentAction<B, R>({ run, fingerprint, invalidate }: IdempotentAction<B, R>) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const action = useRef<{ key: string; fingerprint: string } | null>(null);
  const mutation = useMutation({ mutationFn: ({ body, key }: { body: B; key: string }) => run(body, key) });

  const send = async (body: B): Promise<R | null> => {
    const print = fingerprint(body);
    if (action.current?.fingerprint !== print) action.current = { key: crypto.randomUUID(), fingerprint: print };
    try {
      const answer = await mutation.mutateAsync({ body, key: action.current.key });
      action.current = null;
      return answer;
    } catch (error) {
      const unsettled = error instanceof ApiError ? UNSETTLED.has(error.code) : false;
      if (!unsettled) action.current = null;
      if (!(error instanceof ApiError)) {
        Toast.show({ content: t('common.operationFailed'), icon: 'fail', duration: TOAST_MS });
      }
      return null;
    } finally {
      for (const queryKey of invalidate) void queryClient.invalidateQueries({ queryKey });
    }
  };

  return { send, sending: mutation.isPending };
}
