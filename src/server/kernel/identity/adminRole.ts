import type { Queryable } from '../db/database.js';
import { one } from '../db/database.js';
import type { Role } from './roles.js';

/**
 * The administrator role of an organisation, made on first need with every menu id, so a lab's
 * first administrator can open every page and hand out the rest.
 */
export async function ensureAdminRole(db: Queryable, orgId: number): Promise<Role> {
  const existing = await one<Role>(
    db,
    `select id, org_id as "orgId", name, code, menu_ids as "menuIds", description
       from role where org_id = $1 and code = 'admin' order by id limit 1`,
    [orgId],
  );
  if (existing) return existing;
  const created = await one<Role>(
    db,
    `insert into role (org_id, name, code, menu_ids, description)
     values ($1, '管理员', 'admin',
             coalesce((select string_agg(meta_id::text, ',' order by meta_id) from menu where meta_id is not null), ''),
             '实验室管理员，拥有全部菜单')
     returning id, org_id as "orgId", name, code, menu_ids as "menuIds", description`,
    [orgId],
  );
  return created!;
}
