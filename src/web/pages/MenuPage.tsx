import { lazy } from 'react';
import { useSnapshot } from 'valtio';
import { findRoute, routeState } from '../permissions/routes';
import { useViewPath } from '../shell/KeepAliveOutlet';
import PagePlaceholder from './PagePlaceholder';
import { MENU_PAGES } from './registry';

const ScreenPage = lazy(() => import('../screens/ScreenPage'));
// Shown only for a path the user may not open: not fetched with every page.
const ErrorPage = lazy(() => import('../errors/ErrorPage'));

/** Any path of the menu tree: the user's page when they may open it, else 401 (exists) or 404 (does not). */
export default function MenuPage() {
  const path = useViewPath();
  const { routes, denied } = useSnapshot(routeState);
  const entry = findRoute(routes as typeof routeState.routes, path);
  const page = entry?.isLeaf ? MENU_PAGES.get(entry.fullPath) : undefined;
  if (entry && page) return <page.component basic={entry.meta.isBasic === true} />;
  if (entry?.isLeaf && entry.meta.screen)
    return <ScreenPage screenId={entry.meta.screen} basic={entry.meta.isBasic === true} />;
  if (entry?.isLeaf) return <PagePlaceholder meta={entry.meta} />;
  if (denied.includes(path)) return <ErrorPage status={401} />;
  return <ErrorPage status={404} />;
}
