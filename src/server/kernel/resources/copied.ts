import type { Locale } from '../../../shared/i18n/messages.js';
import type { FieldDef, ScreenSchema } from '../../../shared/screens/fields.js';
import { screenMessage } from '../../../shared/screens/messages.js';
import type { RecordValues } from '../../../shared/screens/predicate.js';
import type { Queryable } from '../db/database.js';
import { InvalidRecord } from '../http/envelope.js';
import { findRecords } from './repository.js';

type Copied = FieldDef & { copy: NonNullable<FieldDef['copy']> };

/**
 * What a record holds of another, never typed: the fields a schema copies (a special treatment's patient,
 * from the specimen of its barcode), read when the record is written. A match value no record of the
 * resource holds is refused on the match field; an empty one leaves the copies empty.
 */
export async function copiedValues(
  tx: Queryable,
  owner: (resource: string) => ScreenSchema | undefined,
  screen: ScreenSchema,
  orgId: number,
  data: RecordValues,
  locale: Locale,
): Promise<RecordValues> {
  const copied = screen.fields.filter((f): f is Copied => f.copy !== undefined);
  if (copied.length === 0) return data;
  const result: RecordValues = { ...data };
  const sources = new Map<string, RecordValues>();
  for (const field of copied) {
    const { resource, match } = field.copy;
    const value = data[match];
    const key = `${resource}:${match}`;
    if (value === undefined || value === null || value === '') {
      delete result[field.key];
      continue;
    }
    if (!sources.has(key)) {
      const from = owner(resource);
      const [row] = from
        ? await findRecords(
            tx,
            from,
            orgId,
            { [match]: typeof value === 'number' ? value : String(value) },
            { limit: 1 },
          )
        : [];
      if (!row) {
        const matched = screen.fields.find((f) => f.key === match);
        const label = matched?.label[locale] ?? match;
        throw new InvalidRecord([
          {
            field: match,
            key: 'field.copy',
            message: screenMessage('field.copy', locale, { label, value: String(value) }),
          },
        ]);
      }
      sources.set(key, row.data as RecordValues);
    }
    const source = sources.get(key)!;
    if (source[field.copy.field] === undefined) delete result[field.key];
    else result[field.key] = source[field.copy.field];
  }
  return result;
}
