import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv, type ValidateFunction } from 'ajv';
import { lifecycleProblems } from '../../../shared/lifecycle/lifecycle.js';
import { actionProblems } from './views.js';
import type { ChartDef, FieldDef, ScreenSchema } from '../../../shared/screens/fields.js';
import { migrateScreen } from '../../../shared/screens/migrate.js';

export interface ScreenProblem {
  file: string;
  /** JSON path inside the file (e.g. /fields/2/type). */
  path: string;
  message: string;
}

/** Record columns the generic resource adds itself; a field may not take their names. */
export const RESERVED_KEYS = new Set([
  'id',
  'version',
  'orgId',
  'createdAt',
  'updatedAt',
  'createdBy',
  'updatedBy',
  'syncFlag',
  'sourceId',
]);

let metaValidator: ValidateFunction | undefined;
function meta(schemaDir: string): ValidateFunction {
  metaValidator ??= new Ajv({ allErrors: false, strict: false }).compile(
    JSON.parse(readFileSync(path.join(schemaDir, 'screen.schema.json'), 'utf8')),
  );
  return metaValidator;
}

/** What the meta-schema cannot say: keys that must exist, be unique, or not clash with the record's own. */
function semanticProblems(screen: ScreenSchema): { path: string; message: string }[] {
  const problems: { path: string; message: string }[] = [];
  const keys = new Set<string>();
  screen.fields.forEach((f, i) => {
    if (keys.has(f.key)) problems.push({ path: `/fields/${i}/key`, message: `duplicate field key "${f.key}"` });
    if (RESERVED_KEYS.has(f.key)) problems.push({ path: `/fields/${i}/key`, message: `"${f.key}" is reserved` });
    keys.add(f.key);
    if (f.type === 'enum' && !f.options && !f.dictionary)
      problems.push({ path: `/fields/${i}`, message: 'an enum needs options or a dictionary' });
    if (f.type === 'reference' && !f.reference)
      problems.push({ path: `/fields/${i}`, message: 'a reference needs "reference"' });
    if (f.type === 'tree' && !f.tree) problems.push({ path: `/fields/${i}`, message: 'a tree needs "tree"' });
    if (f.type === 'list' && !f.itemFields)
      problems.push({ path: `/fields/${i}`, message: 'a list needs "itemFields"' });
    if (f.pattern) {
      try {
        new RegExp(f.pattern, 'u');
      } catch {
        problems.push({ path: `/fields/${i}/pattern`, message: 'not a valid regular expression' });
      }
    }
  });
  const known = (key: string, where: string) => {
    if (!keys.has(key)) problems.push({ path: where, message: `no field "${key}"` });
  };
  screen.list?.columns?.forEach((k, i) => known(k, `/list/columns/${i}`));
  if (screen.list?.defaultSort) known(screen.list.defaultSort.field, '/list/defaultSort/field');
  if (screen.list?.tree) known(screen.list.tree.parentField, '/list/tree/parentField');
  if (screen.list?.scan) known(screen.list.scan.field, '/list/scan/field');
  if (screen.list?.worksheet) known(screen.list.worksheet.field, '/list/worksheet/field');
  const grid = screen.list?.worksheet?.grid;
  if (grid) {
    known(grid.row, '/list/worksheet/grid/row');
    known(grid.column, '/list/worksheet/grid/column');
    grid.rowLabels?.forEach((key, i) => known(key, `/list/worksheet/grid/rowLabels/${i}`));
    if (grid.mark) known(grid.mark, '/list/worksheet/grid/mark');
  }
  screen.list?.indexes?.forEach((index, i) => {
    index.equals.forEach((k, j) => known(k, `/list/indexes/${i}/equals/${j}`));
    if (index.sort) known(index.sort, `/list/indexes/${i}/sort`);
  });
  screen.filters?.forEach((k, i) => known(k, `/filters/${i}`));
  screen.rules?.forEach((r, i) => {
    known(r.left, `/rules/${i}/left`);
    known(r.right, `/rules/${i}/right`);
  });
  if (screen.resource.titleField) known(screen.resource.titleField, '/resource/titleField');
  const label = screen.resource.label;
  if (label) {
    known(label.code, '/resource/label/code');
    label.lines?.forEach((k, i) => known(k, `/resource/label/lines/${i}`));
    if (label.copies) known(label.copies, '/resource/label/copies');
  }
  screen.fields.forEach((f, i) => {
    if ((f.stamp || f.numbering || f.copy) && f.required)
      problems.push({
        path: `/fields/${i}/required`,
        message: 'the server fills this field: the user cannot be asked for it',
      });
  });
  if (screen.chart) problems.push(...chartProblems(screen.chart, screen.fields));
  problems.push(...lifecycleProblems(screen));
  // A view's transitions and fields are checked against its owner once every file is read (registry).
  if (!screen.resource.viewOf) problems.push(...actionProblems(screen, screen));
  return problems;
}

