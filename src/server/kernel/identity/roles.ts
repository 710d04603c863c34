import type { Queryable } from '../db/database.js';

export { parseMenuIds as parseIds, permittedMenuIds } from '../../../shared/menu/filter.js';

/** A role as spec 3 shows it: menuIds is the comma-separated list of menu meta ids it opens. */
export interface Role {
  id: number;
  orgId: number;
  name: string;
  code: string;
  menuIds: string;
  description: string | null;
}

const ROLE_COLUMNS = `r.id, r.org_id as "orgId", r.name, r.code, r.menu_ids as "menuIds", r.description`;

export function rolesOfOrg(db: Queryable, orgId: number): Promise<Role[]> {
  return db.query<Role>(`select ${ROLE_COLUMNS} from role r where r.org_id = $1 order by r.id`, [orgId]);
}

export function rolesOfUser(db: Queryable, userId: number): Promise<Role[]> {
  return db.query<Role>(
    `select ${ROLE_COLUMNS} from role r join user_role ur on ur.role_id = r.id where ur.user_id = $1 order by r.id`,
    [userId],
  );
}
