import { describe, expect, it } from 'vitest';
import {
  formDefaults,
  formPageScreen,
  formProblems,
  type FormElement,
  type FormPage,
} from '../../src/shared/forms/formPage';

/** A form page becomes the field definitions the screens use: one rendering, one set of checks on both sides. */
const element = (e: Partial<FormElement> & Pick<FormElement, 'key' | 'label' | 'controlType'>): FormElement => ({
  required: false,
  numeric: false,
  unit: null,
  defaultValue: null,
  choices: [],
  ...e,
});

const page: FormPage = {
  id: 7,
  pageName: '取材记录单',
  tableName: 'gross',
  columns: 3,
  elements: [
    element({
      key: 'tumorSize',
      label: '肿瘤最大径',
      controlType: 'input',
      numeric: true,
      unit: 'cm',
      required: true,
      defaultValue: '0',
    }),
    element({ key: 'site', label: '取材部位', controlType: 'select', choices: [{ value: 'A', label: '胃窦' }] }),
    element({
      key: 'blocks',
      label: '取材块',
      controlType: 'checkbox',
      choices: [
        { value: 'B1', label: '一块' },
        { value: 'B2', label: '二块' },
      ],
      defaultValue: 'B1',
    }),
    element({ key: 'verdict', label: '复核结果', controlType: 'result', required: true }),
    element({ key: 'sampledOn', label: '取材日期', controlType: 'date' }),
  ],
};

describe('form pages as screen fields', () => {
  it('gives each control its value type, choices, label with unit, columns and defaults', () => {
    const screen = formPageScreen(page);
    expect(screen.dialog).toEqual({ columns: 3 });
    expect(screen.fields.map((f) => [f.key, f.type, f.label['zh-CN'], f.required ?? false])).toEqual([
      ['tumorSize', 'number', '肿瘤最大径 (cm)', true],
      ['site', 'enum', '取材部位', false],
      ['blocks', 'enum', '取材块', false],
      ['verdict', 'enum', '复核结果', true],
      ['sampledOn', 'date', '取材日期', false],
    ]);
    expect(screen.fields[2]!.multiple).toBe(true);
    expect(screen.fields[3]!.options!.map((o) => o.value)).toEqual(['pass', 'unpass']);
    expect(formDefaults(page)).toEqual({ tumorSize: 0, blocks: ['B1'] });
  });

  it('refuses missing, mistyped and unknown choices, but lets other task variables pass', () => {
    const problems = (values: Record<string, unknown>, requireFilled = true) =>
      formProblems(page, values, 'en-US', requireFilled).map((e) => [e.field, e.message]);
    expect(problems({ tumorSize: 2, verdict: 'pass', other: 'kept' })).toEqual([]);
    expect(problems({ tumorSize: '2', site: 'Z', blocks: ['B3'], verdict: 'pass', sampledOn: '2026/1/1' })).toEqual([
      ['tumorSize', '肿瘤最大径 (cm) must be a number'],
      ['site', '取材部位 is not one of the allowed values'],
      ['blocks', '取材块 is not one of the allowed values'],
      ['sampledOn', '取材日期 must be a date (YYYY-MM-DD)'],
    ]);
    expect(problems({})).toEqual([
      ['tumorSize', '肿瘤最大径 (cm) is required'],
      ['verdict', '复核结果 is required'],
    ]);
    // A task sent back is not filled in: only the types of what was given are checked.
    expect(problems({}, false)).toEqual([]);
    expect(problems({ tumorSize: 'x' }, false)).toEqual([['tumorSize', '肿瘤最大径 (cm) must be a number']]);
  });
});
