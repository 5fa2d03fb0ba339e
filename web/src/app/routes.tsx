import { createHashRouter, Navigate, type RouteObject } from 'react-router';
import { HomePage } from '../pages/home/HomePage.tsx';
import { Layout, type RouteMeta } from './Layout.tsx';

const meta = (title: string, options: Omit<RouteMeta, 'title'> = {}): { handle: RouteMeta } => ({
  handle: { title, ...options },
});
const signedInOnly = { auth: true };

const routes: RouteObject[] = [
  {
    path: '/',
    element: <Layout />,
    children: [
      { index: true, element: <Navigate to="/home" replace /> },
      { path: 'home', element: <HomePage />, ...meta('title.home') },
      {
        path: 'center',
        lazy: async () => ({ Component: (await import('../pages/center/CenterPage.tsx')).CenterPage }),
        ...meta('title.center', signedInOnly),
      },
      {
        path: 'my',
        lazy: async () => ({ Component: (await import('../pages/my/MyPage.tsx')).MyPage }),
        ...meta('title.my', signedInOnly),
      },
      {
        path: 'rebate',
        lazy: async () => ({ Component: (await import('../pages/rebate/RebatePage.tsx')).RebatePage }),
        ...meta('title.rebate', signedInOnly),
      },
      {
        path: 'thirtydays',
        lazy: async () => ({
          Component: (await import('../pages/thirtydays/ThirtyDaysPage.tsx')).ThirtyDaysPage,
        }),
        ...meta('title.thirtydays', signedInOnly),
      },
      {
        path: 'wallet',
        lazy: async () => ({ Component: (await import('../pages/wallet/WalletPage.tsx')).WalletPage }),
        ...meta('title.wallet', signedInOnly),
      },
      {
        path: 'activity',
        lazy: async () => ({ Component: (await import('../pages/activity/ActivityPage.tsx')).ActivityPage }),
        ...meta('activity.title', signedInOnly),
      },
      {
        path: 'income',
        lazy: async () => ({ Component: (await import('../pages/income/IncomePage.tsx')).IncomePage }),
        ...meta('title.income', signedInOnly),
      },
      {
        path: 'rates',
        lazy: async () => ({ Component: (await import('../pages/rates/RatesPage.tsx')).RatesPage }),
        ...meta('title.rates'),
      },
      {
        path: 'proof',
        lazy: async () => ({ Component: (await import('../pages/proof/ProofPage.tsx')).ProofPage }),
        ...meta('proof.title'),
      },
      {
        path: 'operator',
        lazy: async () => ({ Component: (await import('../pages/operator/OperatorPage.tsx')).OperatorPage }),
        ...meta('title.operator', signedInOnly),
      },
      {
        path: 'statement',
        lazy: async () => ({ Component: (await import('../pages/statement/StatementPage.tsx')).StatementPage }),
        ...meta('statement.title', signedInOnly),
      },
      {
        path: 'sessions',
        lazy: async () => ({ Component: (await import('../pages/sessions/SessionsPage.tsx')).SessionsPage }),
        ...meta('sessions.title', signedInOnly),
      },
      { path: '*', element: <Navigate to="/home" replace /> },
    ],
  },
];

export const createRouter = () => createHashRouter(routes);