const NUMERIC = new Set<FieldDef['type']>(['integer', 'number', 'money']);

/** A chart names existing fields, draws numbers, and asks only for what its kind draws. */
function chartProblems(chart: ChartDef, fields: readonly FieldDef[]): { path: string; message: string }[] {
  const problems: { path: string; message: string }[] = [];
  const field = (key: string) => fields.find((f) => f.key === key);
  const known = (key: string | undefined, where: string) => {
    if (key !== undefined && !field(key)) problems.push({ path: `/chart/${where}`, message: `no field "${key}"` });
  };
  const numeric = (key: string, where: string) => {
    const f = field(key);
    if (!f) known(key, where);
    else if (!NUMERIC.has(f.type))
      problems.push({ path: `/chart/${where}`, message: `"${key}" is not a number field` });
  };
  known(chart.x, 'x');
  chart.values.forEach((k, i) => numeric(k, `values/${i}`));
  known(chart.seriesField, 'seriesField');
  known(chart.panelField, 'panelField');
  known(chart.violationField, 'violationField');
  known(chart.lotField, 'lotField');
  known(chart.periodField, 'periodField');
  chart.referenceLines?.forEach((line, i) => numeric(line.field, `referenceLines/${i}/field`));
  if (chart.kind === 'pie' && chart.values.length > 1)
    problems.push({ path: '/chart/values', message: 'a pie draws one value field' });
  const qcOnly = chart.referenceLines || chart.violationField || chart.lotField || chart.periodField;
  if (chart.kind !== 'leveyJennings' && qcOnly) {
    problems.push({ path: '/chart', message: 'reference lines and violations belong to a leveyJennings chart' });
  }
  if (chart.seriesField && chart.kind !== 'bar' && chart.kind !== 'line')
    problems.push({ path: '/chart/seriesField', message: 'only a bar or line chart splits into series' });
  return problems;
}

/**
 * Reads one screen file: JSON, migrated to the current schemaVersion, then checked against
 * screen.schema.json and the semantic rules. Answers the screen, or the first problem with its file
 * and JSON path.
 */
export function checkScreenFile(
  file: string,
  schemaDir: string,
): { screen: ScreenSchema } | { problem: ScreenProblem } {
  const rel = path.relative(path.dirname(schemaDir), file);
  let raw: Record<string, unknown>;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  } catch (error) {
    return { problem: { file: rel, path: '/', message: `not valid JSON: ${(error as Error).message}` } };
  }
  let migrated: Record<string, unknown>;
  try {
    migrated = migrateScreen(raw);
  } catch (error) {
    return { problem: { file: rel, path: '/schemaVersion', message: (error as Error).message } };
  }
  const validate = meta(schemaDir);
  if (!validate(migrated)) {
    const e = validate.errors![0]!;
    const detail = e.keyword === 'additionalProperties' ? ` (${String(e.params.additionalProperty)})` : '';
    return { problem: { file: rel, path: e.instancePath || '/', message: `${e.message ?? 'invalid'}${detail}` } };
  }
  const screen = migrated as unknown as ScreenSchema;
  const first = semanticProblems(screen)[0];
  if (first) return { problem: { file: rel, ...first } };
  return { screen };
}
