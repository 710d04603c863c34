import type { MenuNode } from '../generated/menu.js';

/** Route meta of spec 2.1 and the route tree of spec 2.2, typed from schemas/menu.schema.json. */
export type { MenuFile, MenuMeta, MenuNode } from '../generated/menu.js';

/** A node's path joined to its parents', as the browser's address bar shows it. */
export function joinPath(parent: string, path: string): string {
  if (path.startsWith('/')) return path;
  return `${parent.replace(/\/$/, '')}/${path}`;
}

export interface FlatMenu {
  fullPath: string;
  parentPath: string | null;
  node: MenuNode;
  sort: number;
}

/** Depth-first, parents before children. */
export function flattenMenus(nodes: MenuNode[], parentPath: string | null = null): FlatMenu[] {
  return nodes.flatMap((node, sort) => {
    const fullPath = joinPath(parentPath ?? '/', node.path);
    return [{ fullPath, parentPath, node, sort }, ...flattenMenus(node.children ?? [], fullPath)];
  });
}

/** Meta ids of every route a role may open: all of them, or those not marked admin-only. */
export function menuIdsFor(routes: MenuNode[], role: 'admin' | 'editor'): number[] {
  return flattenMenus(routes)
    .filter(
      ({ node }) =>
        node.meta.id !== undefined && (role === 'admin' || !node.meta.roles || node.meta.roles.includes(role)),
    )
    .map(({ node }) => node.meta.id!);
}
