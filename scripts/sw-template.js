// The app's service worker. scripts/serviceWorker.ts writes it into the build as /sw.js, with
// VERSION and PRECACHE (the app shell and every hashed asset of that build) defined above this.
/* global VERSION, PRECACHE */
const CACHE = `aic-earn-${VERSION}`;
const SHELL = '/index.html';
/** Never from a cache: the API, the exchange's sign-in pages and the health probes. */
const LIVE = /^\/(api|oidc|signin|healthz|readyz|metrics)(\/|$)/;

self.addEventListener('install', (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(PRECACHE)));
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((key) => key.startsWith('aic-earn-') && key !== CACHE).map((key) => caches.delete(key))))
      .then(() => self.clients.claim()),
  );
});

// The page's update prompt asks the waiting worker to take over.
self.addEventListener('message', (event) => {
  if (event.data === 'skipWaiting') self.skipWaiting();
});

/** The network's answer, or the app shell from the cache when the server cannot be reached. */
async function shell(request) {
  try {
    return await fetch(request);
  } catch (error) {
    const cached = await caches.match(SHELL);
    if (cached) return cached;
    throw error;
  }
}

/** From the cache (the files are named by their content), else the network, kept for next time. */
async function asset(request) {
  const cached = await caches.match(request);
  if (cached) return cached;
  const response = await fetch(request);
  if (response.ok) {
    const copy = response.clone();
    void caches.open(CACHE).then((cache) => cache.put(request, copy));
  }
  return response;
}

self.addEventListener('fetch', (event) => {
  const { request } = event;
  const url = new URL(request.url);
  if (request.method !== 'GET' || url.origin !== self.location.origin || LIVE.test(url.pathname)) return;
  if (request.mode === 'navigate') {
    // The app lives at / (the screens are in the hash); other pages are the server's.
    if (url.pathname === '/' || url.pathname === SHELL) event.respondWith(shell(request));
    return;
  }
  event.respondWith(asset(request));
});

// Web Push (the holder switched it on under My): the server sends each new notice, worded in the
// holder's language, as { title, body, url, tag } (contract/push.ts's PushPayload).
self.addEventListener('push', (event) => {
  let notice;
  try {
    notice = event.data ? event.data.json() : null;
  } catch {
    notice = null;
  }
  if (!notice || typeof notice.title !== 'string') return;
  event.waitUntil(
    self.registration.showNotification(notice.title, {
      body: typeof notice.body === 'string' ? notice.body : '',
      icon: '/icon-192.png',
      badge: '/icon-192.png',
      tag: typeof notice.tag === 'string' ? notice.tag : undefined,
      data: { url: typeof notice.url === 'string' && notice.url.startsWith('/') ? notice.url : '/#/notifications' },
    }),
  );
});

/** Opening a notification: the app's window, focused, at the screen the notice is about. */
self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const url = new URL(event.notification.data?.url ?? '/#/notifications', self.location.origin).href;
  event.waitUntil(
    self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then(async (windows) => {
      const app = windows.find((client) => new URL(client.url).origin === self.location.origin);
      if (!app) return self.clients.openWindow(url);
      // The screens live in the hash: the app moves there itself (lib/serviceWorker.ts), no reload.
      app.postMessage({ type: 'open', url });
      return app.focus();
    }),
  );
});
