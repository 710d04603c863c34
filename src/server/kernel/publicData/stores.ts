import { BASE_ORG_ID } from '../../../shared/access/can.js';
import type { Locale } from '../../../shared/i18n/messages.js';
import type { ScreenSchema } from '../../../shared/screens/fields.js';
import type { RecordValues } from '../../../shared/screens/predicate.js';
import type { FieldError } from '../../../shared/screens/validate.js';
import type { Queryable } from '../db/database.js';
import { listRecords } from '../resources/repository.js';
import { checkWrite, present } from '../resources/records.js';

/**
 * Public data (spec 1, 7.4, 7.6): records the base organisation keeps for every lab. The base
 * organisation distributes them to chosen labs, a main lab synchronises all of them, a sub lab imports
 * the ones it picks. Each lab's copy remembers its source; when the source changes the copy is flagged
 * (syncFlag 2) until the lab confirms the update. syncFlag: 0 own record, 1 synced copy, 2 update waiting.
 *
 * The rules live here once; where the records live is a store's business: the generic resource's
 * table by default, or a table of the resource's own (business dictionaries) that its table resource names.
 */
export interface PublicSource {
  id: number;
  data: RecordValues;
}

/** Where a public resource keeps its records, and how a lab's copy of one is written. */
export interface PublicStore {
  /** The base organisation's records: all of them, or the chosen ones. */
  sources(db: Queryable, ids?: number[]): Promise<PublicSource[]>;
  /** The base organisation's records a lab is offered for import: one page, filtered like the screen's list. */
  offered(
    db: Queryable,
    query: Record<string, string | undefined>,
    page: { page: number; size: number },
  ): Promise<{ records: unknown[]; total: number }>;
  /** The lab's copy of a source, when it holds one. */
  copyOf(db: Queryable, orgId: number, sourceId: number): Promise<number | undefined>;
  /** What would stop the source from being written as the lab's record (copyId 0: a new copy). */
  check(db: Queryable, orgId: number, source: PublicSource, copyId: number, locale: Locale): Promise<FieldError[]>;
  /** Writes the copies: existing ones take their source again, new ones are added (syncFlag 1 each). */
  write(
    db: Queryable,
    orgId: number,
    userId: number | null,
    refresh: { copyId: number; source: PublicSource }[],
    fresh: PublicSource[],
  ): Promise<void>;
  /** The sources of the lab's copies among ids whose update waits (syncFlag 2). */
  waiting(db: Queryable, orgId: number, ids: number[]): Promise<number[]>;
  /** Every lab's copy of the source learns that an update waits. */
  flag(db: Queryable, sourceId: number): Promise<void>;
  /** The operation log's name for these records. */
  logResource: string;
}

async function baseRecords(db: Queryable, screen: ScreenSchema, ids?: number[]): Promise<PublicSource[]> {
  return db.query<PublicSource>(
    `select id, data from resource_record where resource = $1 and org_id = $2 and ($3::int[] is null or id = any($3::int[])) order by id`,
    [screen.resource.name, BASE_ORG_ID, ids ?? null],
  );
}

/**
 * New copies of base records in a lab, each remembering its source (syncFlag 1), in one statement.
 * Answers the copies in the order of the sources.
 */
export async function insertCopies(
  db: Queryable,
  screen: ScreenSchema,
  orgId: number,
  sourceIds: number[],
  userId: number | null,
) {
  if (sourceIds.length === 0) return [];
  return db.query<{ id: number; data: Record<string, unknown> }>(
    `insert into resource_record (resource, org_id, data, sync_flag, source_org_id, source_id, created_by, updated_by)
     select resource, $2, data, 1, org_id, id, $4, $4 from resource_record
      where resource = $1 and org_id = ${BASE_ORG_ID} and id = any($3::int[]) order by id
     returning id, data`,
    [screen.resource.name, orgId, sourceIds, userId],
  );
}

/**
 * A copy keeps its source's references, which name base records; where the lab holds a copy of the
 * referenced record, the reference is pointed at that copy instead (an element at the lab's own form
 * page, a data source under the lab's own parent), so the lab's data hangs together as it does at the base.
 */
