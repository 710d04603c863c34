import { lazy } from 'react';
import { useSnapshot } from 'valtio';
import ErrorPage from '../errors/ErrorPage';
import { findRoute, routeState } from '../permissions/routes';
import { useViewPath } from '../shell/KeepAliveOutlet';
import { PagePlaceholder } from './PagePlaceholder';

const ScreenPage = lazy(() => import('../screens/ScreenPage'));
const ModelListPage = lazy(() => import('../workflow/ModelListPage'));
const FormDataDemoPage = lazy(() => import('../workflow/runtime/FormDataDemoPage'));

/** Hand-written pages, keyed by the menu path they answer (spec 2.4 workflow design, the form data demo). */
const HAND_WRITTEN: Record<string, (meta: { isBasic?: boolean }) => React.ReactElement> = {
  '/groupManager/publicWorkflow/workflowDesign': (meta) => <ModelListPage basic={meta.isBasic === true} />,
  '/laboratoryManager/form/workflowDesign': (meta) => <ModelListPage basic={meta.isBasic === true} />,
  '/laboratoryManager/form/formDataDemo': () => <FormDataDemoPage />,
};

/** Any path of the menu tree: the user's page when they may open it, else 401 (exists) or 404 (does not). */
export default function MenuPage() {
  const path = useViewPath();
  const { routes, denied } = useSnapshot(routeState);
  const entry = findRoute(routes as typeof routeState.routes, path);
  const page = entry?.isLeaf ? HAND_WRITTEN[entry.fullPath] : undefined;
  if (entry && page) return page(entry.meta);
  if (entry?.isLeaf && entry.meta.screen)
    return <ScreenPage screenId={entry.meta.screen} basic={entry.meta.isBasic === true} />;
  if (entry?.isLeaf) return <PagePlaceholder meta={entry.meta} />;
  if (denied.includes(path)) return <ErrorPage status={401} />;
  return <ErrorPage status={404} />;
}
