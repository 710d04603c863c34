import type { FastifyInstance } from 'fastify';
import { filterMenus, leafPaths, permittedMenuIds } from '../../shared/menu/filter.js';
import { flattenMenus, type MenuNode } from '../../shared/menu/types.js';
import type { ScreenSchema } from '../../shared/screens/fields.js';
import type { Kernel } from '../kernel/context.js';
import { notFound, ok } from '../kernel/http/envelope.js';
import { actorOf } from '../kernel/http/request.js';
import type { AuthUser } from '../kernel/identity/actor.js';
import type { Shape } from '../kernel/db/readCache.js';
import { loadMenuTree } from './tree.js';
import { getOrganization } from '../kernel/identity/organizations.js';
import { rolesOfUser } from '../kernel/identity/roles.js';
import { getUser } from '../kernel/identity/accounts.js';

/**
 * Ties screens to the menu tree: a route whose meta id is a screen's menuId gets meta.screen; a screen
 * that declares its own menu entry gets a route under its parent. Answers the ids that such screen
 * routes add, opened wherever their parent is open.
 */
export function attachScreens(
  tree: MenuNode[],
  screens: ScreenSchema[],
): { tree: MenuNode[]; added: Map<number, number> } {
  const byMenuId = new Map(
    screens.flatMap((s) =>
      [...(s.menuId !== undefined ? [s.menuId] : []), ...(s.alsoMenuIds ?? [])].map((id) => [id, s] as const),
    ),
  );
  // Each screen that declares its own entry, by the parent it goes under; one already in the tree is not added.
  const inTree = new Set(flattenMenus(tree).flatMap(({ node }) => node.meta.id ?? []));
  const declared = new Map<number, ScreenSchema[]>();
  for (const s of screens)
    if (s.menu && s.menuId !== undefined && !inTree.has(s.menuId))
      declared.set(s.menu.parentId, [...(declared.get(s.menu.parentId) ?? []), s]);
  const added = new Map<number, number>();
  const walk = (nodes: MenuNode[]): MenuNode[] =>
    nodes.map((node) => {
      const screen = node.meta.id !== undefined ? byMenuId.get(node.meta.id) : undefined;
      const extra = (node.meta.id !== undefined ? (declared.get(node.meta.id) ?? []) : []).map((s): MenuNode => {
        added.set(s.menuId!, node.meta.id!);
        return {
          path: s.menu!.path,
          meta: {
            id: s.menuId,
            title: s.title,
            icon: s.menu!.icon,
            roles: s.permissions?.read,
            keepAlive: true,
            screen: s.id,
            description: s.description,
          },
        };
      });
      const children = node.children ? [...walk(node.children), ...extra] : extra.length > 0 ? extra : undefined;
      const meta = screen ? { ...node.meta, screen: screen.id } : node.meta;
      return children ? { ...node, meta, children } : { ...node, meta };
    });
  return { tree: walk(tree), added };
}

/**
 * The tables a user's menu is made of (the tree, their roles, account and organisation; not the account's
 * lock): kept across other writes, a sign-in's among them, it is read at every page entry. A changed screen
 * file forgets it too (resources/routes.ts).
 */
const MENU_SHAPE: Shape = {
  tables: ['menu', 'role', 'user_role', 'app_user', 'organization'],
  mostAgeMs: 10 * 60_000,
};

export async function userMenuRoutes(app: FastifyInstance, ctx: Kernel) {
  /**
   * GET /api/ui/menu: the route tree filtered for the caller (role menuIds minus disabled ids, roles,
   * usePlace), and the paths that exist but are closed to them, so the app can answer 401 rather than 404.
   */
  app.get('/api/ui/menu', async (request) => {
    const actor = actorOf(request);
    const menu = await ctx.reads.read(
      `menu:${actor.id}:${actor.orgId}:${actor.roles.join()}`,
      () => menuOf(ctx, actor),
      MENU_SHAPE,
    );
    if (!menu) throw notFound();
    return ok(menu);
  });
}

/** The user's routes (spec 6), the paths closed to them, and the screen routes opened by their parents; none for an unknown user. */
async function menuOf(ctx: Kernel, actor: AuthUser) {
  const [user, org, roles, stored] = await Promise.all([
    getUser(ctx.db, actor.id),
    getOrganization(ctx.db, actor.orgId),
    rolesOfUser(ctx.db, actor.id),
    loadMenuTree(ctx.db),
  ]);
  if (!user || !org) return undefined;
  const { tree, added } = attachScreens(stored, ctx.screens.list());
  const permitted = new Set(permittedMenuIds(roles, user.disabledMenuIds));
  // Screen routes open wherever their parent is open (unless disabled for the user); the app is told which.
  const granted = [...added].filter(
    ([id, parent]) => permitted.has(parent) && !user.disabledMenuIds.split(',').includes(String(id)),
  );
  for (const [id] of granted) permitted.add(id);
  const routes = filterMenus(tree, { permittedIds: permitted, roles: actor.roles, usePlace: org.usePlace });
  const open = new Set(leafPaths(routes));
  return { routes, denied: leafPaths(tree).filter((p) => !open.has(p)), granted: granted.map(([id]) => id) };
}
