import { proxy, ref } from 'valtio';
import { getResult } from '../api/http';
import { filterMenus, leafPaths, permittedMenuIds } from '../../shared/menu/filter';
import { joinPath, type MenuMeta, type MenuNode } from '../../shared/menu/types';
import type { UserInfo } from '../auth/user';

/**
 * The routes this user may open, built at page entry (spec 4) and read by sidebar, search, tabs and pages.
 * The tree is replaced whole, never changed in place: held as a ref, so that valtio does not make a proxy
 * of each of its hundreds of nodes at sign-in, nor each render walking it a tracking proxy per node.
 */
export const routeState = proxy({
  built: false,
  routes: [] as MenuNode[],
  /** Pages that exist but are closed to this user: typed in, they answer the 401 page. */
  denied: [] as string[],
});

/**
 * Spec 6 on the client: role menuIds minus disabled ids, route roles, and usePlace. `granted` are the
 * ids of routes that screen files add, which the server opened wherever their parent is open.
 */
export function buildRoutes(
  tree: MenuNode[],
  info: Pick<UserInfo, 'roleList' | 'disabledMenu' | 'usePlace'>,
  granted: readonly number[] = [],
): MenuNode[] {
  return filterMenus(tree, {
    permittedIds: new Set([...permittedMenuIds(info.roleList, info.disabledMenu), ...granted]),
    roles: info.roleList.map((r) => r.code),
    usePlace: info.usePlace,
  });
}

export interface MenuResponse {
  routes: MenuNode[];
  denied: string[];
  granted?: number[];
}

export function fetchMenu(): Promise<MenuResponse> {
  return getResult<MenuResponse>('/api/ui/menu');
}

/** Filters the server's tree for this user and makes it the app's route table. */
export function applyRoutes(menu: MenuResponse, info: UserInfo): MenuNode[] {
  const routes = buildRoutes(menu.routes, info, menu.granted);
  const open = new Set(leafPaths(routes));
  routeState.routes = ref(routes);
  routeState.denied = [...menu.denied, ...leafPaths(menu.routes).filter((p) => !open.has(p))];
  routeState.built = true;
  return routes;
}

export function resetRoutes() {
  routeState.built = false;
  routeState.routes = ref([]);
  routeState.denied = [];
}

/** A page of the tree with the chain of titled nodes above it (for breadcrumb, search labels and tabs). */
export interface RouteEntry {
  fullPath: string;
  meta: MenuMeta;
  chain: MenuMeta[];
  isLeaf: boolean;
}

/**
 * Every entry of a route tree, made once per tree: shell, breadcrumb, search and dashboard ask at each
 * render, and the tree is replaced whole when it changes (a ref), so the same tree has the same entries.
 */
const flattened = new WeakMap<readonly MenuNode[], RouteEntry[]>();

export function flattenRoutes(nodes: readonly MenuNode[]): RouteEntry[] {
  let entries = flattened.get(nodes);
  if (!entries) flattened.set(nodes, (entries = entriesOf(nodes, '/', [])));
  return entries;
}

function entriesOf(nodes: readonly MenuNode[], parent: string, chain: MenuMeta[]): RouteEntry[] {
  return nodes.flatMap((node) => {
    const fullPath = joinPath(parent, node.path);
    const here = [...chain, node.meta];
    const entry: RouteEntry = { fullPath, meta: node.meta, chain: here, isLeaf: !node.children };
    return [entry, ...entriesOf(node.children ?? [], fullPath, here)];
  });
}

export function findRoute(routes: readonly MenuNode[], path: string): RouteEntry | undefined {
  const clean = path.replace(/\/+$/, '') || '/';
  return flattenRoutes(routes).find((r) => r.fullPath === clean);
}
