import { lazy, Suspense, type ReactNode } from 'react';
import { createBrowserRouter, Navigate } from 'react-router';
import { LoginPage } from '../auth/LoginPage';
import { CONSTANT_PAGES, type ConstantPage } from '../pages/registry';
import { RequireAuth } from './RequireAuth';
import { AntdRoot, MenuPage, preloadSignedIn, SignedIn } from './preload';

// The login page ships alone; antd, the shell and the pages load after sign-in (bench: JS per route).
const ErrorPage = lazy(() => import('../errors/ErrorPage'));
const PagePlaceholder = lazy(() => import('../pages/PagePlaceholder'));
const Redirect = lazy(() => import('../pages/Redirect'));

const later = (node: ReactNode) => <Suspense fallback={<div className="page-loading" />}>{node}</Suspense>;
const withAntd = (node: ReactNode) => later(<AntdRoot>{node}</AntdRoot>);

/** A constant route: its own page, or its title on a placeholder until the page is written. */
const constantRoute = ({ path, component: Page, constant }: ConstantPage) => ({
  path: path.slice(1),
  element: later(Page ? <Page basic={false} /> : <PagePlaceholder meta={constant} />),
});

/**
 * Spec 2.1: /login, /404, /401 and /auth-redirect need no token; everything else goes through the
 * token check and the page-entry flow, then the shell. Menu pages resolve against the user's routes.
 */
export const router = createBrowserRouter([
  { path: '/login', element: <LoginPage preload={preloadSignedIn} /> },
  { path: '/auth-redirect', element: <Navigate to="/login" replace /> },
  { path: '/404', element: withAntd(<ErrorPage status={404} />) },
  { path: '/401', element: withAntd(<ErrorPage status={401} />) },
  {
    path: '/',
    element: <RequireAuth>{withAntd(<SignedIn />)}</RequireAuth>,
    children: [
      { index: true, element: <Navigate to="/dashboard" replace /> },
      ...CONSTANT_PAGES.map(constantRoute),
      { path: 'redirect/*', element: later(<Redirect />) },
      { path: '*', element: later(<MenuPage />) },
    ],
  },
]);
