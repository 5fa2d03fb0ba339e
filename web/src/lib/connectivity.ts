import { useSyncExternalStore } from 'react';
import { listeners } from './listeners.ts';

/**
 * Whether the app can reach its server: the browser's own word (offline and online events), and,
 * after a call that got no answer, a probe of /healthz. A single refused or dropped call does
 * not make the app offline; a server that answers nothing does.
 */
let offline = typeof navigator !== 'undefined' && navigator.onLine === false;
const changes = listeners();

function set(value: boolean): void {
  if (offline === value) return;
  offline = value;
  changes.notify();
}

if (typeof window !== 'undefined') {
  window.addEventListener('offline', () => set(true));
  window.addEventListener('online', () => set(false));
}

/** A call got no answer: ask the server whether it is there at all. */
export function noticeNoAnswer(): void {
  void fetch('/healthz', { cache: 'no-store' }).then(
    (response) => set(!response.ok),
    () => set(true),
  );
}

/** An answer came: the server is there. */
export const noticeAnswer = (): void => set(false);

export const useOffline = (): boolean => useSyncExternalStore(changes.subscribe, () => offline);
