import { menuIdsFor } from '../../shared/menu/types.js';
import type { CapabilitySeed } from '../kernel/capability.js';
import type { Queryable } from '../kernel/db/database.js';

/** An admin and an editor role in every organisation; the editor sees the pages not kept to administrators. */
async function seedRoles(tx: Queryable, adminIds: number[], editorIds: number[]) {
  for (const o of await tx.query<{ id: number }>('select id from organization order by id')) {
    await tx.query(
      `insert into role (org_id, name, code, menu_ids, description) values
         ($1, '管理员', 'admin', $2, '实验室管理员，拥有全部菜单'),
         ($1, '检验员', 'editor', $3, '检验与录入人员')
       on conflict (org_id, name) do nothing`,
      [o.id, adminIds.join(','), editorIds.join(',')],
    );
  }
}

export const roleSeed: CapabilitySeed = {
  phase: 'identity',
  demo: (tx, { menus }) => seedRoles(tx, menuIdsFor(menus, 'admin'), menuIdsFor(menus, 'editor')),
};
