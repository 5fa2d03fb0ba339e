import { useSyncExternalStore } from 'react';
import { listeners } from './listeners.ts';

/**
 * The service worker (/sw.js, written by the build): it keeps the app shell and the built files,
 * so the app opens without a connection. A new version installs in the background and waits;
 * `useUpdateReady` says so, and `switchToUpdate` lets it take over and reloads.
 */
let waiting: ServiceWorker | null = null;
const changes = listeners();

function watch(registration: ServiceWorkerRegistration): void {
  // Only an update waits behind a controlling worker; the first install just takes over.
  const offer = (worker: ServiceWorker | null) => {
    if (worker && navigator.serviceWorker.controller) {
      waiting = worker;
      changes.notify();
    }
  };
  offer(registration.waiting);
  registration.addEventListener('updatefound', () => {
    const installing = registration.installing;
    installing?.addEventListener('statechange', () => {
      if (installing.state === 'installed') offer(installing);
    });
  });
}

export function registerServiceWorker(): void {
  if (!('serviceWorker' in navigator) || !import.meta.env.PROD) return;
  window.addEventListener('load', () => {
    navigator.serviceWorker.register('/sw.js').then(watch, () => {});
  });
  // Opening a push notification with the app open: the worker says which screen (scripts/sw-template.js).
  navigator.serviceWorker.addEventListener('message', (event: MessageEvent<{ type?: string; url?: string }>) => {
    const { type, url } = event.data ?? {};
    if (type !== 'open' || typeof url !== 'string' || !URL.canParse(url)) return;
    const target = new URL(url);
    if (target.origin === location.origin && target.hash.startsWith('#/')) location.hash = target.hash;
  });
  let reloading = false;
  navigator.serviceWorker.addEventListener('controllerchange', () => {
    if (waiting && !reloading) {
      reloading = true;
      location.reload();
    }
  });
}

export function switchToUpdate(): void {
  waiting?.postMessage('skipWaiting');
}

export const useUpdateReady = (): boolean => useSyncExternalStore(changes.subscribe, () => waiting !== null);
