import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv } from 'ajv';
import type { FieldDef, ScreenSchema } from '../../../shared/screens/fields.js';
import { serverKept } from '../../../shared/screens/fields.js';
import type { RecordValues } from '../../../shared/screens/predicate.js';
import type { Queryable } from '../db/database.js';
import { one } from '../db/database.js';
import { insertRecord, scopeOrg, updateRecord } from './repository.js';
import { writableData } from './records.js';
import { insertCopies, repointReferences } from '../publicData/stores.js';
import { validateRecord, type FieldError } from '../../../shared/screens/validate.js';
import { screenMessage } from '../../../shared/screens/messages.js';

/**
 * Demo rows of the screens (schemas/demo/<screen-id>.json), written the way a user would type them:
 * a reference holds the referenced record's title, an enum its dictionary code. Each row passes the
 * API's own checks and is inserted by the API's own repository, so a demo row is never something the
 * product itself would refuse. A broken file stops the seed, naming file, row and problem.
 */
export interface DemoFile {
  resource: string;
  /** Organisations that get the rows; default every lab; [0] is the base organisation's public data. */
  orgIds?: number[];
  records: RecordValues[];
  /** Changes staff made to seeded rows afterwards, applied once as real edits (update + log entry). */
  corrections?: { key: string | number; by: 'admin' | 'editor'; changes: RecordValues }[];
}

interface LoadedDemo {
  /** Path relative to the schema folder's parent, as error messages show it. */
  file: string;
  screen: ScreenSchema;
  demo: DemoFile;
}

export class DemoDataError extends Error {}

/** What a reference or tree field points at, and the field that names the target record. */
function targetOf(
  field: FieldDef,
  byResource: Map<string, ScreenSchema>,
): { resource: string; titleField: string } | undefined {
  const ref = field.type === 'reference' ? field.reference : field.type === 'tree' ? field.tree : undefined;
  if (!ref) return undefined;
  const title = byResource.get(ref.resource)?.resource.titleField ?? ref.labelField ?? 'name';
  return { resource: ref.resource, titleField: title };
}

const allFields = (fields: readonly FieldDef[]): FieldDef[] =>
  fields.flatMap((f) => [f, ...allFields(f.itemFields ?? [])]);

/**
 * Reads and shape-checks every demo file; each must name a screen by its file name and that screen's
 * resource. Files of screens not served (invalid) are left out, their resources added to `waiting`.
 */
export function readDemoFiles(schemaDir: string, screens: ScreenSchema[], waiting?: Set<string>): LoadedDemo[] {
  const dir = path.join(schemaDir, 'demo');
  if (!existsSync(dir)) return [];
  const validate = new Ajv({ allErrors: false, strict: false }).compile<DemoFile>(
    JSON.parse(readFileSync(path.join(schemaDir, 'demo.schema.json'), 'utf8')),
  );
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .flatMap((name): LoadedDemo[] => {
      const file = path.relative(path.dirname(schemaDir), path.join(dir, name));
      let demo: unknown;
      try {
        demo = JSON.parse(readFileSync(path.join(dir, name), 'utf8'));
      } catch (error) {
        throw new DemoDataError(`${file}: ${(error as Error).message}`);
      }
      if (!validate(demo)) {
        const e = validate.errors?.[0];
        throw new DemoDataError(`${file}: ${e?.instancePath || '/'} ${e?.message ?? 'is invalid'}`);
      }
      const screen = screens.find((s) => s.id === name.replace(/\.json$/, ''));
      // A screen file that is there but invalid is reported by the screen registry and not served:
      // its demo rows wait for the file to be fixed (`waiting`), and the rest of the LIMS starts.
      if (!screen && existsSync(path.join(schemaDir, 'screens', name))) {
        waiting?.add((demo as DemoFile).resource);
        return [];
      }
      if (!screen) throw new DemoDataError(`${file}: no screen ${name} in schemas/screens`);
      if (screen.resource.name !== demo.resource) {
        throw new DemoDataError(
          `${file}: resource "${demo.resource}" is not the screen's resource "${screen.resource.name}"`,
        );
      }
      return [{ file, screen, demo }];
    });
}

