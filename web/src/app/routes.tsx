import { type ComponentType, Suspense } from 'react';
import { HashRouter, Navigate, Route, Routes } from 'react-router';
import { PRODUCT_REGISTRY } from '../../../contract/productRegistry.ts';
import { withQueries } from '../api/withQueries.tsx';
import { HomePage } from '../pages/home/HomePage.tsx';
import { Layout, type RouteMeta } from './Layout.tsx';

type Page = { path: string; meta: RouteMeta; Component: ComponentType };

/** A page loaded when first visited: its own chunk (with the query cache, see withQueries). */
function later<M>(load: () => Promise<M>, pick: (module: M) => ComponentType): ComponentType {
  return withQueries(async () => pick(await load()));
}

const signedInOnly = { auth: true };
/** The term of the product the fixed-term record opens on: the first fixed-term one. */
const recordDays = Object.values(PRODUCT_REGISTRY).find((product) => product.kind === 'fixed')?.termDays ?? 0;

/**
 * The screens (spec section 2): path, route meta (title key; auth for signed-in only) and the
 * page. Home is in the first download; every other page is a chunk of its own.
 */
const PAGES: Page[] = [
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
    meta: { title: 'title.thirtydays', titleValues: { days: recordDays }, ...signedInOnly },
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
