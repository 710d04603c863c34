import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ScreenSchema } from '../../src/shared/screens/fields';
import { copyProblems } from '../../src/server/kernel/screens/copies';

const screen = (file: string) =>
  JSON.parse(readFileSync(path.resolve(import.meta.dirname, '../../schemas/screens', file), 'utf8')) as ScreenSchema;
const specimens = screen('front-entry.json');
const owner = (resource: string) => (resource === 'specimen' ? specimens : undefined);

/** A copied field's source is checked when the files load: a configurator's slip names the field and what is wrong. */
describe('copied fields checked against their source screen', () => {
  const treatment = screen('special-treatment.json');
  const withCopy = (copy: object, type?: string) =>
    ({
      ...treatment,
      fields: treatment.fields.map((f) => (f.key === 'patientName' ? { ...f, copy, ...(type && { type }) } : f)),
    }) as ScreenSchema;
  const at = `/fields/${treatment.fields.findIndex((f) => f.key === 'patientName')}/copy`;

  it('passes the special treatment’s patient, copied from the specimen of its barcode', () => {
    expect(copyProblems(treatment, owner)).toEqual([]);
  });

  it('names an unknown resource, a field the source lacks and a type that differs', () => {
    expect(copyProblems(withCopy({ resource: 'patient', match: 'barcode', field: 'patientName' }), owner)).toEqual([
      { path: `${at}/resource`, message: 'no screen owns resource "patient"' },
    ]);
    expect(copyProblems(withCopy({ resource: 'specimen', match: 'barcode', field: 'patientNam' }), owner)).toEqual([
      { path: `${at}/field`, message: '"patientNam" is no field of front-entry' },
    ]);
    expect(copyProblems(withCopy({ resource: 'specimen', match: 'tube', field: 'patientName' }), owner)).toEqual([
      { path: `${at}/match`, message: 'no field "tube"' },
      { path: `${at}/match`, message: '"tube" is no field of front-entry' },
    ]);
    expect(
      copyProblems(withCopy({ resource: 'specimen', match: 'barcode', field: 'patientName' }, 'textarea'), owner),
    ).toEqual([{ path: `${at}/field`, message: '"patientName" is a text in front-entry' }]);
  });
});