/** The files that can be seeded now: those whose rows refer to no waiting resource, directly or through another file. */
function withoutWaiting(files: LoadedDemo[], waiting: Set<string>, screens: ScreenSchema[]): LoadedDemo[] {
  const byResource = new Map(screens.map((s) => [s.resource.name, s]));
  const waits = (f: LoadedDemo) =>
    allFields(f.screen.fields).some((field) => waiting.has(targetOf(field, byResource)?.resource ?? ''));
  let left = files;
  for (let blocked = left.filter(waits); blocked.length > 0; blocked = left.filter(waits)) {
    for (const f of blocked) waiting.add(f.demo.resource);
    left = left.filter((f) => !blocked.includes(f));
  }
  return left;
}

/** Files whose rows others refer to come first; a cycle between files cannot be seeded and is named. */
export function orderByReferences(files: LoadedDemo[], screens: ScreenSchema[]): LoadedDemo[] {
  const byResource = new Map(screens.map((s) => [s.resource.name, s]));
  const fileOf = new Map(files.map((f) => [f.demo.resource, f]));
  const ordered: LoadedDemo[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (f: LoadedDemo, trail: string[]) => {
    const name = f.demo.resource;
    if (state.get(name) === 'done') return;
    if (state.get(name) === 'visiting')
      throw new DemoDataError(`demo files refer to each other in a circle: ${[...trail, f.file].join(' → ')}`);
    state.set(name, 'visiting');
    for (const field of allFields(f.screen.fields)) {
      const target = targetOf(field, byResource);
      const dep = target && target.resource !== name ? fileOf.get(target.resource) : undefined;
      if (dep) visit(dep, [...trail, f.file]);
    }
    state.set(name, 'done');
    ordered.push(f);
  };
  for (const f of files) visit(f, []);
  return ordered;
}

/**
 * Record ids by title, per resource and organisation, read once: the org's own rows win over the base
 * organisation's shared ones. Rows seeded meanwhile are added, so a file may refer to its own rows.
 */
class Titles {
  private maps = new Map<string, Map<string, number>>();

  constructor(private readonly db: Queryable) {}

  async id(
    target: { resource: string; titleField: string },
    orgId: number,
    title: string,
  ): Promise<number | undefined> {
    return (await this.map(target, orgId)).get(title);
  }

  add(resource: string, titleField: string | undefined, orgId: number, data: RecordValues, id: number) {
    const map = this.maps.get(`${resource}|${titleField}|${orgId}`);
    if (map && titleField && typeof data[titleField] === 'string') map.set(data[titleField], id);
  }

  private async map(target: { resource: string; titleField: string }, orgId: number) {
    const key = `${target.resource}|${target.titleField}|${orgId}`;
    let map = this.maps.get(key);
    if (!map) {
      const rows = await this.db.query<{ id: number; title: string | null }>(
        `select id, data->>'${target.titleField}' as title from resource_record where resource = $1 and org_id in ($2, 0)
          order by (org_id = $2), id desc`,
        [target.resource, orgId],
      );
      map = new Map(rows.flatMap((r) => (r.title === null ? [] : [[r.title, r.id] as const])));
      this.maps.set(key, map);
    }
    return map;
  }
}

/** Replaces the titles in reference fields (also inside list rows) by the ids of the org's records. */
async function resolveReferences(
  titles: Titles,
  fields: readonly FieldDef[],
  record: RecordValues,
  orgId: number,
  byResource: Map<string, ScreenSchema>,
): Promise<RecordValues> {
  const out: RecordValues = { ...record };
  for (const field of fields) {
    const value = out[field.key];
    if (value === undefined || value === null) continue;
    if (field.type === 'list' && Array.isArray(value)) {
      const items: RecordValues[] = [];
      for (const item of value)
        items.push(await resolveReferences(titles, field.itemFields ?? [], item as RecordValues, orgId, byResource));
      out[field.key] = items;
      continue;
    }
    const target = targetOf(field, byResource);
    if (!target) continue;
    const resolve = async (title: unknown) => {
      // Ids differ from one database to the next; only a title says which record is meant.
      if (typeof title !== 'string')
        throw new Error(
          `${field.key}: write the referenced record's ${target.titleField}, not ${JSON.stringify(title)}`,
        );
      const id = await titles.id(target, orgId, title);
      if (id === undefined)
        throw new Error(`${field.key}: no ${target.resource} record titled "${title}" in org ${orgId}`);
      return id;
    };
    const ids: unknown[] = [];
    for (const v of Array.isArray(value) ? value : [value]) ids.push(await resolve(v));
    out[field.key] = Array.isArray(value) ? ids : ids[0];
  }
  return out;
}

/** The field that tells one demo row from another: the title, else the first unique field. */
const keyFieldOf = (screen: ScreenSchema) => screen.resource.titleField ?? screen.fields.find((f) => f.unique)?.key;

/**
 * Which of the demo file's keys are already seeded into (resource, org): rows there now, and rows seeded
 * earlier and since deleted by a user (kept in the operation log), so a restart never brings back what
 * a user removed. Only the file's own keys are looked up: a lab's specimens are millions of rows, and
 * its operation log more, which a start after an upgrade of the demo files must not read.
 */
async function seededKeys(
  db: Queryable,
  screen: ScreenSchema,
  orgId: number,
  keyField: string | undefined,
  keys: string[],
): Promise<Set<string> | 'all'> {
  if (!keyField) {
    const marked = await one(
      db,
      `select 1 from operation_log where resource = $1 and org_id = $2 and action = 'demoSeed' limit 1`,
      [screen.resource.name, orgId],
    );
    return marked ? 'all' : new Set();
  }
  const rows = await db.query<{ key: string | null }>(
    `select data->>'${keyField}' as key from resource_record
      where resource = $1 and org_id = $2 and data->>'${keyField}' = any($3::text[])
     union select after->>'${keyField}' from operation_log
      where resource = $1 and org_id = $2 and action = 'demoSeed' and after->>'${keyField}' = any($3::text[])`,
    [screen.resource.name, orgId, keys],
  );
  return new Set(rows.flatMap((r) => (r.key === null ? [] : [r.key])));
}

/**
 * Each org's demo administrator, recorded as the author of its demo rows, and its editor, who makes the
 * demo's corrections (the administrator where the org has no editor); read once per org and role.
 */
class Authors {
  private byOrg = new Map<string, { id: number; account: string } | undefined>();

  constructor(private readonly db: Queryable) {}

  async of(orgId: number, role: 'admin' | 'editor' = 'admin') {
    const key = `${orgId}|${role}`;
    if (!this.byOrg.has(key)) {
      this.byOrg.set(
        key,
        await one<{ id: number; account: string }>(
          this.db,
          `select u.id, u.user_account as account from app_user u join user_role ur on ur.user_id = u.id join role r on r.id = ur.role_id
            where u.org_id = $1 and r.code in ('admin', $2) order by (r.code = $2) desc, u.id limit 1`,
          [orgId, role],
        ),
      );
    }
    return this.byOrg.get(key);
  }
}

/** Whether a field of the screen points at its own resource (a parent row), so rows go in one by one. */
function refersToItself(screen: ScreenSchema, byResource: Map<string, ScreenSchema>): boolean {
  return allFields(screen.fields).some((f) => targetOf(f, byResource)?.resource === screen.resource.name);
}

/** The rows of one file and org in one statement (insertRecord's row, many at once): start-up stays quick. */
async function insertAll(
  db: Queryable,
  screen: ScreenSchema,
  orgId: number,
  rows: RecordValues[],
  userId: number | null,
) {
  if (rows.length === 0) return [];
  return db.query<{ id: number; data: RecordValues }>(
    `insert into resource_record (resource, org_id, data, created_by, updated_by)
     select $1, $2, x.value, $3, $3 from jsonb_array_elements($4::jsonb) with ordinality as x(value, n) order by x.n
     returning id, data`,
    [screen.resource.name, scopeOrg(screen, orgId), userId, JSON.stringify(rows)],
  );
}

/** Values of the unique fields already taken in (resource, org), to refuse a duplicate as the API would. */
async function takenValues(db: Queryable, screen: ScreenSchema, orgId: number): Promise<Map<string, Set<string>>> {
  const taken = new Map<string, Set<string>>();
  for (const field of screen.fields.filter((f) => f.unique)) {
    const rows = await db.query<{ v: string }>(
      `select data->>'${field.key}' as v from resource_record where resource = $1 and org_id = $2 and data ? '${field.key}'`,
      [screen.resource.name, orgId],
    );
    taken.set(field.key, new Set(rows.map((r) => r.v)));
  }
  return taken;
}

/**
 * The API's checks of a new record (service.checkWrite): the shared field validation, then unique values
 * within the organisation. References need no look-up: each was just resolved from an existing title.
 */
function checkDemoRow(screen: ScreenSchema, values: RecordValues, taken: Map<string, Set<string>>): FieldError[] {
  const errors = validateRecord(screen, values, 'en-US');
  for (const [key, seen] of taken) {
    const value = values[key];
    if (value === undefined || value === null || value === '' || !seen.has(String(value))) continue;
    const label = screen.fields.find((f) => f.key === key)!.label['en-US'];
    errors.push({
      field: key,
      key: 'field.unique',
      message: screenMessage('field.unique', 'en-US', { label, value: String(value) }),
    });
  }
  return errors;
}

interface Seeding {
  db: Queryable;
  titles: Titles;
  authors: Authors;
  byResource: Map<string, ScreenSchema>;
  labOrgIds: number[];
  /** Lab type of each organisation: main and sub labs take public data from the base organisation. */
  labTypes: Map<number, string>;
}

/** One log entry per seeded row, written together: the operation log shows every write. */
async function logSeeded(
  db: Queryable,
  screen: ScreenSchema,
  orgId: number,
  author: { id: number; account: string } | undefined,
  rows: { id: number; data: RecordValues }[],
) {
  if (rows.length === 0) return;
  await db.query(
    `insert into operation_log (user_id, user_account, org_id, resource, record_id, action, after)
     select $1, $2, $3, $4, x->>'id', 'demoSeed', x->'data' from jsonb_array_elements($5::jsonb) x`,
    [author?.id ?? null, author?.account ?? 'system', orgId, screen.resource.name, JSON.stringify(rows)],
  );
}

/**
 * The file's corrections of rows just seeded into the org: each an edit as the API makes it (the
 * record's new version, and an 'update' entry with before and after in the operation log by the
 * account that made it). Rows seeded on an earlier start are left as they are: a correction happens once.
 */
async function applyCorrections(
  seeding: Seeding,
  loaded: LoadedDemo,
  orgId: number,
  seeded: { id: number; data: RecordValues }[],
  keyField: string | undefined,
) {
  const { db, authors } = seeding;
  const { screen, demo, file } = loaded;
  for (const [i, correction] of (demo.corrections ?? []).entries()) {
    const row = keyField ? seeded.find((r) => String(r.data[keyField]) === String(correction.key)) : undefined;
    if (!row) continue;
    const where = `${file} correction ${i + 1} (org ${orgId})`;
    if (Object.keys(correction.changes).some((k) => screen.fields.find((f) => f.key === k)?.unique)) {
      throw new DemoDataError(`${where}: a correction may not change a unique field`);
    }
    const values = { ...row.data, ...correction.changes };
    const errors = validateRecord(screen, values, 'en-US');
    if (errors.length > 0)
      throw new DemoDataError(`${where}: ${errors.map((e) => `${e.field}: ${e.message}`).join('; ')}`);
    const by = await authors.of(orgId, correction.by);
    const updated = await updateRecord(db, screen, orgId, row.id, 1, values, by?.id ?? 0);
    if (!updated) continue;
    await db.query(
      `insert into operation_log (user_id, user_account, org_id, resource, record_id, action, before, after)
       values ($1, $2, $3, $4, $5, 'update', $6, $7)`,
      [
        by?.id ?? null,
        by?.account ?? 'system',
        orgId,
        screen.resource.name,
        String(row.id),
        JSON.stringify(row.data),
        JSON.stringify(updated.data),
      ],
    );
  }
}

/**
 * A main or sub lab's public data, as the product itself would give it: copies of the base
 * organisation's rows (synchronised by the main lab, imported by a sub lab), syncFlag 1 with their
 * source, references pointed at the lab's own copies. A lab row already holding a copy's unique value
 * stops the seed, as the sync call would refuse it.
 */
async function seedCopies(
  seeding: Seeding,
  loaded: LoadedDemo,
  orgId: number,
  done: Set<string>,
  keyField: string,
): Promise<number> {
  const { db, titles, authors } = seeding;
  const { screen, demo, file } = loaded;
  const sources = new Map(
    (
      await db.query<{ id: number; key: string | null; data: RecordValues }>(
        `select id, data->>'${keyField}' as key, data from resource_record where resource = $1 and org_id = 0`,
        [screen.resource.name],
      )
    ).map((r) => [r.key, r] as const),
  );
  // A base row a user has since deleted is not copied: the lab copies what the base keeps.
  const toCopy = (record: RecordValues) => !done.has(String(record[keyField])) && sources.has(String(record[keyField]));
  if (!demo.records.some(toCopy)) return 0;
  const taken = await takenValues(db, screen, orgId);
  const ids: number[] = [];
  for (const [i, record] of demo.records.entries()) {
    if (!toCopy(record)) continue;
    const source = sources.get(String(record[keyField]))!;
    const errors = checkDemoRow(screen, source.data, taken);
    if (errors.length > 0)
      throw new DemoDataError(
        `${file} row ${i + 1} (org ${orgId}): ${errors.map((e) => `${e.field}: ${e.message}`).join('; ')}`,
      );
    ids.push(source.id);
  }
  const author = await authors.of(orgId);
  const copies = await insertCopies(db, screen, orgId, ids, author?.id ?? null);
  await repointReferences(
    db,
    screen,
    orgId,
    copies.map((c) => c.id),
  );
  for (const copy of copies) titles.add(screen.resource.name, screen.resource.titleField, orgId, copy.data, copy.id);
  await logSeeded(db, screen, orgId, author, copies);
  return copies.length;
}

async function seedFile(seeding: Seeding, loaded: LoadedDemo): Promise<number> {
  const { db, titles, authors, byResource, labOrgIds: orgIds } = seeding;
  const { screen, demo, file } = loaded;
  const keyField = keyFieldOf(screen);
  // A global resource keeps one set of rows (org 0), however many labs the file names; the base
  // organisation goes first, since labs copy its public rows.
  const orgs = [...new Set((demo.orgIds ?? orgIds).map((o) => scopeOrg(screen, o)))].sort((a, b) => a - b);
  const copiesPublic = screen.resource.publicData === true && orgs.includes(0) && keyField !== undefined;
  let inserted = 0;
  const keyOf = (record: RecordValues) =>
    keyField && record[keyField] !== undefined ? String(record[keyField]) : undefined;
  const keys = demo.records.flatMap((r) => keyOf(r) ?? []);
  for (const orgId of orgs) {
    const done = await seededKeys(db, screen, orgId, keyField, keys);
    if (done === 'all') continue;
    if (copiesPublic && ['main', 'sub'].includes(seeding.labTypes.get(orgId) ?? '')) {
      inserted += await seedCopies(seeding, loaded, orgId, done, keyField);
      continue;
    }
    // Every row of the file there already: nothing to check against what the lab holds.
    if (demo.records.every((r) => done.has(keyOf(r) ?? '\0'))) continue;
    const [author, taken] = [await authors.of(orgId), await takenValues(db, screen, orgId)];
    const selfReferring = refersToItself(screen, byResource);
    const rows: RecordValues[] = [];
    const logged: { id: number; data: RecordValues }[] = [];
    for (const [i, record] of demo.records.entries()) {
      const key = keyOf(record);
      if (key !== undefined && done.has(key)) continue;
      const where = `${file} row ${i + 1} (org ${orgId})`;
      let data: RecordValues;
      try {
        data = await resolveReferences(titles, screen.fields, record, orgId, byResource);
      } catch (error) {
        throw new DemoDataError(`${where}: ${(error as Error).message}`);
      }
      // Read-only, stamped and numbered fields are the server's in the API; demo rows are past work
      // and carry what the server wrote then (an evaluated QC run, a printed box's number and printer).
      const readOnly = Object.fromEntries(
        screen.fields.filter((f) => serverKept(f) && data[f.key] !== undefined).map((f) => [f.key, data[f.key]]),
      );
      const values = { ...writableData(screen, data), ...readOnly };
      const errors = checkDemoRow(screen, values, taken);
      if (errors.length > 0)
        throw new DemoDataError(`${where}: ${errors.map((e) => `${e.field}: ${e.message}`).join('; ')}`);
      for (const [k, seen] of taken) if (values[k] !== undefined && values[k] !== null) seen.add(String(values[k]));
      if (selfReferring) {
        // A later row may name this one (a tree's parent): it needs its id now.
        const row = await insertRecord(db, screen, orgId, values, author?.id ?? 0);
        titles.add(screen.resource.name, screen.resource.titleField, orgId, row.data, row.id);
        logged.push({ id: row.id, data: row.data });
      } else rows.push(values);
    }
    for (const row of await insertAll(db, screen, orgId, rows, author?.id ?? null)) {
      titles.add(screen.resource.name, screen.resource.titleField, orgId, row.data, row.id);
      logged.push(row);
    }
    await logSeeded(db, screen, orgId, author, logged);
    await applyCorrections(seeding, loaded, orgId, logged, keyField);
    inserted += logged.length;
  }
  return inserted;
}

/**
 * Seeds every demo file into the organisations it names (default `labOrgIds`), referenced files first.
 * Idempotent: rows already seeded are skipped. Answers how many rows were inserted.
 */
export async function seedDemoRecords(
  db: Queryable,
  schemaDir: string,
  screens: ScreenSchema[],
  labOrgIds: number[],
): Promise<number> {
  const byResource = new Map(screens.map((s) => [s.resource.name, s]));
  const waiting = new Set<string>();
  const files = orderByReferences(
    withoutWaiting(readDemoFiles(schemaDir, screens, waiting), waiting, screens),
    screens,
  );
  const labTypes = new Map(
    (await db.query<{ id: number; labType: string }>('select id, lab_type as "labType" from organization')).map(
      (o) => [o.id, o.labType] as const,
    ),
  );
  const seeding: Seeding = { db, titles: new Titles(db), authors: new Authors(db), byResource, labOrgIds, labTypes };
  let inserted = 0;
  for (const loaded of files) inserted += await seedFile(seeding, loaded);
  return inserted;
}

/** The ids of an organisation's records of a resource by one text field (a seed finding the rows it refers to). */
export async function recordIdsBy(
  tx: Queryable,
  resource: string,
  orgId: number,
  field: string,
): Promise<Map<string, number>> {
  const rows = await tx.query<{ id: number; key: string }>(
    `select id, data->>$3 as key from resource_record where resource = $1 and org_id = $2`,
    [resource, orgId, field],
  );
  return new Map(rows.map((r) => [r.key, Number(r.id)]));
}
