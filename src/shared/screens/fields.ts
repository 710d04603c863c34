import type { FieldDef, ScreenSchema } from '../generated/screen.js';
import type { Locale } from '../i18n/messages.js';
import { MOBILE_PHONE } from '../password/policy.js';

export type { ActionDef, ChartDef, ChartReferenceLine, FieldDef, ScreenSchema } from '../generated/screen.js';

const DATE = '^\\d{4}-\\d{2}-\\d{2}$';
const DATETIME = '^\\d{4}-\\d{2}-\\d{2}[ T]\\d{2}:\\d{2}(:\\d{2})?$';

/** The value types of a field as JSON Schema: what ajv checks on the server and in the browser alike. */
export function fieldJsonSchema(field: FieldDef): Record<string, unknown> {
  const text = (extra: Record<string, unknown> = {}) => ({
    type: 'string',
    ...(field.minLength !== undefined && { minLength: field.minLength }),
    ...(field.maxLength !== undefined && { maxLength: field.maxLength }),
    ...(field.pattern !== undefined && { pattern: field.pattern }),
    ...extra,
  });
  const range = {
    ...(field.minimum !== undefined && { minimum: field.minimum }),
    ...(field.maximum !== undefined && { maximum: field.maximum }),
  };
  // Record ids start at 1; a tree over organisations declares minimum 0, the base organisation's id.
  const id = { type: 'integer', minimum: field.minimum ?? 1 };
  switch (field.type) {
    case 'text':
    case 'textarea':
    case 'barcode':
    case 'file':
    case 'image':
      return text();
    case 'phone':
      return text({ pattern: MOBILE_PHONE.source });
    case 'email':
      return text({ format: 'email' });
    case 'integer':
      return { type: 'integer', ...range };
    case 'number':
    case 'money':
      return { type: 'number', ...range };
    case 'boolean':
      return { type: 'boolean' };
    case 'date':
      return { type: 'string', pattern: DATE };
    case 'datetime':
      return { type: 'string', pattern: DATETIME };
    case 'dateRange':
      return { type: 'array', items: { type: 'string', pattern: DATE }, minItems: 2, maxItems: 2 };
    case 'enum': {
      const values = field.options?.map((o) => o.value);
      const one = values ? { enum: values } : { type: ['string', 'number'] };
      return field.multiple ? { type: 'array', items: one, uniqueItems: true } : one;
    }
    case 'reference':
      return field.reference?.multiple ? { type: 'array', items: id, uniqueItems: true } : id;
    case 'tree':
      return field.tree?.multiple ? { type: 'array', items: id, uniqueItems: true } : id;
    case 'list':
      return { type: 'array', items: recordJsonSchema(field.itemFields ?? []) };
  }
}

/** A record of these fields: every field optional at this level (required is judged with predicates). */
export function recordJsonSchema(fields: readonly FieldDef[]): Record<string, unknown> {
  return {
    type: 'object',
    additionalProperties: false,
    properties: Object.fromEntries(fields.map((f) => [f.key, { anyOf: [fieldJsonSchema(f), { type: 'null' }] }])),
  };
}

/** The label an enum's own options give a value, in the user's language; undefined for a value they lack. */
export function optionLabel(field: FieldDef | undefined, value: unknown, locale: Locale): string | undefined {
  return field?.options?.find((o) => o.value === value)?.label[locale];
}

export function fieldByKey(screen: ScreenSchema, key: string): FieldDef | undefined {
  return screen.fields.find((f) => f.key === key);
}

/** A field only the server writes: read-only, stamped (who, where, when), numbered or copied by it. */
export function serverKept(field: FieldDef): boolean {
  return Boolean(field.readOnly || field.stamp || field.numbering || field.copy);
}

/** Columns of the list: the screen's order, or every field whose column is not switched off. */
export function listColumns(screen: ScreenSchema): FieldDef[] {
  // A rich list is a column only when its field says so: its rows read long.
  const shown = (f: FieldDef) =>
    f.type === 'list' ? f.column !== undefined && f.column !== false : f.column !== false;
  const keys = screen.list?.columns ?? screen.fields.filter(shown).map((f) => f.key);
  return keys.map((k) => fieldByKey(screen, k)).filter((f): f is FieldDef => f !== undefined);
}

/** A column the schema marks as key (`column.key`). */
const markedKey = (f: FieldDef) => typeof f.column === 'object' && f.column.key === true;

/**
 * The field that holds a record's state: its lifecycle's, else an enum field named status (most
 * screens without a lifecycle still keep one, and a user scans a list for it).
 */
export function stateField(screen: ScreenSchema): string | undefined {
  const lifecycle = screen.resource.lifecycle?.field;
  if (lifecycle) return lifecycle;
  return screen.fields.find((f) => f.key === 'status' && f.type === 'enum')?.key;
}

/**
 * The list's key columns (what a user must see of every row, at any window size), in column order:
 * those the schema marks, else the first column, the title field and the state field.
 */
export function keyColumns(screen: ScreenSchema): string[] {
  const columns = listColumns(screen);
  const marked = columns.filter(markedKey).map((f) => f.key);
  if (marked.length > 0) return marked;
  const chosen = new Set([columns[0]?.key, screen.resource.titleField, stateField(screen)]);
  return columns.filter((f) => chosen.has(f.key)).map((f) => f.key);
}

/** Fields the user writes: not read-only, not hidden in the form. */
export function formFields(screen: ScreenSchema): FieldDef[] {
  return screen.fields.filter((f) => !f.readOnly && !f.form?.hidden);
}

export function sortableFields(screen: ScreenSchema): string[] {
  return screen.fields.filter((f) => f.sortable).map((f) => f.key);
}
