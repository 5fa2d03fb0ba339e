import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { AppRoutes } from './app/routes.tsx';
import { initI18n } from './i18n/index.ts';
import { applyFirstLoad } from './lib/firstLoad.ts';
import { registerServiceWorker } from './lib/serviceWorker.ts';
import { session, storage } from './lib/storage.ts';
// The library's theme variables: components are imported one by one (their own modules), so
// the package index that would bring these in is never loaded.
import 'antd-mobile/es/global';
import './styles.css';


/**
 * Spec section 2: the last visited route is restored on the next start of the app; else the
 * root opens home. Set before the first render, so the router does not render a redirect first.
 */
function restorePreviousRoute(): void {
  const previous = session.previousRoute();
  const atRoot = location.hash === '' || location.hash === '#' || location.hash === '#/';
  if (atRoot) history.replaceState(null, '', `#${previous && previous !== '/' ? previous : '/home'}`);
}

/** Back from the exchange: the code is stored, so take it out of the address bar. */
function leaveNoCodeInAddressBar(query: URLSearchParams): boolean {
  if (!query.has('code') && !query.has('state')) return false;
  history.replaceState(null, '', `${location.pathname}#/home`);
  return true;
}

async function start(): Promise<void> {
  const query = applyFirstLoad(location.href, storage);
  if (!leaveNoCodeInAddressBar(query)) restorePreviousRoute();
  await initI18n();
  const root = document.getElementById('root');
  if (!root) throw new Error('no #root');
  // Home (in the first download, no lazy screen) renders as a transition: React then renders it
  // in slices of a few milliseconds instead of one long task. Any other screen does not: a
  // transition would hold each lazy screen's reveal back (React batches them), so a reloaded
  // screen showed its figures later (the team journey timed out on it).
  const app = createRoot(root);
  const render = () =>
    app.render(
      <StrictMode>
        <AppRoutes />
      </StrictMode>,
    );
  if (location.hash === '#/home') startTransition(render);
  else render();
}

registerServiceWorker();
// In a task after the modules' evaluation: both in one were a long task of the main thread.
setTimeout(() => void start(), 0);
