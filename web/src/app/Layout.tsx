import { Activity, type ReactNode, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useMatches, useOutlet } from 'react-router';
import { session } from '../lib/storage.ts';
import type { RouteMeta } from './routes.tsx';

function useRouteMeta(): RouteMeta | undefined {
  const matches = useMatches();
  return matches.at(-1)?.handle as RouteMeta | undefined;
}

/**
 * The root view: sets the title from route meta plus the app name, remembers the route for
 * the next start, and keeps visited views alive (state kept) unless a route says noCache.
 */
export function Layout() {
  // t is re-created on a language change, so the title follows the language.
  const { t } = useTranslation();
  const location = useLocation();
  const outlet = useOutlet();
  const meta = useRouteMeta();
  const views = useRef(new Map<string, ReactNode>());

  useEffect(() => {
    const page = meta ? t(meta.title) : '';
    document.title = page ? `${page} - ${t('app.name')}` : t('app.name');
  }, [meta, t]);

  useEffect(() => {
    session.rememberRoute(location.pathname);
  }, [location.pathname]);

  const cacheable = meta && !meta.noCache;
  if (cacheable) views.current.set(location.pathname, outlet);
  else views.current.delete(location.pathname);

  return (
    <div className="app-shell">
      {[...views.current].map(([path, view]) => (
        <Activity key={path} mode={path === location.pathname ? 'visible' : 'hidden'}>
          {view}
        </Activity>
      ))}
      {!cacheable && outlet}
    </div>
  );
}
