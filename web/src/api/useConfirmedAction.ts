import Toast from 'antd-mobile/es/components/toast';
import { type ReactNode, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { confirmAction } from '../lib/confirm.ts';
import { TOAST_MS } from './client.ts';

/** What one confirmed action asks, sends, and says once it is done. */
export type ConfirmedStep<B, R> = {
  /** The confirmation's content: what is about to happen, with its figures. */
  question: ReactNode;
  /** What is sent once the holder confirms. */
  body: B;
  /** The success toast's text for the server's answer. */
  success: (answer: R) => string;
  /** What the form does after that toast: clear the field, close the sheet. */
  done?: (answer: R) => void;
};

/**
 * Check, confirm, send, tell: the flow of every form that moves money or changes state. `start`
 * runs `prepare` (the checks; null when one refused and has said why), asks "Please confirm"
 * with its question, sends the body through the action (an idempotent one: a retry of the same
 * confirmed request keeps its key), then shows the success toast. One at a time: while a flow
 * runs (a check, the dialog, the call), another start does nothing; `busy` says whether one is.
 */
export function useConfirmedAction<B, R>(action: { send: (body: B) => Promise<R | null>; sending: boolean }) {
  const { t } = useTranslation();
  const running = useRef(false);

  const start = async (prepare: () => ConfirmedStep<B, R> | null | Promise<ConfirmedStep<B, R> | null>): Promise<void> => {
    if (running.current) return;
    running.current = true;
    try {
      const step = await prepare();
      if (!step || !(await confirmAction(t, step.question))) return;
      const answer = await action.send(step.body);
      if (!answer) return;
      Toast.show({ content: step.success(answer), icon: 'success', duration: TOAST_MS });
      step.done?.(answer);
    } finally {
      running.current = false;
    }
  };

  return { start, sending: action.sending, busy: () => running.current };
}
