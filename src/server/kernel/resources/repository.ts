import type { FieldDef, ScreenSchema } from '../../../shared/screens/fields.js';
import type { Predicate } from '../../../shared/generated/screen.js';
import type { Queryable } from '../db/database.js';
import { one } from '../db/database.js';

/**
 * Records of every schema resource live in one table as JSONB documents: a new screen needs no
 * migration. Field keys are checked against ^[a-z][A-Za-z0-9]*$ when the schema loads, so they may be
 * written into SQL as literals, which lets list queries use the expression indexes a schema asks for.
 */
export interface StoredRecord {
  id: number;
  version: number;
  orgId: number;
  syncFlag: number;
  sourceId: number | null;
  createdAt: Date;
  updatedAt: Date;
  data: Record<string, unknown>;
}

const COLUMNS = `id, version, org_id as "orgId", sync_flag as "syncFlag", source_id as "sourceId",
  created_at as "createdAt", updated_at as "updatedAt", data`;

const NUMERIC = new Set(['integer', 'number', 'money']);

/** The SQL expression of a field's value, typed for comparison and sorting. */
export function fieldSql(field: FieldDef): string {
  const raw = `(data->>'${field.key}')`;
  if (NUMERIC.has(field.type)) return `${raw}::numeric`;
  if (field.type === 'boolean') return `${raw}::boolean`;
  return raw;
}

/** Organisation rows of a resource: the org's own, or the shared set (org 0) for global resources. */
export function scopeOrg(screen: ScreenSchema, orgId: number): number {
  return screen.resource.scope === 'global' ? 0 : orgId;
}

export interface ListQuery {
  page: number;
  size: number;
  sort?: { field: string; order: 'asc' | 'desc' };
  /** Raw query-string values by parameter name (field keys, and keyFrom / keyTo for ranges). */
  params: Record<string, string | undefined>;
  /**
   * Count the matching rows up to this many only: an exact total of a million rows costs a scan of
   * them all on every page, while its first pages cost a few index entries. Past it the answer says `more`.
   */
  countUpTo?: number;
  /** A view's fixed condition (resource.where): eq, ne, in, notIn on fields, or all of them. */
  fixed?: Predicate;
}

type FilterMode = 'contains' | 'equals' | 'range';

