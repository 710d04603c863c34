import type { FieldDef, ScreenSchema } from '../screens/fields.js';
import { validateRecord, type FieldError } from '../screens/validate.js';
import type { Locale } from '../i18n/messages.js';

/**
 * A form page (spec 3 formKey, spec 7.6) as the task form and the form data demo show it. A page is
 * made of elements (the element list screen); here it becomes the same field definitions a screen
 * schema has, so the browser renders it with the generic form machinery and both sides check the
 * values with the same validateRecord.
 */
export type ControlType =
  'input' | 'textarea' | 'number' | 'select' | 'radio' | 'checkbox' | 'date' | 'datetime' | 'tree' | 'image' | 'result';

/** One choice of a select / radio / checkbox / tree control: a node of its tree data source. */
export interface FormChoice {
  value: string;
  label: string;
}

export interface FormElement {
  /** logicalName: the variable the value is stored under and conditions test. */
  key: string;
  label: string;
  controlType: ControlType;
  required: boolean;
  /** Numbers for conditions (spec 5 generated expression): an input control keeps a number. */
  numeric: boolean;
  unit: string | null;
  defaultValue: string | null;
  choices: FormChoice[];
}

export interface FormPage {
  id: number;
  pageName: string;
  tableName: string | null;
  /** Controls per row of the form. */
  columns: number;
  elements: FormElement[];
}

/** Text a lab types into a form control: long enough for a diagnosis, short enough to keep rows small. */
const TEXT_MAX = 200;
const TEXTAREA_MAX = 4000;

/** The review result a `result` control offers (spec 3 flow results that route through conditions). */
const RESULT_CHOICES = [
  { value: 'pass', label: { 'zh-CN': '通过', 'en-US': 'Pass' } },
  { value: 'unpass', label: { 'zh-CN': '不通过', 'en-US': 'Fail' } },
];

const same = (text: string) => ({ 'zh-CN': text, 'en-US': text });

/**
 * Whether a form element keeps a number, from its declared control type: a number control, or a text
 * input marked numeric (the task form types its fields by it, and the condition builder quotes values by it).
 */
export function isNumericControl(element: { controlType?: string | null; numeric?: boolean | null }): boolean {
  const type = element.controlType || 'input';
  return type === 'number' || (type === 'input' && element.numeric === true);
}

function valueType(element: FormElement): Pick<FieldDef, 'type' | 'maxLength' | 'options' | 'multiple'> {
  const choices = element.choices.map((c) => ({ value: c.value, label: same(c.label) }));
  switch (element.controlType) {
    case 'textarea':
      return { type: 'textarea', maxLength: TEXTAREA_MAX };
    case 'number':
    case 'input':
      return isNumericControl(element) ? { type: 'number' } : { type: 'text', maxLength: TEXT_MAX };
    case 'select':
    case 'radio':
    case 'tree':
      return { type: 'enum', options: choices };
    case 'checkbox':
      return { type: 'enum', options: choices, multiple: true };
    case 'date':
      return { type: 'date' };
    case 'datetime':
      return { type: 'datetime' };
    case 'image':
      return { type: 'image' };
    case 'result':
      return { type: 'enum', options: RESULT_CHOICES };
  }
}

function defaultOf(element: FormElement, type: FieldDef['type']): unknown {
  const text = element.defaultValue?.trim();
  if (!text) return undefined;
  if (type === 'number') return Number.isFinite(Number(text)) ? Number(text) : undefined;
  if (element.controlType === 'checkbox') return text.split(',').map((s) => s.trim());
  return text;
}

/** The field definition of one element: its key, label (with unit), value type, choices and required flag. */
export function elementField(element: FormElement): FieldDef {
  const kind = valueType(element);
  const label = element.unit ? `${element.label} (${element.unit})` : element.label;
  const fallback = defaultOf(element, kind.type);
  return {
    key: element.key,
    label: same(label),
    ...kind,
    ...(element.required && { required: true }),
    ...(fallback !== undefined && { default: fallback }),
  };
}

/** The form page as a screen schema: the fields of its elements, laid out in the page's columns. */
export function formPageScreen(page: FormPage): ScreenSchema {
  return {
    schemaVersion: 3,
    id: `form-page-${page.id}`,
    title: same(page.pageName),
    resource: { name: 'formData', scope: 'org' },
    fields: page.elements.map(elementField),
    dialog: { columns: Math.min(Math.max(page.columns, 1), 4) },
  };
}

/** The values a new form starts with: each element's default. */
export function formDefaults(page: FormPage): Record<string, unknown> {
  return Object.fromEntries(
    formPageScreen(page)
      .fields.filter((f) => f.default !== undefined)
      .map((f) => [f.key, f.default]),
  );
}

/**
 * The problems of submitted values: the page's elements only (other variables of a task pass as they
 * are). `requireFilled` false checks types but not required controls (a task sent back is not filled in).
 */
export function formProblems(
  page: FormPage,
  values: Record<string, unknown>,
  locale: Locale,
  requireFilled = true,
): FieldError[] {
  const screen = formPageScreen(page);
  const keys = new Set(screen.fields.map((f) => f.key));
  const own = Object.fromEntries(Object.entries(values).filter(([k, v]) => keys.has(k) && v !== '' && v !== undefined));
  const errors = validateRecord(screen, own, locale);
  return requireFilled ? errors : errors.filter((e) => e.key !== 'field.required');
}
