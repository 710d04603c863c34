import type { FieldDef, ScreenSchema } from '../generated/screen.js';
import type { Locale } from '../i18n/messages.js';
import { fieldJsonSchema, recordJsonSchema } from './fields.js';
import { isEmpty, matches, type RecordValues } from './predicate.js';
import { screenMessage, type ScreenMessageKey } from './messages.js';
import { schemaErrors, type SchemaError } from './schemaCheck.js';

type ErrorObject = SchemaError;

const schemas = new WeakMap<readonly FieldDef[], object>();

/** The JSON Schema of a record of these fields, made once per field list. */
function schemaFor(fields: readonly FieldDef[]): object {
  let schema = schemas.get(fields);
  if (!schema) {
    schema = recordJsonSchema(fields);
    schemas.set(fields, schema);
  }
  return schema;
}

export interface FieldError {
  /** Field key, or '' for an error about the whole record. */
  field: string;
  key: ScreenMessageKey;
  message: string;
}

function schemaErrorKey(field: FieldDef, error: ErrorObject): { key: ScreenMessageKey; n?: number } {
  switch (error.keyword) {
    case 'maxLength':
      return { key: 'field.maxLength', n: error.params.limit as number };
    case 'minLength':
      return { key: 'field.minLength', n: error.params.limit as number };
    case 'minimum':
      return { key: 'field.minimum', n: error.params.limit as number };
    case 'maximum':
      return { key: 'field.maximum', n: error.params.limit as number };
    case 'pattern':
      if (field.type === 'phone') return { key: 'field.phone' };
      if (field.type === 'date' || field.type === 'dateRange') return { key: 'field.date' };
      if (field.type === 'datetime') return { key: 'field.datetime' };
      return { key: 'field.pattern' };
    case 'format':
      return { key: 'field.email' };
    case 'enum':
      return { key: 'field.option' };
    case 'type':
      return {
        key:
          field.type === 'integer'
            ? 'field.integer'
            : field.type === 'number' || field.type === 'money'
              ? 'field.number'
              : 'field.type',
      };
    default:
      return { key: 'field.type' };
  }
}

/** The deepest error per field: anyOf [value, null] reports both branches; the value's one says why. */
function fieldErrors(fields: readonly FieldDef[], errors: ErrorObject[], locale: Locale): FieldError[] {
  const out = new Map<string, FieldError>();
  for (const error of errors) {
    const key = error.instancePath.split('/')[1];
    const field = fields.find((f) => f.key === key);
    if (
      !field ||
      out.has(field.key) ||
      error.keyword === 'anyOf' ||
      (error.keyword === 'type' && error.params.type === 'null')
    )
      continue;
    const { key: messageKey, n } = schemaErrorKey(field, error);
    const message =
      messageKey === 'field.pattern' && field.patternMessage
        ? field.patternMessage[locale]
        : screenMessage(messageKey, locale, { label: field.label[locale], n: n ?? '' });
    out.set(field.key, { field: field.key, key: messageKey, message });
  }
  for (const error of errors) {
    if (error.keyword === 'additionalProperties') {
      const extra = String(error.params.additionalProperty);
      out.set(extra, {
        field: extra,
        key: 'field.unknown',
        message: screenMessage('field.unknown', locale, { label: extra }),
      });
    }
  }
  return [...out.values()];
}

function precisionErrors(fields: readonly FieldDef[], record: RecordValues, locale: Locale): FieldError[] {
  return fields
    .filter((f) => (f.type === 'number' || f.type === 'money') && typeof record[f.key] === 'number')
    .filter((f) => {
      const places = f.precision ?? (f.type === 'money' ? 2 : 6);
      const text = String(record[f.key]);
      return (text.split('.')[1]?.length ?? 0) > places;
    })
    .map((f) => ({
      field: f.key,
      key: 'field.precision' as const,
      message: screenMessage('field.precision', locale, {
        label: f.label[locale],
        n: f.precision ?? (f.type === 'money' ? 2 : 6),
      }),
    }));
}

function requiredErrors(fields: readonly FieldDef[], record: RecordValues, locale: Locale): FieldError[] {
  return fields
    .filter((f) => !f.readOnly && matches(f.visibleWhen, record))
    .filter(
      (f) =>
        (f.required || (f.requiredWhen !== undefined && matches(f.requiredWhen, record))) && isEmpty(record[f.key]),
    )
    .map((f) => ({
      field: f.key,
      key: 'field.required' as const,
      message: screenMessage('field.required', locale, { label: f.label[locale] }),
    }));
}

function crossFieldErrors(screen: ScreenSchema, record: RecordValues, locale: Locale): FieldError[] {
  return (screen.rules ?? [])
    .filter((rule) => matches(rule.when, record) && !isEmpty(record[rule.left]) && !isEmpty(record[rule.right]))
    .filter((rule) => !matches({ field: rule.left, op: rule.op, value: record[rule.right] }, record))
    .map((rule) => ({ field: rule.left, key: 'field.rule' as const, message: rule.message[locale] }));
}

/**
 * Checks a record against its screen: value types, lengths, ranges and patterns (the JSON Schema of the
 * field definitions, walked by schemaCheck.ts: no generated code, so the browser needs no eval), required and conditionally required fields, decimals, and cross-field rules.
 * The browser runs it before sending; the server runs it again and answers the same messages.
 */
export function validateRecord(screen: ScreenSchema, record: RecordValues, locale: Locale = 'zh-CN'): FieldError[] {
  const fields = screen.fields;
  const found = schemaErrors(schemaFor(fields), record);
  const typeErrors = found.length === 0 ? [] : fieldErrors(fields, found, locale);
  const seen = new Set(typeErrors.map((e) => e.field));
  const later = [...requiredErrors(fields, record, locale), ...precisionErrors(fields, record, locale)].filter(
    (e) => !seen.has(e.field) && (seen.add(e.field), true),
  );
  const errors = [...typeErrors, ...later];
  if (errors.length > 0) return errors;
  return crossFieldErrors(screen, record, locale);
}

/** Just one field's check, for validation on blur. */
export function validateField(
  screen: ScreenSchema,
  key: string,
  record: RecordValues,
  locale: Locale = 'zh-CN',
): string | undefined {
  return validateRecord(screen, record, locale).find((e) => e.field === key)?.message;
}

export { fieldJsonSchema };
