import type { MenuNode } from '../generated/menu.js';
import { joinPath } from './types.js';

/** What decides which routes a user sees (spec 2.1, 6). */
export interface MenuAccess {
  /** Meta ids some role of the user lists, minus the user's disabled ones. */
  permittedIds: ReadonlySet<number>;
  /** Role codes of the user (admin, editor). */
  roles: readonly string[];
  /** Routes whose path contains inspectionPlace are dropped when the account does not use places. */
  usePlace: boolean;
}

function visible(node: MenuNode, fullPath: string, access: MenuAccess): boolean {
  const { id, roles } = node.meta;
  if (id !== undefined && !access.permittedIds.has(id)) return false;
  if (roles && roles.length > 0 && !roles.some((r) => access.roles.includes(r))) return false;
  if (!access.usePlace && fullPath.includes('inspectionPlace')) return false;
  return true;
}

/**
 * The route tree a user may open. A section left without children is dropped too: it would be an
 * empty submenu.
 */
export function filterMenus(nodes: readonly MenuNode[], access: MenuAccess, parent = '/'): MenuNode[] {
  const out: MenuNode[] = [];
  for (const node of nodes) {
    const fullPath = joinPath(parent, node.path);
    if (!visible(node, fullPath, access)) continue;
    if (!node.children) {
      out.push(node);
      continue;
    }
    const children = filterMenus(node.children, access, fullPath);
    if (children.length > 0) out.push({ ...node, children });
  }
  return out;
}

/** Full paths of every leaf of a tree: the pages a user can open. */
export function leafPaths(nodes: readonly MenuNode[], parent = '/'): string[] {
  return nodes.flatMap((node) => {
    const fullPath = joinPath(parent, node.path);
    return node.children ? leafPaths(node.children, fullPath) : [fullPath];
  });
}

export function parseMenuIds(list: string | null | undefined): number[] {
  return (list ?? '')
    .split(',')
    .map((s) => Number(s.trim()))
    .filter((n) => Number.isInteger(n) && n > 0);
}

/** Spec 6: a menu is open when some role lists it and the user's disabled ids do not. */
export function permittedMenuIds(roles: readonly { menuIds: string }[], disabledMenuIds: string): number[] {
  const disabled = new Set(parseMenuIds(disabledMenuIds));
  const open = new Set<number>();
  for (const role of roles) for (const id of parseMenuIds(role.menuIds)) if (!disabled.has(id)) open.add(id);
  return [...open].sort((a, b) => a - b);
}
