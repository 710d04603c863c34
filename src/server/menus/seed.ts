import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { Ajv } from 'ajv';
import type { Queryable } from '../kernel/db/database.js';
import { SHIPPED_SCHEMAS } from '../kernel/paths.js';
import { flattenMenus, type MenuFile, type MenuNode } from '../../shared/menu/types.js';

/** Reads the route tree and checks it against menu.schema.json, naming the file and path of a fault. */
export async function readMenuFile(schemaDir = SHIPPED_SCHEMAS): Promise<MenuNode[]> {
  const file = path.join(schemaDir, 'menus.json');
  const [text, schema] = await Promise.all([
    readFile(file, 'utf8'),
    readFile(path.join(schemaDir, 'menu.schema.json'), 'utf8'),
  ]);
  const parsed = JSON.parse(text) as MenuFile;
  const validate = new Ajv({ allErrors: false }).compile<MenuFile>(JSON.parse(schema));
  if (!validate(parsed)) {
    const e = validate.errors?.[0];
    throw new Error(`${path.relative(process.cwd(), file)}: ${e?.instancePath || '/'} ${e?.message ?? 'is invalid'}`);
  }
  return parsed.routes;
}

/**
 * Puts every route of the menu file into the menu table, keyed by full path. Rows already there are
 * left alone, so menu maintenance done in the database survives a restart; new routes of a newer
 * file are added.
 */
export async function seedMenus(db: Queryable, routes: MenuNode[]): Promise<void> {
  // Read once what is there: on most starts every route already is, and 155 statements that each
  // changed nothing were half a second of every start on the embedded database.
  const present = new Set(
    (await db.query<{ full_path: string }>('select full_path from menu')).map((m) => m.full_path),
  );
  for (const { fullPath, parentPath, node, sort } of flattenMenus(routes)) {
    if (present.has(fullPath)) continue;
    await db.query(
      `insert into menu (parent_id, meta_id, full_path, path, sort, meta)
       values ((select id from menu where full_path = $1), $2, $3, $4, $5, $6)
       on conflict (full_path) do nothing`,
      [parentPath, node.meta.id ?? null, fullPath, node.path, sort, JSON.stringify(node.meta)],
    );
  }
}