export function filterMode(field: FieldDef): FilterMode {
  if (field.filter) return field.filter;
  if (['text', 'textarea', 'barcode', 'phone', 'email'].includes(field.type)) return 'contains';
  if (['integer', 'number', 'money', 'date', 'datetime'].includes(field.type)) return 'range';
  return 'equals';
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

const ID_LIST = /^\d+(,\d+)*$/;
const isReference = (field: FieldDef) => field.type === 'reference' || field.type === 'tree';
const isMultiple = (field: FieldDef) => !!(field.reference?.multiple || field.tree?.multiple);

/**
 * A reference filter: one id, or several ("3,5": any of them, as a dashboard's count of the user's groups
 * links). A list of references holds one of them when its array contains it (each test on the GIN index).
 */
function referenceClause(field: FieldDef, ids: string[], add: (value: unknown) => string): string {
  if (!isMultiple(field)) return `${fieldSql(field)} = any(${add(ids)}::text[])`;
  const contains = ids.map((id) => `data->'${field.key}' @> ${add(JSON.stringify([Number(id)]))}::jsonb`);
  return `(${contains.join(' or ')})`;
}

function filterClauses(screen: ScreenSchema, params: ListQuery['params'], values: unknown[]): string[] {
  const clauses: string[] = [];
  const add = (value: unknown) => {
    values.push(value);
    return `$${values.length}`;
  };
  for (const field of screen.fields) {
    const mode = filterMode(field);
    const value = params[field.key];
    if (mode === 'range') {
      const from = params[`${field.key}From`];
      const to = params[`${field.key}To`];
      if (from) clauses.push(`${fieldSql(field)} >= ${add(from)}${NUMERIC.has(field.type) ? '::numeric' : ''}`);
      if (to) clauses.push(`${fieldSql(field)} <= ${add(to)}${NUMERIC.has(field.type) ? '::numeric' : ''}`);
      if (value) clauses.push(`${fieldSql(field)} = ${add(value)}${NUMERIC.has(field.type) ? '::numeric' : ''}`);
      continue;
    }
    if (value === undefined || value === '') continue;
    if (mode === 'contains') clauses.push(`${fieldSql(field)} ilike '%' || ${add(escapeLike(value))} || '%'`);
    else if (isReference(field) && ID_LIST.test(value)) clauses.push(referenceClause(field, value.split(','), add));
    else if (field.type === 'boolean') clauses.push(`${fieldSql(field)} = ${add(value === 'true' || value === '1')}`);
    else clauses.push(`${fieldSql(field)} = ${add(value)}${NUMERIC.has(field.type) ? '::numeric' : ''}`);
  }
  return clauses;
}

/** A view's fixed condition as SQL (the registry let only these forms load). */
function fixedClauses(fixed: Predicate | undefined, values: unknown[]): string[] {
  if (!fixed) return [];
  if ('all' in fixed) return fixed.all.flatMap((p) => fixedClauses(p, values));
  if (!('field' in fixed)) throw new Error('unsupported view condition');
  // Compared as text, as the values are: a JSON number or boolean reads as its text too.
  const sql = `(data->>'${fixed.field}')`;
  const list = (v: unknown) => (Array.isArray(v) ? v : [v]).map(String);
  values.push(fixed.op === 'in' || fixed.op === 'notIn' ? list(fixed.value) : String(fixed.value));
  const at = `$${values.length}`;
  if (fixed.op === 'eq') return [`${sql} = ${at}`];
  if (fixed.op === 'ne') return [`${sql} is distinct from ${at}`];
  if (fixed.op === 'in') return [`${sql} = any(${at}::text[])`];
  return [`not (${sql} = any(${at}::text[]))`];
}

export async function listRecords(
  db: Queryable,
  screen: ScreenSchema,
  orgId: number,
  q: ListQuery,
): Promise<{ records: StoredRecord[]; total: number; more?: true }> {
  const values: unknown[] = [screen.resource.name, scopeOrg(screen, orgId)];
  const where = [
    'resource = $1',
    'org_id = $2',
    ...filterClauses(screen, q.params, values),
    ...fixedClauses(q.fixed, values),
  ].join(' and ');
  const sortField = q.sort && screen.fields.find((f) => f.key === q.sort!.field);
  const order = sortField ? `${fieldSql(sortField)} ${q.sort!.order} nulls last, id ${q.sort!.order}` : 'id desc';
  const offset = (q.page - 1) * q.size;
  const records = await db.query<StoredRecord>(
    `select ${COLUMNS} from resource_record where ${where} order by ${order} limit ${q.size} offset ${offset}`,
    values,
  );
  // A short page is the last one, so it tells the total by itself; only a full (or empty, past the end) page needs the count.
  if (records.length > 0 && records.length < q.size) return { records, total: offset + records.length };
  if (records.length === 0 && offset === 0) return { records, total: 0 };
  const cap = q.countUpTo;
  const matching =
    cap === undefined
      ? `select 1 from resource_record where ${where}`
      : `select 1 from resource_record where ${where} limit ${cap + 1}`;
  const n = (await one<{ n: number }>(db, `select count(*)::int as n from (${matching}) m`, values))?.n ?? 0;
  if (cap === undefined || n <= cap) return { records, total: n };
  // A full page may have more behind it: the total lets the pager offer the next one.
  return { records, total: Math.max(cap, offset + records.length + (records.length === q.size ? 1 : 0)), more: true };
}

export function getRecord(
  db: Queryable,
  screen: ScreenSchema,
  orgId: number,
  id: number,
): Promise<StoredRecord | undefined> {
  return one<StoredRecord>(
    db,
    `select ${COLUMNS} from resource_record where resource = $1 and org_id = $2 and id = $3`,
    [screen.resource.name, scopeOrg(screen, orgId), id],
  );
}

export async function insertRecord(
  db: Queryable,
  screen: ScreenSchema,
  orgId: number,
  data: Record<string, unknown>,
  userId: number,
): Promise<StoredRecord> {
  const row = await one<StoredRecord>(
    db,
    `insert into resource_record (resource, org_id, data, created_by, updated_by) values ($1, $2, $3, $4, $4) returning ${COLUMNS}`,
    [screen.resource.name, scopeOrg(screen, orgId), JSON.stringify(data), userId],
  );
  return row!;
}

/** Writes only when the stored version is the one the user edited; answers undefined when it is not. */
export function updateRecord(
  db: Queryable,
  screen: ScreenSchema,
  orgId: number,
  id: number,
  version: number,
  data: Record<string, unknown>,
  userId: number,
): Promise<StoredRecord | undefined> {
  return one<StoredRecord>(
    db,
    `update resource_record set data = $5, version = version + 1, updated_by = $6, updated_at = now()
      where resource = $1 and org_id = $2 and id = $3 and version = $4 returning ${COLUMNS}`,
    [screen.resource.name, scopeOrg(screen, orgId), id, version, JSON.stringify(data), userId],
  );
}

export async function deleteRecord(
  db: Queryable,
  screen: ScreenSchema,
  orgId: number,
  id: number,
): Promise<StoredRecord | undefined> {
  return one<StoredRecord>(
    db,
    `delete from resource_record where resource = $1 and org_id = $2 and id = $3 returning ${COLUMNS}`,
    [screen.resource.name, scopeOrg(screen, orgId), id],
  );
}

/** Conditions on fields: a value, any of a list of values, or null for "not set". */
export type Where = Record<string, string | number | boolean | null | readonly (string | number)[]>;

const FIELD_KEY = /^[a-z][A-Za-z0-9]*$/;

/** A field key a server caller names, checked before it is written into SQL (schemas check their own at load). */
function safeKey(key: string): string {
  if (!FIELD_KEY.test(key)) throw new Error(`not a field key: ${key}`);
  return key;
}

function whereClauses(where: Where, values: unknown[]): string[] {
  return Object.entries(where).map(([key, value]) => {
    const field = `data->>'${safeKey(key)}'`;
    if (value === null) return `${field} is null`;
    values.push(Array.isArray(value) ? value.map(String) : String(value));
    return Array.isArray(value) ? `${field} = any($${values.length}::text[])` : `${field} = $${values.length}`;
  });
}

/** Rows of the organisation matching every condition, ordered by a field (id otherwise). */
export async function findRecords(
  db: Queryable,
  screen: ScreenSchema,
  orgId: number,
  where: Where,
  options: { orderBy?: string; order?: 'asc' | 'desc'; limit?: number } = {},
): Promise<StoredRecord[]> {
  const values: unknown[] = [screen.resource.name, scopeOrg(screen, orgId)];
  const clauses = ['resource = $1', 'org_id = $2', ...whereClauses(where, values)];
  const field = options.orderBy && screen.fields.find((f) => f.key === options.orderBy);
  const direction = options.order === 'desc' ? 'desc' : 'asc';
  const order = field ? `${fieldSql(field)} ${direction} nulls last, id ${direction}` : `id ${direction}`;
  const limit = options.limit !== undefined ? ` limit ${Math.max(0, Math.floor(options.limit))}` : '';
  return db.query<StoredRecord>(
    `select ${COLUMNS} from resource_record where ${clauses.join(' and ')} order by ${order}${limit}`,
    values,
  );
}

/** Deletes the organisation's rows matching every condition; answers how many went. */
export async function deleteRecords(db: Queryable, screen: ScreenSchema, orgId: number, where: Where): Promise<number> {
  const values: unknown[] = [screen.resource.name, scopeOrg(screen, orgId)];
  const clauses = ['resource = $1', 'org_id = $2', ...whereClauses(where, values)];
  const rows = await db.query(`delete from resource_record where ${clauses.join(' and ')} returning id`, values);
  return rows.length;
}

/** The organisation's rows among these ids. */
export function recordsByIds(db: Queryable, screen: ScreenSchema, orgId: number, ids: readonly number[]) {
  return db.query<StoredRecord>(
    `select ${COLUMNS} from resource_record where resource = $1 and org_id = $2 and id = any($3::int[])`,
    [screen.resource.name, scopeOrg(screen, orgId), ids],
  );
}

/** A row of a resource by id, in whichever organisation it is. */
export function locateRecord(db: Queryable, resource: string, id: number): Promise<StoredRecord | undefined> {
  return one<StoredRecord>(db, `select ${COLUMNS} from resource_record where resource = $1 and id = $2`, [
    resource,
    id,
  ]);
}

/** Deletes the organisation's rows among these ids; answers how many went. */
export async function deleteByIds(db: Queryable, screen: ScreenSchema, orgId: number, ids: readonly number[]) {
  const rows = await db.query(
    'delete from resource_record where resource = $1 and org_id = $2 and id = any($3::int[]) returning id',
    [screen.resource.name, scopeOrg(screen, orgId), ids],
  );
  return rows.length;
}

/** A row, locked for update until the transaction ends. */
export function lockRecord(
  db: Queryable,
  screen: ScreenSchema,
  orgId: number,
  id: number,
): Promise<StoredRecord | undefined> {
  return one<StoredRecord>(
    db,
    `select ${COLUMNS} from resource_record where resource = $1 and org_id = $2 and id = $3 for update`,
    [screen.resource.name, scopeOrg(screen, orgId), id],
  );
}

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The highest number written right after a prefix in a field (…-0007 → 7), 0 when none. The prefix is
 * also a lower bound (a string with the prefix never sorts before it, in any collation): a LIKE prefix
 * uses the field's index only under the C collation, so on a PostgreSQL server of another (C.UTF-8,
 * en_US) each report number would read every report ever issued; the bound reads from the prefix on.
 */
