import { Activity, lazy, type ReactNode, Suspense, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation, useOutlet } from 'react-router';
import { TabBar, isTabRoot } from '../components/TabBar.tsx';
import { useOffline } from '../lib/connectivity.ts';
import { useUpdateReady } from '../lib/serviceWorker.ts';
import { session, storage } from '../lib/storage.ts';
import { useSignedIn } from '../session/store.ts';

// Shown only offline or with an update waiting: loaded then (the service worker keeps them).
const AppNotices = lazy(async () => ({ default: (await import('../components/AppNotices.tsx')).AppNotices }));

/**
 * Route meta (spec section 2), set on the pages in routes.tsx: the title key, and noCache for
 * views that must not be kept.
 */
export type RouteMeta = { title: string; titleValues?: Record<string, number>; noCache?: boolean; auth?: boolean };

/** The server runs as a public demo (DEMO=true) and marks the page it serves: every screen says so. */
const demo = document.documentElement.dataset.demo === 'true';

/**
 * The root view: sets the title from route meta plus the app name, remembers the route for
 * the next start, and keeps visited views alive (state kept) unless a route says noCache.
 */
export function Layout({ metaOf }: { metaOf: (pathname: string) => RouteMeta | undefined }) {
  // t is re-created on a language change, so the title follows the language.
  const { t } = useTranslation();
  const location = useLocation();
  const outlet = useOutlet();
  const meta = metaOf(location.pathname);
  const views = useRef(new Map<string, ReactNode>());
  const signedIn = useSignedIn();
  const offline = useOffline();
  const updateReady = useUpdateReady();

  useEffect(() => {
    const page = meta ? t(meta.title, meta.titleValues ?? {}) : '';
    document.title = page ? `${page} - ${t('app.name')}` : t('app.name');
  }, [meta, t]);

  useEffect(() => {
    session.rememberRoute(location.pathname);
  }, [location.pathname]);

  if (meta?.auth && !signedIn) {
    // Back to home, which starts authorisation and returns here afterwards.
    storage.set('redirectRefer', location.pathname);
    return <Navigate to="/home" replace />;
  }

  // Signed out: views kept from the session that ended must not come back.
  if (!signedIn) for (const path of views.current.keys()) if (path !== location.pathname) views.current.delete(path);

  const cacheable = meta && !meta.noCache;
  if (cacheable) views.current.set(location.pathname, outlet);
  else views.current.delete(location.pathname);

  // Offline, every screen stays as it is, on the figures saved on the device (its header says
  // from when: components/SavedFigures.tsx).
  const tabs = isTabRoot(location.pathname);
  return (
    <div className={tabs ? 'app-shell app-shell--tabs' : 'app-shell'}>
      {demo && (
        <p className="notice notice--demo" role="note">
          {t('demo.banner')}
        </p>
      )}
      {(offline || updateReady) && (
        <Suspense fallback={null}>
          <AppNotices />
        </Suspense>
      )}
      {[...views.current].map(([path, view]) => (
        <Activity key={path} mode={path === location.pathname ? 'visible' : 'hidden'}>
          {view}
        </Activity>
      ))}
      {!cacheable && outlet}
      {tabs && <TabBar />}
    </div>
  );
}
