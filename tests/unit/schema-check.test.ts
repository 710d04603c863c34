import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import type { ScreenSchema } from '../../src/shared/screens/fields';
import { recordJsonSchema } from '../../src/shared/screens/fields';
import { migrateScreen } from '../../src/shared/screens/migrate';
import { schemaErrors } from '../../src/shared/screens/schemaCheck';

/**
 * The schema walk the browser and the server check records with (no eval, so the app runs under a
 * CSP without 'unsafe-eval') must judge every field of every screen as ajv, the reference, does: the
 * same errors, in the same order, for values of every type, length and shape.
 */
const addFormats = (addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule;
const ajv = new Ajv({ allErrors: true, strict: false });
addFormats(ajv, ['email']);

const screensDir = path.resolve(import.meta.dirname, '../../schemas/screens');
const screens = readdirSync(screensDir)
  .filter((f) => f.endsWith('.json'))
  .map((f) => migrateScreen(JSON.parse(readFileSync(path.join(screensDir, f), 'utf8'))) as unknown as ScreenSchema);

const VALUES: unknown[] = [
  null,
  '',
  'x',
  'ab-12',
  '中文名称',
  '😀'.repeat(3),
  'x'.repeat(300),
  'a@b.co',
  'not an email',
  '13812345678',
  '2026-03-01',
  '2026-03-01 08:30:00',
  0,
  5,
  -1,
  1.5,
  1e9,
  true,
  false,
  [],
  ['a', 'a'],
  ['2026-03-01', '2026-03-02'],
  [1, 2],
  [1, 1],
  [{ x: 1 }],
  {},
  { a: 1 },
];

const shape = (errors: { keyword: string; instancePath: string }[] | null | undefined) =>
  (errors ?? []).map((e) => `${e.instancePath} ${e.keyword}`);

describe('schema walk against ajv', () => {
  it('answers the same errors for every field of every screen and values of every kind', () => {
    let compared = 0;
    const differences: string[] = [];
    for (const screen of screens) {
      const schema = recordJsonSchema(screen.fields);
      const validate = ajv.compile(schema);
      for (const field of screen.fields)
        for (const value of VALUES) {
          const record = { [field.key]: value };
          validate(record);
          const expected = shape(validate.errors);
          const actual = shape(schemaErrors(schema, record));
          compared++;
          if (JSON.stringify(actual) !== JSON.stringify(expected))
            differences.push(`${screen.id}.${field.key} = ${JSON.stringify(value)}: ${actual} ≠ ajv ${expected}`);
        }
      validate({ unknownField: 1 });
      expect(shape(schemaErrors(schema, { unknownField: 1 }))).toEqual(shape(validate.errors));
    }
    expect(differences.slice(0, 10)).toEqual([]);
    expect(compared).toBeGreaterThan(1000);
  });
});
