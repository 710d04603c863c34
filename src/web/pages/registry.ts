import { createElement, lazy, type ComponentType } from 'react';
import { lazyCode } from './lazyCode';
import type { MenuMeta } from '../../shared/menu/types';

/** What a hand-written page is told: the route's isBasic flag (spec 6: the base organisation's data). */
export interface PageProps {
  basic: boolean;
}

export type PageComponent = ComponentType<PageProps>;

/**
 * A page written by hand rather than drawn from a screen schema. The route table, the menu pages and
 * the tab bar all read this list, so a page is added here once and nowhere else.
 */
export interface HandWrittenPage {
  /** The full path the page answers. */
  path: string;
  /** Loaded when first opened; none yet means a placeholder with the page's title stands in. */
  component?: PageComponent;
  /**
   * A constant route of spec 2.1, which every signed-in user has outside the permission-filtered
   * menu: its title and tab flags. Without it the path is a page of the menu tree, titled by the
   * menu and open to those whose menu holds it.
   */
  constant?: MenuMeta;
}

const title = (zh: string, en: string) => ({ 'zh-CN': zh, 'en-US': en });
/** A constant route drawn by a screen schema (no code of its own): the generic page with that screen. */
const screenPage = (screenId: string): PageComponent =>
  lazy(() =>
    import('../screens/ScreenPage').then(({ default: ScreenPage }) => ({
      default: ({ basic }: PageProps) => createElement(ScreenPage, { screenId, basic }),
    })),
  );
// Both workflow-design routes show the model list (the public platform's and the lab's).
const ModelListPage = lazy(() => import('../workflow/ModelListPage'));

/** The first page after sign-in: preloaded while the user types (app/preload.ts). */
export const DashboardPage = lazyCode(() => import('../dashboard/DashboardPage'));

export const PAGES: readonly HandWrittenPage[] = [
  {
    path: '/dashboard',
    component: DashboardPage,
    constant: { title: title('首页', 'Dashboard'), affix: true },
  },
  {
    path: '/profile',
    component: lazy(() => import('./ProfilePage')),
    constant: { title: title('个人中心', 'Profile'), noCache: true },
  },
  {
    path: '/activiti/manage',
    component: lazy(() => import('../workflow/runtime/ManagePage')),
    constant: { title: title('流程管理', 'Workflow manager') },
  },
  // Spec 2.1's bench pages, for a scanner: the specimen-accept and specimen-scan screens.
  {
    path: '/frontInpuit/accept',
    component: screenPage('specimen-accept'),
    constant: { title: title('标本接收', 'Accept'), noCache: true },
  },
  {
    path: '/frontInpuit/scanCode',
    component: screenPage('specimen-scan'),
    constant: { title: title('扫码接收', 'Scan code'), noCache: true },
  },
  { path: '/groupManager/publicWorkflow/workflowDesign', component: ModelListPage },
  { path: '/laboratoryManager/form/workflowDesign', component: ModelListPage },
  {
    path: '/laboratoryManager/form/formDataDemo',
    component: lazy(() => import('../workflow/runtime/FormDataDemoPage')),
  },
];

export type ConstantPage = HandWrittenPage & { constant: MenuMeta };

/** The constant routes, in the order their affix tabs take. */
export const CONSTANT_PAGES: readonly ConstantPage[] = PAGES.filter((p): p is ConstantPage => !!p.constant);

/** A constant route's title and tab flags. */
export function constantView(path: string): MenuMeta | undefined {
  return CONSTANT_PAGES.find((p) => p.path === path)?.constant;
}

type MenuPage = HandWrittenPage & { component: PageComponent };

/** The hand-written pages of menu paths, by path (a menu path without one shows its screen or a placeholder). */
export const MENU_PAGES: ReadonlyMap<string, MenuPage> = new Map(
  PAGES.filter((p): p is MenuPage => !!p.component && !p.constant).map((p) => [p.path, p]),
);