export async function highestNumber(
  db: Queryable,
  screen: ScreenSchema,
  orgId: number,
  field: string,
  prefix: string,
): Promise<number> {
  const key = safeKey(field);
  const row = await one<{ last: number | null }>(
    db,
    `select max((substring(data->>'${key}' from $4))::bigint) as last
       from resource_record where resource = $1 and org_id = $2 and data->>'${key}' >= $5 and data->>'${key}' like $3`,
    [
      screen.resource.name,
      scopeOrg(screen, orgId),
      `${escapeLike(prefix)}%`,
      `^${escapeRegex(prefix)}([0-9]{1,15})$`,
      prefix,
    ],
  );
  return Number(row?.last ?? 0);
}

/** The next number after a prefix (…-0007 taken: …-0008), zero-padded; under the resource's write lock. */
export async function nextNumber(
  db: Queryable,
  screen: ScreenSchema,
  orgId: number,
  field: string,
  prefix: string,
  width = 4,
): Promise<string> {
  const last = await highestNumber(db, screen, orgId, field, prefix);
  return `${prefix}${String(last + 1).padStart(width, '0')}`;
}

/** One write at a time per resource and organisation: unique checks cannot race each other. */
export async function lockScope(tx: Queryable, screen: ScreenSchema, orgId: number): Promise<void> {
  await tx.query('select pg_advisory_xact_lock(hashtext($1), $2)', [screen.resource.name, scopeOrg(screen, orgId)]);
}

