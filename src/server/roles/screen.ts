import type { FastifyInstance } from 'fastify';
import { parseMenuIds } from '../../shared/menu/filter.js';
import type { RecordValues } from '../../shared/screens/predicate.js';
import { screenMessage } from '../../shared/screens/messages.js';
import type { Kernel } from '../kernel/context.js';
import type { Queryable } from '../kernel/db/database.js';
import { one } from '../kernel/db/database.js';
import { isUniqueViolation } from '../kernel/db/errors.js';
import { forbidden, InvalidRecord, ok } from '../kernel/http/envelope.js';
import { actorOf } from '../kernel/http/request.js';
import { appendLog } from '../kernel/audit/log.js';
import { hasRole } from '../../shared/access/can.js';
import type { Call, TableAdapter, TableRecord, TableResource } from '../kernel/resources/tables.js';

/**
 * Roles of a laboratory (spec 3, 6): the role list (name, type, description) and menu assignment, where
 * the role's menuIds (comma-separated meta ids) decide which routes its users see.
 */
interface RoleRow {
  id: number;
  name: string;
  code: string;
  menuIds: string;
  description: string | null;
  userCount: number;
}

const ROLE_SELECT = `select r.id, r.name, r.code, r.menu_ids as "menuIds", r.description,
  (select count(*)::int from user_role ur where ur.role_id = r.id) as "userCount" from role r`;

function roleRecord(row: RoleRow): TableRecord {
  const menuIds = parseMenuIds(row.menuIds);
  return {
    id: row.id,
    version: 0,
    name: row.name,
    code: row.code,
    description: row.description ?? undefined,
    userCount: row.userCount,
    menuIds,
    menuCount: menuIds.length,
  };
}

async function listRoles(
  db: Queryable,
  orgId: number,
  q: Record<string, string | undefined>,
  page: { page: number; size: number },
) {
  const params = [orgId, q.name || null, q.code || null];
  const where = `r.org_id = $1 and ($2::text is null or r.name ilike '%' || $2 || '%') and ($3::text is null or r.code = $3)`;
  const total = await one<{ n: number }>(db, `select count(*)::int as n from role r where ${where}`, params);
  const rows = await db.query<RoleRow>(
    `${ROLE_SELECT} where ${where} order by r.id limit ${page.size} offset ${(page.page - 1) * page.size}`,
    params,
  );
  return { records: rows.map(roleRecord), total: total?.n ?? 0 };
}

async function getRole(db: Queryable, orgId: number, id: number) {
  const row = await one<RoleRow>(db, `${ROLE_SELECT} where r.org_id = $1 and r.id = $2`, [orgId, id]);
  return row && roleRecord(row);
}

/** The meta ids of the menu tree with each one's parent, to keep a granted page's sections granted too. */
async function menuParents(db: Queryable): Promise<Map<number, number | null>> {
  const rows = await db.query<{ id: number; parentId: number | null }>(
    `select m.meta_id as id, p.meta_id as "parentId" from menu m left join menu p on p.id = m.parent_id where m.meta_id is not null`,
  );
  return new Map(rows.map((r) => [r.id, r.parentId]));
}

/** Known ids only, each with its ancestors, sorted: what the sidebar filter needs to show the pages. */
export async function withAncestors(db: Queryable, ids: number[]): Promise<number[]> {
  const parents = await menuParents(db);
  const out = new Set<number>();
  for (const id of ids) {
    for (let at: number | null | undefined = id; at != null && parents.has(at) && !out.has(at); at = parents.get(at))
      out.add(at);
  }
  return [...out].sort((a, b) => a - b);
}

function nameTaken(call: Call, value: unknown): InvalidRecord {
  const label = call.screen.fields.find((f) => f.key === 'name')?.label[call.locale] ?? 'name';
  return new InvalidRecord([
    {
      field: 'name',
      key: 'field.unique',
      message: screenMessage('field.unique', call.locale, { label, value: String(value) }),
    },
  ]);
}

