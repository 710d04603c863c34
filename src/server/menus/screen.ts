import type { MenuMeta } from '../../shared/menu/types.js';
import type { RecordValues } from '../../shared/screens/predicate.js';
import type { Kernel } from '../kernel/context.js';
import type { Queryable } from '../kernel/db/database.js';
import { one } from '../kernel/db/database.js';
import { conflict, notFound } from '../kernel/http/envelope.js';
import { appendLog } from '../kernel/audit/log.js';
import { contentVersion } from '../kernel/resources/contentVersion.js';
import type { TableAdapter, TableRecord, TableResource } from '../kernel/resources/tables.js';

/**
 * Menu maintenance (spec 2.2 system maintenance, 20101): the route tree as the database keeps it, one
 * row per route, nested under its section. Titles, icon, order and the route meta flags of spec 2.1
 * are edited here; the sidebar, the header search and the role menu tree read the table, so they
 * follow at the next page entry. The tree's shape (paths, ids, screens) comes from schemas/menus.json.
 */
interface MenuRow {
  id: number;
  parentId: number | null;
  path: string;
  fullPath: string;
  sort: number;
  meta: MenuMeta;
}

const FLAGS = ['hidden', 'keepAlive', 'noCache', 'affix', 'alwaysShow'] as const;
/** roles of spec 2.1 as the screen's choice: unrestricted, administrators, administrators and editors. */
const ROLE_CHOICES: Record<string, MenuMeta['roles'] | undefined> = {
  any: undefined,
  admin: ['admin'],
  'admin,editor': ['admin', 'editor'],
};

const SELECT = `select id, parent_id as "parentId", path, full_path as "fullPath", sort, meta from menu`;

function menuRecord(row: MenuRow): TableRecord {
  const m = row.meta;
  const values: RecordValues = {
    parentId: row.parentId ?? undefined,
    metaId: m.id,
    titleZh: m.title['zh-CN'],
    titleEn: m.title['en-US'],
    path: row.fullPath,
    icon: m.icon,
    sort: row.sort,
    roles: m.roles ? m.roles.join(',') : 'any',
    ...Object.fromEntries(FLAGS.map((f) => [f, m[f] === true])),
    isBasic: m.isBasic === true,
    description: m.description,
  };
  return { id: row.id, version: contentVersion({ meta: m, sort: row.sort }), ...values };
}

/** The meta a row's edit gives: the user's fields over the stored meta; a flag switched off is left out. */
function editedMeta(meta: MenuMeta, data: RecordValues): MenuMeta {
  const next: MenuMeta = {
    ...meta,
    title: { 'zh-CN': String(data.titleZh).trim(), 'en-US': String(data.titleEn).trim() },
  };
  const text = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined);
  next.icon = text(data.icon);
  next.description = text(data.description);
  next.roles = ROLE_CHOICES[String(data.roles ?? 'any')];
  for (const flag of FLAGS) next[flag] = data[flag] === true ? true : undefined;
  return JSON.parse(JSON.stringify(next)) as MenuMeta;
}

const getMenu = (db: Queryable, id: number) => one<MenuRow>(db, `${SELECT} where id = $1`, [id]);

export const MENU_TABLE: TableResource = {
  resource: 'menu',
  adapter(ctx: Kernel): TableAdapter {
    const { db } = ctx;
    return {
      async list(_call, q) {
        const title = q.titleZh?.trim() || null;
        const rows = await db.query<MenuRow>(
          `${SELECT} where ($1::text is null or meta->'title'->>'zh-CN' ilike '%' || $1 || '%' or meta->'title'->>'en-US' ilike '%' || $1 || '%')
           and ($2::text is null or full_path ilike '%' || $2 || '%')
         order by sort, id`,
          [title, q.path?.trim() || null],
        );
        return { records: rows.map(menuRecord), total: rows.length };
      },
      async get(_call, id) {
        const row = await getMenu(db, id);
        return row && menuRecord(row);
      },
      async update(call, current, data) {
        if (data.version !== current.version) throw conflict();
        return db.transaction(async (tx) => {
          const before = await getMenu(tx, current.id);
          if (!before) throw notFound();
          const meta = editedMeta(before.meta, data);
          const sort = typeof data.sort === 'number' ? data.sort : before.sort;
          await tx.query('update menu set meta = $2, sort = $3 where id = $1', [before.id, JSON.stringify(meta), sort]);
          await appendLog(tx, call.actor, {
            resource: 'menu',
            recordId: before.id,
            action: 'update',
            before: { path: before.fullPath, sort: before.sort, meta: before.meta },
            after: { path: before.fullPath, sort, meta },
            ip: call.ip,
          });
          return menuRecord({ ...before, meta, sort });
        });
      },
    };
  },
};
