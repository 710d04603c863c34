import { lazy } from 'react';
import { useViewPath } from '../shell/KeepAliveOutlet';
import { CONSTANT_VIEWS } from '../shell/constantViews';
import { PagePlaceholder } from './PagePlaceholder';

const ManagePage = lazy(() => import('../workflow/runtime/ManagePage'));

/** Constant routes of spec 2.1 that have their own page; the rest (accept, scan code) until theirs arrive. */
const PAGES: Record<string, () => React.ReactElement> = {
  '/activiti/manage': () => <ManagePage />,
};

export default function ConstantPage() {
  const path = useViewPath();
  const page = PAGES[path];
  if (page) return page();
  const meta = CONSTANT_VIEWS[path];
  return meta ? <PagePlaceholder meta={meta} /> : null;
}
