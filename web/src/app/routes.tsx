import { type ComponentType, Suspense } from 'react';
import { HashRouter, Navigate, Route, Routes } from 'react-router';
import { type LaterComponent, withQueries } from '../api/withQueries.tsx';
import { HomePage } from '../pages/home/HomePage.tsx';
import { sessionStore } from '../session/store.ts';
import { Layout, type RouteMeta } from './Layout.tsx';

type Page = { path: string; meta: RouteMeta; Component: ComponentType | LaterComponent<object> };

/** A page loaded when first visited: its own chunk (with the query cache, see withQueries). */
function later<M>(load: () => Promise<M>, pick: (module: M) => ComponentType): LaterComponent<object> {
  return withQueries(async () => pick(await load()));
}

const signedInOnly = { auth: true };

/**
 * The screens (spec section 2): path, route meta (title key; auth for signed-in only) and the
 * page. Home is in the first download; every other page is a chunk of its own.
 */
export const PAGES: Page[] = [
  { path: 'home', meta: { title: 'title.home' }, Component: HomePage },
  {
    path: 'center',
    meta: { title: 'title.center', ...signedInOnly },
    Component: later(() => import('../pages/center/CenterPage.tsx'), (m) => m.CenterPage),
  },
  {
    path: 'my',
    meta: { title: 'title.my', ...signedInOnly },
    Component: later(() => import('../pages/my/MyPage.tsx'), (m) => m.MyPage),
  },
  {
    path: 'rebate',
    meta: { title: 'title.rebate', ...signedInOnly },
    Component: later(() => import('../pages/rebate/RebatePage.tsx'), (m) => m.RebatePage),
  },
  {
    path: 'thirtydays',
    meta: { title: 'title.thirtydays', ...signedInOnly },
    Component: later(() => import('../pages/thirtydays/ThirtyDaysPage.tsx'), (m) => m.ThirtyDaysPage),
  },
  {
    path: 'wallet',
    meta: { title: 'title.wallet', ...signedInOnly },
    Component: later(() => import('../pages/wallet/WalletPage.tsx'), (m) => m.WalletPage),
  },
  {
    path: 'activity',
    meta: { title: 'activity.title', ...signedInOnly },
    Component: later(() => import('../pages/activity/ActivityPage.tsx'), (m) => m.ActivityPage),
  },
  {
    path: 'income',
    meta: { title: 'title.income', ...signedInOnly },
    Component: later(() => import('../pages/income/IncomePage.tsx'), (m) => m.IncomePage),
  },
  {
    path: 'rates',
    meta: { title: 'title.rates' },
    Component: later(() => import('../pages/rates/RatesPage.tsx'), (m) => m.RatesPage),
  },
  {
    path: 'proof',
    meta: { title: 'proof.title' },
    Component: later(() => import('../pages/proof/ProofPage.tsx'), (m) => m.ProofPage),
  },
  {
    path: 'operator',
    meta: { title: 'title.operator', ...signedInOnly },
    Component: later(() => import('../pages/operator/OperatorPage.tsx'), (m) => m.OperatorPage),
  },
  {
    path: 'statement',
    meta: { title: 'statement.title', ...signedInOnly },
    Component: later(() => import('../pages/statement/StatementPage.tsx'), (m) => m.StatementPage),
  },
  {
    path: 'notifications',
    meta: { title: 'title.notifications', ...signedInOnly, noCache: true },
    Component: later(() => import('../pages/notifications/NotificationsPage.tsx'), (m) => m.NotificationsPage),
  },
  {
    path: 'sessions',
    meta: { title: 'sessions.title', ...signedInOnly },
    Component: later(() => import('../pages/sessions/SessionsPage.tsx'), (m) => m.SessionsPage),
  },
];

/** The route meta of a location's path ("/center" → center's), none for an unknown path. */
const metaOf = (pathname: string): RouteMeta | undefined =>
  PAGES.find((page) => `/${page.path}` === pathname)?.meta;

/**
 * Loads the chunk of the screen a start opens at (its hash), when it is a page loaded on demand
 * that the visitor may see (a signed-in page only when signed in); false when there is none.
 * Rendered after that, the screen's first render suspends on nothing, so it can be a
 * transition (React renders it in slices) without holding a lazy reveal back.
 */
export async function preloadStartPage(hash: string): Promise<boolean> {
  const page = PAGES.find(({ path }) => hash === `#/${path}`);
  if (!page || !('preload' in page.Component)) return false;
  if (page.meta.auth && !sessionStore.token()) return false;
  await page.Component.preload();
  return true;
}

/** While a page's chunk downloads: a blank page of the final size, so nothing jumps. */
const PageLoading = () => <main className="page" aria-busy="true" />;

/**
 * Hash history (spec section 2), declared as elements: the router's data APIs (loaders,
 * actions, fetchers) are not used, and leaving them out halves its download.
 */
export function AppRoutes() {
  return (
    <HashRouter>
      <Routes>
        <Route path="/" element={<Layout metaOf={metaOf} />}>
          <Route index element={<Navigate to="/home" replace />} />
          {PAGES.map(({ path, Component }) => (
            <Route
              key={path}
              path={path}
              element={
                <Suspense fallback={<PageLoading />}>
                  <Component />
                </Suspense>
              }
            />
          ))}
          <Route path="*" element={<Navigate to="/home" replace />} />
        </Route>
      </Routes>
    </HashRouter>
  );
}
