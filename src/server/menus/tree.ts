import type { Queryable } from '../kernel/db/database.js';
import type { MenuMeta, MenuNode } from '../../shared/menu/types.js';

interface MenuRow {
  id: number;
  parentId: number | null;
  path: string;
  meta: MenuMeta;
}

/** The route tree as menu maintenance has left it in the database, in each level's order. */
export async function loadMenuTree(db: Queryable): Promise<MenuNode[]> {
  const rows = await db.query<MenuRow>('select id, parent_id as "parentId", path, meta from menu order by sort, id');
  const children = new Map<number | null, MenuRow[]>();
  for (const row of rows) {
    const list = children.get(row.parentId) ?? [];
    list.push(row);
    children.set(row.parentId, list);
  }
  const build = (parentId: number | null): MenuNode[] =>
    (children.get(parentId) ?? []).map((row) => {
      const kids = build(row.id);
      return kids.length > 0 ? { path: row.path, meta: row.meta, children: kids } : { path: row.path, meta: row.meta };
    });
  return build(null);
}