/** Another record of the organisation holding the same value of a unique field. */
export async function findDuplicate(
  db: Queryable,
  screen: ScreenSchema,
  orgId: number,
  field: FieldDef,
  value: unknown,
  exceptId: number,
): Promise<boolean> {
  const row = await one(
    db,
    `select 1 from resource_record where resource = $1 and org_id = $2 and data->>'${field.key}' = $3 and id <> $4 limit 1`,
    [screen.resource.name, scopeOrg(screen, orgId), String(value), exceptId],
  );
  return row !== undefined;
}

/** Ids among `ids` that exist in a resource visible to the organisation (its own rows or shared ones). */
export async function existingIds(db: Queryable, resource: string, orgId: number, ids: number[]): Promise<Set<number>> {
  const rows = await db.query<{ id: number }>(
    'select id from resource_record where resource = $1 and org_id in ($2, 0) and id = any($3::int[])',
    [resource, orgId, ids],
  );
  return new Set(rows.map((r) => r.id));
}

/** Titles of referenced records, for the list's labels. */
export async function titlesOf(
  db: Queryable,
  resource: string,
  labelField: string,
  orgId: number,
  ids: number[],
): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db.query<{ id: number; title: string | null }>(
    `select id, data->>'${labelField}' as title from resource_record where resource = $1 and org_id in ($2, 0) and id = any($3::int[])`,
    [resource, orgId, ids],
  );
  return new Map(rows.map((r) => [r.id, r.title ?? String(r.id)]));
}

/** Whether pg_trgm is there (PGlite loads it; PostgreSQL when the contrib package is installed), asked once per database. */
const trigrams = new WeakMap<Queryable, Promise<boolean>>();
function hasTrigrams(db: Queryable): Promise<boolean> {
  let known = trigrams.get(db);
  if (!known) {
    known = db.query('create extension if not exists pg_trgm').then(
      () => true,
      () => false,
    );
    trigrams.set(db, known);
  }
  return known;
}

