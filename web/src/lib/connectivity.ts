import { useSyncExternalStore } from 'react';
import { listeners } from './listeners.ts';

/**
 * Whether the app can reach its server: the browser's own word (offline and online events), and,
 * after a call that got no answer, a probe of /healthz (repeated, backing off, until it answers).
 * A single refused or dropped call does not make the app offline; a server that answers nothing
 * does.
 */
let offline = typeof navigator !== 'undefined' && navigator.onLine === false;
const changes = listeners();

function set(value: boolean): void {
  if (offline === value) return;
  offline = value;
  changes.notify();
}

/** The first probe's wait after a failed one; each failure doubles it, up to PROBE_MAX_MS. */
const PROBE_FIRST_MS = 2_000;
const PROBE_MAX_MS = 30_000;
let probeWait = PROBE_FIRST_MS;
let probing = false;
let nextProbe: ReturnType<typeof setTimeout> | undefined;

function stopProbing(): void {
  clearTimeout(nextProbe);
  nextProbe = undefined;
  probeWait = PROBE_FIRST_MS;
}

/**
 * Asks /healthz, and while nothing answers asks again later, each time twice as late. Not while
 * the browser says it is offline: a request then fails for certain, and each failure is a
 * console error ("Failed to load resource"); its online event asks again.
 */
function probe(): void {
  if (probing || nextProbe !== undefined) return;
  if (navigator.onLine === false) {
    set(true);
    return;
  }
  probing = true;
  fetch('/healthz', { cache: 'no-store' })
    .then((response) => response.ok)
    .catch(() => false)
    .then((up) => {
      probing = false;
      set(!up);
      if (up || navigator.onLine === false) {
        stopProbing();
        return;
      }
      nextProbe = setTimeout(() => {
        nextProbe = undefined;
        probe();
      }, probeWait);
      probeWait = Math.min(probeWait * 2, PROBE_MAX_MS);
    });
}

if (typeof window !== 'undefined') {
  window.addEventListener('offline', () => {
    stopProbing();
    set(true);
  });
  // The browser's word that it is back does not mean the server is: ask it.
  window.addEventListener('online', () => {
    stopProbing();
    probe();
  });
}

/** A call got no answer: ask the server whether it is there at all (once, however many calls). */
export const noticeNoAnswer = (): void => probe();

/** An answer came: the server is there. */
export function noticeAnswer(): void {
  stopProbing();
  set(false);
}

export const connectivity = { isOffline: (): boolean => offline, subscribe: changes.subscribe };

export const useOffline = (): boolean => useSyncExternalStore(changes.subscribe, () => offline);
