import { BASE_ORG_ID } from '../../shared/access/can.js';
import { screenMessage } from '../../shared/screens/messages.js';
import { validateRecord } from '../../shared/screens/validate.js';
import type { Kernel } from '../kernel/context.js';
import type { Queryable } from '../kernel/db/database.js';
import { notFound } from '../kernel/http/envelope.js';
import type { PublicSource, PublicStore } from '../kernel/publicData/stores.js';
import { flagDictionaryCopies, getDictionary, pageDictionaries, replaceDetails } from './repository.js';
import { type Dictionary } from '../kernel/dictionaries/lookup.js';
import { detailInputs, dictionaryRecord, dictionaryValues, duplicateLabel } from './screen.js';

/**
 * Business dictionaries as public data (spec 1, 2.2 dictionary/{bus}, 7.4 syncDictionary /
 * issueDictionary): the base organisation's business dictionaries, with their entries, are what a lab
 * takes. They live in the dictionary tables, so this store tells the generic public-data mechanism
 * (resources/publicData.ts) how to read them and write a lab's copies; the rules stay there.
 */
const RESOURCE = 'businessDictionary';

/** The base organisation's business dictionaries as sources: all, or the chosen ones. */
export async function dictionarySources(db: Queryable, ids?: number[]): Promise<PublicSource[]> {
  const rows = await db.query<{ id: number }>(
    `select id from dictionary where org_id = $1 and type = 'bus' and ($2::int[] is null or id = any($2::int[])) order by sort, id`,
    [BASE_ORG_ID, ids ?? null],
  );
  const sources: PublicSource[] = [];
  for (const { id } of rows) {
    const d = await getDictionary(db, id);
    if (d) sources.push({ id, data: dictionaryValues(d) });
  }
  return sources;
}

const textOrNull = (value: unknown) => (typeof value === 'string' && value.trim() !== '' ? value.trim() : null);

/** A lab's new copy of each source, with its entries, remembering where it came from (syncFlag 1). */
export async function insertDictionaryCopies(db: Queryable, orgId: number, sources: PublicSource[]): Promise<number[]> {
  const ids: number[] = [];
  for (const source of sources) {
    const [row] = await db.query<{ id: number }>(
      `insert into dictionary (org_id, name, type, description, sort, sync_flag, source_org_id, source_id)
       values ($1, $2, 'bus', $3, $4, 1, $5, $6) returning id`,
      [
        orgId,
        String(source.data.name),
        textOrNull(source.data.description),
        Number(source.data.sort) || 0,
        BASE_ORG_ID,
        source.id,
      ],
    );
    const copy = await getDictionary(db, row!.id);
    await replaceDetails(db, copy!, detailInputs(source.data));
    ids.push(row!.id);
  }
  return ids;
}

/** A copy takes its source again: name, description, order and entries (entries kept by label). */
async function refreshCopy(db: Queryable, copyId: number, source: PublicSource): Promise<void> {
  await db.query(
    'update dictionary set name = $2, description = $3, sort = $4, sync_flag = 1, updated_at = now() where id = $1',
    [copyId, String(source.data.name), textOrNull(source.data.description), Number(source.data.sort) || 0],
  );
  const copy: Dictionary | undefined = await getDictionary(db, copyId);
  if (!copy) throw notFound();
  await replaceDetails(db, copy, detailInputs(source.data));
}

export function dictionaryStore(ctx: Kernel): PublicStore {
  return {
    logResource: 'dictionary',
    sources: dictionarySources,
    async offered(db, query, page) {
      const found = await pageDictionaries(db, BASE_ORG_ID, {
        name: query.name?.trim(),
        type: 'bus',
        ...page,
      });
      return { records: found.records.map(dictionaryRecord), total: found.total };
    },
    async copyOf(db, orgId, sourceId) {
      const rows = await db.query<{ id: number }>(
        'select id from dictionary where org_id = $1 and source_org_id = $2 and source_id = $3',
        [orgId, BASE_ORG_ID, sourceId],
      );
      return rows[0]?.id;
    },
    /** The screen's own rules, and a name the lab does not use for a dictionary of its own. */
    async check(db, orgId, source, copyId, locale) {
      const screen = ctx.screens.byResource(RESOURCE);
      if (!screen) throw notFound();
      const errors = validateRecord(screen, source.data, locale);
      const duplicate = duplicateLabel(screen, source.data, locale);
      if (duplicate) errors.push(duplicate);
      const taken = await db.query<{ id: number }>(
        `select id from dictionary where org_id = $1 and type = 'bus' and name = $2 and id <> $3`,
        [orgId, String(source.data.name), copyId],
      );
      if (taken.length > 0) {
        const label = screen.fields.find((f) => f.key === 'name')?.label[locale] ?? 'name';
        errors.push({
          field: 'name',
          key: 'field.unique',
          message: screenMessage('field.unique', locale, { label, value: String(source.data.name) }),
        });
      }
      return errors;
    },
    async write(db, orgId, _userId, refresh, fresh) {
      for (const { copyId, source } of refresh) await refreshCopy(db, copyId, source);
      await insertDictionaryCopies(db, orgId, fresh);
    },
    async waiting(db, orgId, ids) {
      const rows = await db.query<{ sourceId: number }>(
        `select source_id as "sourceId" from dictionary where org_id = $1 and sync_flag = 2 and id = any($2::int[]) and source_id is not null`,
        [orgId, ids],
      );
      return rows.map((r) => r.sourceId);
    },
    flag: flagDictionaryCopies,
  };
}
