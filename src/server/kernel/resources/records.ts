import type { FieldDef, ScreenSchema } from '../../../shared/screens/fields.js';
import { serverKept } from '../../../shared/screens/fields.js';
import { isEmpty, type RecordValues } from '../../../shared/screens/predicate.js';
import { validateRecord, type FieldError } from '../../../shared/screens/validate.js';
import { screenMessage } from '../../../shared/screens/messages.js';
import type { Locale } from '../../../shared/i18n/messages.js';
import { offsetDateTimeIn } from '../../../shared/time.js';
import type { Queryable } from '../db/database.js';
import { dictionaryEntries } from '../dictionaries/lookup.js';
import { existingIds, findDuplicate, titlesOf, type StoredRecord } from './repository.js';

/** A record as the API shows it: the document's fields beside the row's own (id, version, …). */
export type ApiRecord = RecordValues & {
  id: number;
  version: number;
  orgId: number;
  syncFlag: number;
  createdAt: Date;
  updatedAt: Date;
  /** Titles of referenced records, by field key, for the list and the read view. */
  labels?: Record<string, string | string[]>;
};

/** Any stored row, its document typed or not. */
export type AnyStored = Omit<StoredRecord, 'data'> & { data: object };

export function present(row: AnyStored): ApiRecord {
  return {
    ...(row.data as RecordValues),
    id: row.id,
    version: row.version,
    orgId: row.orgId,
    syncFlag: row.syncFlag,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

const refOf = (f: FieldDef) =>
  f.type === 'reference' && f.reference
    ? { resource: f.reference.resource, labelField: f.reference.labelField ?? 'name' }
    : f.type === 'tree' && f.tree
      ? { resource: f.tree.resource, labelField: f.tree.labelField ?? 'name' }
      : undefined;

const idsIn = (value: unknown): number[] =>
  (Array.isArray(value) ? value : [value]).filter((v): v is number => typeof v === 'number');

/** Adds `labels` for reference and tree fields: one query per field for the whole page. */
export async function withLabels(
  db: Queryable,
  screen: ScreenSchema,
  orgId: number,
  records: ApiRecord[],
): Promise<ApiRecord[]> {
  for (const field of screen.fields) {
    if (field.type === 'enum' && field.dictionary)
      await withDictionaryLabels(db, field, field.dictionary, orgId, records);
    const ref = refOf(field);
    if (!ref) continue;
    const titles = await titlesOf(db, ref.resource, ref.labelField, orgId, [
      ...new Set(records.flatMap((r) => idsIn(r[field.key]))),
    ]);
    for (const record of records) {
      const value = record[field.key];
      if (isEmpty(value)) continue;
      const label = Array.isArray(value)
        ? idsIn(value).map((id) => titles.get(id) ?? String(id))
        : (titles.get(value as number) ?? String(value));
      record.labels = { ...record.labels, [field.key]: label };
    }
  }
  return records;
}

/** An enum kept in a dictionary (spec 7.4) shows its entries' labels, as the list and the workbook read. */
async function withDictionaryLabels(
  db: Queryable,
  field: FieldDef,
  dictionary: string,
  orgId: number,
  records: ApiRecord[],
) {
  if (!records.some((r) => !isEmpty(r[field.key]))) return;
  const entries = await dictionaryEntries(db, orgId, dictionary);
  const label = (v: unknown) => entries.get(String(v)) ?? String(v);
  for (const record of records) {
    const value = record[field.key];
    if (isEmpty(value)) continue;
    record.labels = { ...record.labels, [field.key]: Array.isArray(value) ? value.map(label) : label(value) };
  }
}

/**
 * Datetime fields hold the lab's local time; one sent with its offset (2026-03-01T12:00:00Z, …+08:00)
 * is that instant in the lab's zone. Anything else is left for validation to judge.
 */
export function withLocalTimes(screen: ScreenSchema, body: RecordValues, timeZone: string): RecordValues {
  let out: RecordValues | undefined;
  for (const field of screen.fields) {
    const value = body[field.key];
    if (field.type !== 'datetime' || typeof value !== 'string') continue;
    const local = offsetDateTimeIn(value, timeZone);
    if (local !== undefined) (out ??= { ...body })[field.key] = local;
  }
  return out ?? body;
}

/**
 * A value sent for a field fixed once created (form.readOnlyOnEdit) is not written: the form sends the
 * stored value back as it read it. A value of the wrong type there is no such echo but a mistake, and
 * is named with a 400 rather than ignored (issue 20: input taken as declared).
 */
export function fixedFieldErrors(screen: ScreenSchema, body: RecordValues, locale: Locale): FieldError[] {
  const fixed = screen.fields.filter((f) => f.form?.readOnlyOnEdit && !serverKept(f) && body[f.key] !== undefined);
  if (fixed.length === 0) return [];
  const values = Object.fromEntries(fixed.map((f) => [f.key, body[f.key]]));
  return validateRecord({ ...screen, fields: fixed, rules: undefined }, values, locale).filter(
    (e) => e.key !== 'field.required',
  );
}

/** Only the schema's user-written fields, with defaults for new records; read-only ones are the server's. */
export function writableData(screen: ScreenSchema, body: RecordValues, previous?: RecordValues): RecordValues {
  const data: RecordValues = {};
  for (const field of screen.fields) {
    // Stamped and numbered fields are the server's: issued on create (issued.ts), kept ever after.
    const locked = serverKept(field) || (previous && field.form?.readOnlyOnEdit);
    if (locked) {
      if (previous && previous[field.key] !== undefined) data[field.key] = previous[field.key];
      continue;
    }
    if (body[field.key] !== undefined) data[field.key] = body[field.key];
    else if (previous && previous[field.key] !== undefined) data[field.key] = previous[field.key];
    else if (!previous && field.default !== undefined) data[field.key] = field.default;
  }
  // Unknown keys are kept so validation can name them, instead of being dropped silently.
  for (const key of Object.keys(body)) {
    if (
      !screen.fields.some((f) => f.key === key) &&
      !['id', 'version', 'orgId', 'syncFlag', 'createdAt', 'updatedAt', 'labels'].includes(key)
    ) {
      data[key] = body[key];
    }
  }
  return data;
}

/**
 * Every check a write must pass: the shared validation (same messages as the browser), then what only
 * the database knows: unique values within the organisation and references that exist.
 */
export async function checkWrite(
  db: Queryable,
  screen: ScreenSchema,
  orgId: number,
  data: RecordValues,
  exceptId: number,
  locale: Locale,
): Promise<FieldError[]> {
  const errors = validateRecord(screen, data, locale);
  if (errors.length > 0) return errors;
  for (const field of screen.fields) {
    const value = data[field.key];
    if (isEmpty(value)) continue;
    if (field.unique && (await findDuplicate(db, screen, orgId, field, value, exceptId))) {
      errors.push({
        field: field.key,
        key: 'field.unique',
        message: screenMessage('field.unique', locale, { label: field.label[locale], value: String(value) }),
      });
    }
    const ref = refOf(field);
    if (ref) {
      const ids = idsIn(value);
      const found = await existingIds(db, ref.resource, orgId, ids);
      if (ids.some((id) => !found.has(id))) {
        errors.push({
          field: field.key,
          key: 'field.reference',
          message: screenMessage('field.reference', locale, { label: field.label[locale] }),
        });
      }
    }
  }
  return errors;
}