const roleLog = (db: Queryable) => (call: Call, action: string, id: number, before?: unknown, after?: unknown) =>
  appendLog(db, call.actor, { resource: 'role', recordId: id, action, before, after, ip: call.ip });

/** Roles of a laboratory, and role assign, where only the menus of a role change. */
export const ROLE_TABLES: TableResource[] = [
  {
    resource: 'role',
    adapter({ db }: Kernel): TableAdapter {
      const log = roleLog(db);
      return {
        list: (call, q, page) => listRoles(db, call.actor.orgId, q, page),
        get: (call, id) => getRole(db, call.actor.orgId, id),
        async create(call, data: RecordValues) {
          try {
            const row = await one<{ id: number }>(
              db,
              `insert into role (org_id, name, code, description) values ($1, $2, $3, $4) returning id`,
              [call.actor.orgId, String(data.name).trim(), data.code, data.description ?? null],
            );
            await log(call, 'create', row!.id, undefined, data);
            return (await getRole(db, call.actor.orgId, row!.id))!;
          } catch (error) {
            if (isUniqueViolation(error)) throw nameTaken(call, data.name);
            throw error;
          }
        },
        async update(call, current, data) {
          try {
            await db.query(
              `update role set name = $3, code = $4, description = $5, updated_at = now() where org_id = $1 and id = $2`,
              [call.actor.orgId, current.id, String(data.name).trim(), data.code, data.description ?? null],
            );
          } catch (error) {
            if (isUniqueViolation(error)) throw nameTaken(call, data.name);
            throw error;
          }
          await log(
            call,
            'update',
            current.id,
            { name: current.name, code: current.code, description: current.description },
            data,
          );
          return (await getRole(db, call.actor.orgId, current.id))!;
        },
        async remove(call, current) {
          // Removing a role one holds oneself could shut the last administrator out of this page.
          const own = await db.query('select 1 from user_role where role_id = $1 and user_id = $2', [
            current.id,
            call.actor.id,
          ]);
          if (own.length > 0) throw forbidden();
          await db.query('delete from role where org_id = $1 and id = $2', [call.actor.orgId, current.id]);
          await log(call, 'delete', current.id, current);
        },
      };
    },
  },
  {
    resource: 'roleMenu',
    adapter({ db }: Kernel): TableAdapter {
      const log = roleLog(db);
      return {
        list: (call, q, page) => listRoles(db, call.actor.orgId, q, page),
        get: (call, id) => getRole(db, call.actor.orgId, id),
        async update(call, current, data) {
          const ids = await withAncestors(db, (Array.isArray(data.menuIds) ? data.menuIds : []).map(Number));
          await db.query(`update role set menu_ids = $3, updated_at = now() where org_id = $1 and id = $2`, [
            call.actor.orgId,
            current.id,
            ids.join(','),
          ]);
          await log(call, 'assignMenus', current.id, { menuIds: current.menuIds }, { menuIds: ids });
          return (await getRole(db, call.actor.orgId, current.id))!;
        },
      };
    },
  },
];

/** The menu tree the role assign screen checks menus in. */
export async function roleRoutes(app: FastifyInstance, ctx: Kernel) {
  const { db } = ctx;
  /** Every menu of the tree as a node (id = meta id), titled in the caller's language, for the menu checkboxes. */
  app.get('/api/resources/menuTree', async (request) => {
    if (!hasRole(actorOf(request), ['admin'])) throw forbidden();
    const rows = await db.query<{ id: number; parentId: number | null; title: Record<string, string> }>(
      `select m.meta_id as id, p.meta_id as "parentId", m.meta->'title' as title
         from menu m left join menu p on p.id = m.parent_id where m.meta_id is not null order by m.sort, m.id`,
    );
    const records = rows.map((r) => ({
      id: r.id,
      version: 0,
      parentId: r.parentId,
      name: r.title[request.locale] ?? r.title['zh-CN'],
    }));
    return ok({ records, total: records.length });
  });
}
