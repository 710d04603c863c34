import { BASE_ORG_ID } from '../../shared/access/can.js';
import type { Locale } from '../../shared/i18n/messages.js';
import type { ScreenSchema } from '../../shared/screens/fields.js';
import type { RecordValues } from '../../shared/screens/predicate.js';
import type { FieldError } from '../../shared/screens/validate.js';
import { screenMessage } from '../../shared/screens/messages.js';
import type { Kernel } from '../kernel/context.js';
import { isUniqueViolation } from '../kernel/db/errors.js';
import { badRequest, conflict, forbidden, InvalidRecord, notFound } from '../kernel/http/envelope.js';
import { contentVersion } from '../kernel/resources/contentVersion.js';
import type { Call, TableAdapter, TableRecord, TableResource } from '../kernel/resources/tables.js';
import { dictionaryStore } from './publicDictionaries.js';
import {
  deleteDictionary,
  getDictionary,
  insertDictionary,
  pageDictionaries,
  replaceDetails,
  updateDictionary,
  type DetailInput,
} from './repository.js';
import { type Dictionary } from '../kernel/dictionaries/lookup.js';
import { changeDictionary, writableDictionary } from './service.js';

/**
 * The dictionary screens (spec 2.2 dictionary/{bus}, dictionary/{sys}; spec 7.4): each dictionary with
 * its detail rows (label, value, order, remark), edited together in one dialog. Business dictionaries
 * belong to the caller's organisation (on the public-platform route, the base organisation's are read);
 * system dictionaries are shared by every lab and kept by the base organisation.
 */
type Kind = 'bus' | 'sys';

function detailRows(d: Dictionary): RecordValues[] {
  return d.details.map((x) => ({
    label: x.label,
    value: x.value,
    sort: x.sort,
    ...(x.remark ? { remark: x.remark } : {}),
  }));
}

/** The values of a dictionary as its screen shows them: what a lab's copy takes from its source too. */
export function dictionaryValues(d: Dictionary & { sort?: number }): RecordValues {
  return {
    name: d.name,
    ...(d.description ? { description: d.description } : {}),
    sort: d.sort ?? 0,
    details: detailRows(d),
  };
}

/** A dictionary as a row of its screen; syncFlag tells a lab's copies of public dictionaries apart (spec 3). */
export function dictionaryRecord(d: Dictionary & { sort?: number }): TableRecord {
  const values = dictionaryValues(d);
  return { id: d.id, version: contentVersion(values), syncFlag: d.syncFlag, ...values };
}

/**
 * Each label once in a dictionary: a label names one entry (a system dictionary is read by label, e.g.
 * each screen's days in 查询时间范围, where several entries share a value).
 */
export function duplicateLabel(screen: ScreenSchema, data: RecordValues, locale: Locale): FieldError | undefined {
  const seen = new Set<string>();
  for (const row of (Array.isArray(data.details) ? data.details : []) as RecordValues[]) {
    const value = String(row.label ?? '').trim();
    if (seen.has(value)) {
      const label =
        screen.fields.find((f) => f.key === 'details')?.itemFields?.find((f) => f.key === 'label')?.label[locale] ??
        'label';
      return {
        field: 'details',
        key: 'field.unique',
        message: screenMessage('field.unique', locale, { label, value }),
      };
    }
    seen.add(value);
  }
  return undefined;
}

/** The detail rows of a dictionary's values, trimmed, in order. */
export function detailInputs(data: RecordValues): DetailInput[] {
  const rows = (Array.isArray(data.details) ? data.details : []) as RecordValues[];
  return rows.map((row, i) => ({
    label: String(row.label ?? '').trim(),
    value: String(row.value ?? '').trim(),
    sort: typeof row.sort === 'number' ? row.sort : i,
    remark: typeof row.remark === 'string' && row.remark.trim() !== '' ? row.remark.trim() : null,
  }));
}

/** The detail rows the dialog sends, each label once. */
function wantedDetails(call: Call, data: RecordValues): DetailInput[] {
  const duplicate = duplicateLabel(call.screen, data, call.locale);
  if (duplicate) throw new InvalidRecord([duplicate]);
  return detailInputs(data);
}

const nameTaken = async <T>(write: () => Promise<T>): Promise<T> => {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error)) throw badRequest('dictionary.nameTaken');
    throw error;
  }
};

function dictionaries(ctx: Kernel, kind: Kind): TableAdapter {
  const { db } = ctx;
  /** Whose business dictionaries a read answers: the caller's, or the base organisation's on a public-platform route. */
  const readOrg = (call: Call) => (call.basic ? BASE_ORG_ID : call.actor.orgId);
  const visible = (call: Call, d: Dictionary | undefined) =>
    d && d.type === kind && (kind === 'sys' ? d.orgId === null : d.orgId === readOrg(call)) ? d : undefined;

  return {
    async list(call, q, page) {
      const found = await pageDictionaries(db, readOrg(call), { name: q.name?.trim(), type: kind, ...page });
      return { records: found.records.map(dictionaryRecord), total: found.total };
    },
    async get(call, id) {
      const d = visible(call, await getDictionary(db, id));
      return d && dictionaryRecord(d);
    },
    async create(call, data) {
      if (kind === 'sys' && call.actor.orgId !== BASE_ORG_ID) throw forbidden();
      const details = wantedDetails(call, data);
      const id = await nameTaken(() =>
        changeDictionary(db, call.actor, call.ip, 'create', async (tx) => {
          const created = await insertDictionary(tx, kind === 'sys' ? null : call.actor.orgId, {
            name: String(data.name).trim(),
            type: kind,
            description: typeof data.description === 'string' ? data.description : null,
            sort: typeof data.sort === 'number' ? data.sort : 0,
          });
          await replaceDetails(tx, (await getDictionary(tx, created))!, details);
          return { id: created, result: created };
        }),
      );
      return dictionaryRecord((await getDictionary(db, id))!);
    },
    async update(call, current, data) {
      if (data.version !== current.version) throw conflict();
      const before = await writableDictionary(db, call.actor, current.id);
      const details = wantedDetails(call, data);
      await nameTaken(() =>
        changeDictionary(db, call.actor, call.ip, 'update', async (tx) => {
          await updateDictionary(tx, before.id, {
            description: typeof data.description === 'string' ? data.description : '',
            sort: typeof data.sort === 'number' ? data.sort : 0,
          });
          await replaceDetails(tx, before, details);
          return { id: before.id, before, result: null };
        }),
      );
      const after = await getDictionary(db, current.id);
      if (!after) throw notFound();
      return dictionaryRecord(after);
    },
    async remove(call, current) {
      const before = await writableDictionary(db, call.actor, current.id);
      await changeDictionary(db, call.actor, call.ip, 'delete', async (tx) => {
        await deleteDictionary(tx, before.id);
        return { id: before.id, before, result: null };
      });
    },
  };
}

/** Business dictionaries (public data, kept in their own table and moved by their own store) and system dictionaries. */
export const DICTIONARY_TABLES: TableResource[] = [
  {
    resource: 'businessDictionary',
    adapter: (kernel) => dictionaries(kernel, 'bus'),
    publicStore: (kernel) => dictionaryStore(kernel),
  },
  { resource: 'systemDictionary', adapter: (kernel) => dictionaries(kernel, 'sys') },
];
