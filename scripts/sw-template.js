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
