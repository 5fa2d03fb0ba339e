import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Toast } from 'antd-mobile';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { MoveBody, TransferRecord, TransferType } from '../../../../contract/wallet.ts';
import { ApiError, TOAST_MS } from '../../api/client.ts';
import { queryKeys } from '../../api/queries.ts';
import { postMove } from '../../api/wallet.ts';

/**
 * Failures after which the same action may still have happened or still be running: no
 * answer at all (network), timeouts, gateway errors, or the server still busy with the key.
 * Retrying such an action must reuse its key so the server runs it at most once.
 */
const UNSETTLED = new Set([0, 408, 131, 502, 503, 504]);

/**
 * Sends one wallet move. A confirmed action gets one Idempotency-Key; a retry of the very
 * same action (type, asset, amount) after an unsettled failure sends that key again. Any
 * settled answer ends the action, so the next confirmation is a new one with a new key.
 */
export function useMove(type: TransferType) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const action = useRef<{ key: string; fingerprint: string } | null>(null);
  const mutation = useMutation({
    mutationFn: ({ body, key }: { body: MoveBody; key: string }) => postMove(type, body, key),
  });

  const send = async (body: MoveBody): Promise<TransferRecord | null> => {
    const fingerprint = `${type}|${body.asset}|${body.amount}`;
    if (action.current?.fingerprint !== fingerprint) action.current = { key: crypto.randomUUID(), fingerprint };
    try {
      const record = await mutation.mutateAsync({ body, key: action.current.key });
      action.current = null;
      return record;
    } catch (error) {
      const unsettled = error instanceof ApiError ? UNSETTLED.has(error.code) : false;
      if (!unsettled) action.current = null;
      // The api client has already shown its own message for every refused call.
      if (!(error instanceof ApiError)) {
        Toast.show({ content: t('common.operationFailed'), icon: 'fail', duration: TOAST_MS });
      }
      return null;
    } finally {
      // Settled or not, balances and records may have changed.
      void queryClient.invalidateQueries({ queryKey: queryKeys.wallet });
    }
  };

  return { send, sending: mutation.isPending };
}
