import type { Locale } from '../../../shared/i18n/messages.js';
import type { RecordEvent } from '../../../shared/lifecycle/events.js';
import { transitionOf } from '../../../shared/lifecycle/lifecycle.js';
import { optionLabel, type FieldDef, type ScreenSchema } from '../../../shared/screens/fields.js';
import { isEmpty } from '../../../shared/screens/predicate.js';
import type { Queryable } from '../db/database.js';
import { withLabels, type ApiRecord } from './records.js';

/** A value a step was given, as a user reads it. */
export interface GivenInput {
  label: string;
  value: string;
}

/**
 * What each step of a history was given (its transition's required fields: a reason typed, a reason
 * chosen from a dictionary), as a user reads it: the field's label and the value shown, an entry or a
 * referenced record by its name. Labels are read for the whole history at once.
 */
export async function givenInputs(
  db: Queryable,
  owner: ScreenSchema,
  orgId: number,
  events: RecordEvent[],
  locale: Locale,
): Promise<Map<number, GivenInput[]>> {
  const lifecycle = owner.resource.lifecycle;
  const asked = (e: RecordEvent) =>
    e.kind === 'transition' && lifecycle ? (transitionOf(lifecycle, e.name)?.requires ?? []) : [];
  const keys = new Set(events.flatMap(asked));
  const fields = owner.fields.filter((f) => keys.has(f.key));
  const given = new Map<number, GivenInput[]>();
  if (fields.length === 0) return given;
  const stepping = events.filter((e) => asked(e).length > 0);
  const records = stepping.map((e) => ({ ...e.details }) as ApiRecord);
  await withLabels(db, { ...owner, fields }, orgId, records);
  stepping.forEach((e, i) => {
    const record = records[i]!;
    const inputs = fields
      .filter((f) => asked(e).includes(f.key) && !isEmpty(record[f.key]))
      .map((f) => ({ label: f.label[locale], value: shown(f, record, locale) }));
    if (inputs.length > 0) given.set(e.id, inputs);
  });
  return given;
}

function shown(field: FieldDef, record: ApiRecord, locale: Locale): string {
  const label = record.labels?.[field.key];
  if (label !== undefined) return Array.isArray(label) ? label.join('、') : label;
  const value = record[field.key];
  return optionLabel(field, value, locale) ?? String(value);
}