export async function repointReferences(
  db: Queryable,
  screen: ScreenSchema,
  orgId: number,
  copyIds: number[],
): Promise<void> {
  if (copyIds.length === 0) return;
  for (const field of screen.fields) {
    const ref = field.type === 'reference' ? field.reference : field.type === 'tree' ? field.tree : undefined;
    if (!ref) continue;
    // Keys are checked against ^[a-z][A-Za-z0-9]*$ when the schema loads: safe as literals.
    const key = field.key;
    const given = 'labelField' in ref ? ref.labelField : undefined;
    const title = given && /^[a-z][A-Za-z0-9]*$/.test(given) ? given : 'name';
    // The lab's record a base id stands for: its copy of that public record, or (for the lab's own
    // records, such as its groups) its record of the same title; else the id stays as it was.
    const local = (id: string) =>
      `coalesce((select m.id from resource_record m
          where m.resource = $2 and m.org_id = $3 and m.source_org_id = ${BASE_ORG_ID} and m.source_id = ${id}),
        (select o.id from resource_record o join resource_record b on b.resource = $2 and b.id = ${id}
          where o.resource = $2 and o.org_id = $3 and o.data->>'${title}' = b.data->>'${title}' order by o.id limit 1))`;
    const mapped = ref.multiple
      ? `(select coalesce(jsonb_agg(coalesce(${local('x.e::int')}, x.e::int) order by x.n), '[]'::jsonb)
            from jsonb_array_elements_text(c.data->'${key}') with ordinality as x(e, n))`
      : `coalesce(to_jsonb(${local(`(c.data->>'${key}')::int`)}), c.data->'${key}')`;
    const holds = ref.multiple
      ? `jsonb_typeof(c.data->'${key}') = 'array'`
      : `jsonb_typeof(c.data->'${key}') = 'number'`;
    await db.query(
      `update resource_record c set data = jsonb_set(c.data, '{${key}}', ${mapped})
        where c.resource = $1 and c.org_id = $3 and c.id = any($4::int[]) and ${holds}`,
      [screen.resource.name, ref.resource, orgId, copyIds],
    );
  }
}

/** The generic resource's records (resource_record) as a public-data store. */
export function recordStore(screen: ScreenSchema): PublicStore {
  const name = screen.resource.name;
  return {
    logResource: name,
    sources: (db, ids) => baseRecords(db, screen, ids),
    async offered(db, query, page) {
      const found = await listRecords(db, screen, BASE_ORG_ID, {
        ...page,
        sort: screen.list?.defaultSort,
        params: query,
      });
      return { records: found.records.map(present), total: found.total };
    },
    async copyOf(db, orgId, sourceId) {
      const rows = await db.query<{ id: number }>(
        'select id from resource_record where resource = $1 and org_id = $2 and source_id = $3',
        [name, orgId, sourceId],
      );
      return rows[0]?.id;
    },
    check: (db, orgId, source, copyId, locale) =>
      checkWrite(db, { ...screen, resource: { ...screen.resource, scope: 'org' } }, orgId, source.data, copyId, locale),
    async write(db, orgId, userId, refresh, fresh) {
      for (const { copyId, source } of refresh) {
        await db.query(
          'update resource_record set data = $2, sync_flag = 1, version = version + 1, updated_by = $3, updated_at = now() where resource = $4 and id = $1',
          [copyId, JSON.stringify(source.data), userId, name],
        );
      }
      const inserted = await insertCopies(
        db,
        screen,
        orgId,
        fresh.map((s) => s.id),
        userId,
      );
      await repointReferences(db, screen, orgId, [...refresh.map((r) => r.copyId), ...inserted.map((c) => c.id)]);
    },
    async waiting(db, orgId, ids) {
      const rows = await db.query<{ sourceId: number }>(
        `select source_id as "sourceId" from resource_record
          where resource = $1 and org_id = $2 and sync_flag = 2 and id = any($3::int[]) and source_id is not null`,
        [name, orgId, ids],
      );
      return rows.map((r) => r.sourceId);
    },
    async flag(db, sourceId) {
      await db.query(
        'update resource_record set sync_flag = 2 where resource = $1 and source_id = $2 and source_org_id = $3',
        [name, sourceId, BASE_ORG_ID],
      );
    },
  };
}

/** After the base organisation changes a public record, every lab copy shows that an update waits. */
export async function flagCopies(db: Queryable, screen: ScreenSchema, sourceId: number): Promise<void> {
  if (!screen.resource.publicData) return;
  await recordStore(screen).flag(db, sourceId);
}