/** A resource's partition of resource_record (migration 23), quoted: the name keeps its case. */
export function partitionOf(resource: string): string {
  return `"rr$${resource.replaceAll('"', '""')}"`;
}

/**
 * Gives each of these resources its own partition of resource_record, where it has none: before any
 * of its rows is written, so they do not land among the other resources' (resource_record_other).
 */
export async function ensurePartitions(db: Queryable, resources: Iterable<string>): Promise<void> {
  await db.query('select ensure_resource_partition(r) from unnest($1::text[]) r', [[...new Set(resources)]]);
}

/**
 * The indexes of a screen's list queries, made once (idempotent), each on the resource's partition:
 * - a field with `index`: btree on (org_id, value) for equals / range filters and ascending sorts;
 *   when it is sortable, or the default sort, a second one with nulls first, whose backward scan is the
 *   descending order with empty values last, so a page of 50 reads 50 index entries, not every row;
 * - a field with `index` filtered by contains: a trigram GIN index, which answers ilike '%…%';
 * - each of `list.indexes`: btree on (org_id, the equality fields, the sort field nulls first, id), so a
 *   work list filtered by state and group and sorted by time reads its page, and its count, off one index.
 */
export async function ensureIndexes(
  db: Queryable,
  screen: ScreenSchema,
  existing?: ReadonlySet<string>,
): Promise<void> {
  for (const index of await indexesOf(db, screen)) if (!existing?.has(index.name)) await db.query(index.sql);
}

/**
 * The names of the indexes on resource_record's partitions now: a server start checks its screens' indexes against
 * them in one query, instead of one "create index if not exists" per index.
 */
export async function existingIndexes(db: Queryable): Promise<Set<string>> {
  const rows = await db.query<{ name: string }>(
    `select indexname as name from pg_indexes where schemaname = current_schema() and tablename like 'rr$%'`,
  );
  return new Set(rows.map((r) => r.name));
}

interface IndexStatement {
  name: string;
  sql: string;
}

/** The indexes a screen's filters and sorts need, each with its name and the statement that makes it. */
async function indexesOf(db: Queryable, screen: ScreenSchema): Promise<IndexStatement[]> {
  const resource = screen.resource.name;
  const name = (field: FieldDef, suffix = '') =>
    `rr_${resource}_${field.key}`.toLowerCase().slice(0, 63 - suffix.length) + suffix;
  const sortField = screen.list?.defaultSort?.field;
  const found: IndexStatement[] = [];
  const add = (n: string, definition: string) =>
    found.push({ name: n, sql: `create index if not exists ${n} on ${partitionOf(resource)} ${definition}` });
  for (const field of screen.fields) {
    const sorted = field.key === sortField;
    if (!field.index && !sorted) continue;
    const value = fieldSql(field);
    add(name(field), `(org_id, (${value}))`);
    if (sorted || field.sortable) add(name(field, '_d'), `(org_id, (${value}) nulls first, id)`);
    if (field.index && filterMode(field) === 'contains' && (await hasTrigrams(db)))
      add(name(field, '_t'), `using gin ((${value}) gin_trgm_ops)`);
  }
  for (const index of screen.list?.indexes ?? []) {
    const composite = compositeIndex(screen, index);
    if (composite) add(composite.name, composite.definition);
  }
  return found;
}

type CompositeIndex = NonNullable<NonNullable<ScreenSchema['list']>['indexes']>[number];

function compositeIndex(screen: ScreenSchema, index: CompositeIndex): { name: string; definition: string } | null {
  const field = (key: string) => screen.fields.find((f) => f.key === key);
  const equals = index.equals.map(field);
  const sort = index.sort === undefined ? undefined : field(index.sort);
  // The registry refuses unknown keys; a view checked against another owner could still miss one.
  if (equals.some((f) => !f) || (index.sort && !sort)) return null;
  const columns = [...(equals as FieldDef[]).map((f) => `(${fieldSql(f)})`)];
  if (sort) columns.push(`(${fieldSql(sort)}) nulls first`, 'id');
  const keys = [...index.equals, ...(index.sort ? [index.sort] : [])].join('_');
  const name = `rr_${screen.resource.name}_${keys}_c`.toLowerCase().slice(0, 63);
  return { name, definition: `(org_id, ${columns.join(', ')})` };
}
