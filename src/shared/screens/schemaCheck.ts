/**
 * The JSON Schema subset a screen's fields are written in (fieldJsonSchema, recordJsonSchema), checked
 * by walking the schema: no code is generated, so the browser needs no eval and the app runs under a
 * Content-Security-Policy without 'unsafe-eval' (issue 20), which ajv's compiled validators would need.
 * Browser and server run this same check, so both answer the same messages.
 *
 * Errors are shaped and ordered as ajv (allErrors) reports them, which is what validate.ts reads:
 * keyword, instancePath, params. Keywords outside the subset are ignored.
 */
export interface SchemaError {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
}

type Schema = Record<string, unknown>;

/** ajv-formats' "full" email format, the one addFormats(ajv, ['email']) used. */
const EMAIL =
  /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/i;

const patterns = new Map<string, RegExp>();
function regexOf(pattern: string): RegExp {
  let re = patterns.get(pattern);
  if (!re) {
    // ajv's default: patterns are Unicode regular expressions.
    re = new RegExp(pattern, 'u');
    patterns.set(pattern, re);
  }
  return re;
}

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

function hasType(value: unknown, type: string): boolean {
  switch (type) {
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'object':
      return typeOf(value) === 'object';
    default:
      return typeOf(value) === type;
  }
}

/** Deep equality of JSON values, for enum and uniqueItems. */
function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return (
    ka.length === kb.length &&
    ka.every((k) => same((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]))
  );
}

/** The declared types of an array's items, when they are plain ones (ajv compares those items only). */
function itemTypesOf(items: unknown): string[] | undefined {
  const type = items && typeof items === 'object' ? (items as Schema).type : undefined;
  const types = Array.isArray(type) ? (type as string[]) : typeof type === 'string' ? [type] : undefined;
  return types && !types.some((t) => t === 'object' || t === 'array') ? types : undefined;
}

/** Length in code points, as ajv counts it (a character outside the BMP is one). */
const lengthOf = (text: string) => [...text].length;

function check(schema: Schema, value: unknown, path: string, out: SchemaError[]): void {
  const error = (keyword: string, params: Record<string, unknown> = {}) =>
    out.push({ keyword, instancePath: path, params });

  if (schema.type !== undefined) {
    const types = Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type as string];
    // The keywords below still apply to the value's actual type (1.5 for an integer is also below a minimum), as in ajv.
    if (!types.some((t) => hasType(value, t))) error('type', { type: types.join(',') });
  }
  if (typeof value === 'number') {
    if (typeof schema.maximum === 'number' && value > schema.maximum)
      error('maximum', { comparison: '<=', limit: schema.maximum });
    if (typeof schema.minimum === 'number' && value < schema.minimum)
      error('minimum', { comparison: '>=', limit: schema.minimum });
  }
  if (typeof value === 'string') {
    if (typeof schema.maxLength === 'number' && lengthOf(value) > schema.maxLength)
      error('maxLength', { limit: schema.maxLength });
    if (typeof schema.minLength === 'number' && lengthOf(value) < schema.minLength)
      error('minLength', { limit: schema.minLength });
    if (typeof schema.pattern === 'string' && !regexOf(schema.pattern).test(value))
      error('pattern', { pattern: schema.pattern });
    if (schema.format === 'email' && !EMAIL.test(value)) error('format', { format: 'email' });
  }
  if (Array.isArray(value)) {
    if (typeof schema.maxItems === 'number' && value.length > schema.maxItems)
      error('maxItems', { limit: schema.maxItems });
    if (typeof schema.minItems === 'number' && value.length < schema.minItems)
      error('minItems', { limit: schema.minItems });
    if (schema.uniqueItems === true) {
      // Like ajv: when the items' types are declared, items of another type are left to the items check.
      const itemTypes = itemTypesOf(schema.items);
      const counted = (v: unknown) => !itemTypes || itemTypes.some((t) => hasType(v, t));
      const twin = value.findIndex((v, i) => counted(v) && value.slice(i + 1).some((w) => counted(w) && same(v, w)));
      if (twin >= 0) error('uniqueItems', { i: twin });
    }
  }
  if (Array.isArray(schema.enum) && !schema.enum.some((option) => same(option, value)))
    error('enum', { allowedValues: schema.enum });
  if ('const' in schema && !same(schema.const, value)) error('const', { allowedValue: schema.const });

  if (Array.isArray(value) && schema.items && typeof schema.items === 'object' && !Array.isArray(schema.items))
    value.forEach((item, i) => check(schema.items as Schema, item, `${path}/${i}`, out));
  if (typeOf(value) === 'object') {
    const record = value as Record<string, unknown>;
    const properties = (schema.properties ?? {}) as Record<string, Schema>;
    for (const key of (schema.required ?? []) as string[])
      if (!(key in record)) error('required', { missingProperty: key });
    for (const [key, sub] of Object.entries(properties))
      if (record[key] !== undefined) check(sub, record[key], `${path}/${key}`, out);
    if (schema.additionalProperties === false)
      for (const key of Object.keys(record))
        if (!Object.hasOwn(properties, key)) error('additionalProperties', { additionalProperty: key });
  }
  if (Array.isArray(schema.anyOf)) {
    const branches = (schema.anyOf as Schema[]).map((branch) => {
      const errors: SchemaError[] = [];
      check(branch, value, path, errors);
      return errors;
    });
    if (!branches.some((errors) => errors.length === 0)) {
      // ajv with allErrors reports every branch's errors, then the anyOf itself.
      out.push(...branches.flat());
      error('anyOf');
    }
  }
}

/** Every error of `value` against `schema`; an empty list when it holds. */
export function schemaErrors(schema: object, value: unknown): SchemaError[] {
  const out: SchemaError[] = [];
  check(schema as Schema, value, '', out);
  return out;
}
