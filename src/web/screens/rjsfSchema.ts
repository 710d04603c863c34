import type { RJSFSchema, UiSchema } from '@rjsf/utils';
import type { FieldDef, ScreenSchema } from '../../shared/screens/fields';
import { fieldJsonSchema, formFields } from '../../shared/screens/fields';
import { matches, type RecordValues } from '../../shared/screens/predicate';
import type { Locale } from '../../shared/i18n/messages';

export type DialogMode = 'create' | 'edit' | 'view';

/** The widget and its options for a field type: the edit view of the field. */
function widgetOf(field: FieldDef, locale: Locale): UiSchema {
  if (field.form?.secret) return { 'ui:widget': 'LocalTextWidget', 'ui:options': { secret: true } };
  if (field.form?.scan)
    return { 'ui:widget': 'ScanListWidget', 'ui:options': { against: field.form.scan.against ?? '' } };
  switch (field.type) {
    case 'textarea':
      return { 'ui:widget': 'LocalTextWidget', 'ui:options': { rows: 3 } };
    case 'integer':
    case 'number':
      return {
        'ui:widget': 'LocalNumberWidget',
        ...(field.precision !== undefined && { 'ui:options': { precision: field.precision } }),
      };
    case 'money':
      return { 'ui:widget': 'LocalNumberWidget', 'ui:options': { precision: field.precision ?? 2, prefix: '¥' } };
    case 'barcode':
      return { 'ui:widget': 'LocalTextWidget', 'ui:options': { barcode: true } };
    case 'image':
    case 'file':
      return { 'ui:widget': 'FileWidget', 'ui:options': { kind: field.type } };
    case 'boolean':
      return { 'ui:widget': 'SwitchWidget' };
    case 'date':
      return { 'ui:widget': 'DateWidget' };
    case 'datetime':
      return { 'ui:widget': 'DateWidget', 'ui:options': { time: true } };
    case 'dateRange':
      return { 'ui:widget': 'DateRangeWidget' };
    case 'enum':
      return field.dictionary
        ? { 'ui:widget': 'DictionaryWidget', 'ui:options': { dictionary: field.dictionary } }
        : {
            'ui:widget': 'OptionsWidget',
            'ui:options': {
              choices: (field.options ?? []).map((o) => ({ value: o.value, label: o.label[locale] })),
              multiple: field.multiple === true,
            },
          };
    case 'reference':
      return { 'ui:widget': 'RemoteSelectWidget', 'ui:options': { ...field.reference } };
    case 'tree':
      return { 'ui:widget': field.tree?.multiple ? 'TreeCheckWidget' : 'TreeWidget', 'ui:options': { ...field.tree } };
    case 'list':
      // Each row of a rich list is edited with the same widgets as a field of its own type.
      return {
        'ui:options': { orderable: false },
        items: Object.fromEntries(
          (field.itemFields ?? []).map((f) => [
            f.key,
            { ...widgetOf(f, locale), 'ui:classNames': `span-1${controlClass(f)}` },
          ]),
        ),
      };
    default:
      return { 'ui:widget': 'LocalTextWidget' };
  }
}

/**
 * The size of a field's control, as a class of its frame (global.css): a switch as wide as a switch,
 * a number or a date as wide as its value, not the whole width of the dialog's column. Other controls
 * (text, choices) fill the column, which their values may.
 */
function controlClass(field: FieldDef): string {
  switch (field.type) {
    case 'boolean':
      return ' control-switch';
    case 'integer':
    case 'number':
    case 'money':
      return ' control-number';
    case 'date':
      return ' control-date';
    case 'datetime':
      return ' control-datetime';
    case 'dateRange':
      return ' control-date-range';
    default:
      return '';
  }
}

/** JSON Schema for rjsf: the shared value types, with labels; validation itself is ours (same as the server). */
export function toRjsfSchema(screen: ScreenSchema, locale: Locale): RJSFSchema {
  const fields = formFields(screen);
  return {
    type: 'object',
    required: fields.filter((f) => f.required).map((f) => f.key),
    properties: Object.fromEntries(fields.map((f) => [f.key, rjsfFieldSchema(f, locale)])),
  };
}

/** A field's value type with its label; a rich list's rows as objects of their own labelled fields (no null alternatives, which rjsf would offer as a choice). */
function rjsfFieldSchema(field: FieldDef, locale: Locale): RJSFSchema {
  // No minItems on a date range: rjsf would fill an untouched one with empty dates (validation is ours anyway).
  if (field.type === 'dateRange') return { type: 'array', items: { type: 'string' }, title: field.label[locale] };
  if (field.type !== 'list') return { ...fieldJsonSchema(field), title: field.label[locale] } as RJSFSchema;
  const items = field.itemFields ?? [];
  return {
    type: 'array',
    title: field.label[locale],
    items: {
      type: 'object',
      required: items.filter((f) => f.required).map((f) => f.key),
      properties: Object.fromEntries(items.map((f) => [f.key, rjsfFieldSchema(f, locale)])),
    },
  };
}

/** The uiSchema for the record being edited: visibility and enablement follow the JSON predicates. */
export function toUiSchema(screen: ScreenSchema, mode: DialogMode, record: RecordValues, locale: Locale): UiSchema {
  const ui: UiSchema = { 'ui:submitButtonOptions': { norender: true } };
  for (const field of formFields(screen)) {
    const hidden = !matches(field.visibleWhen, record);
    const disabled =
      mode === 'view' ||
      (mode === 'edit' && field.form?.readOnlyOnEdit) ||
      (field.enabledWhen !== undefined && !matches(field.enabledWhen, record));
    ui[field.key] = {
      ...widgetOf(field, locale),
      ...(hidden && { 'ui:widget': 'hidden' }),
      ...(disabled && { 'ui:disabled': true }),
      ...(field.description && { 'ui:help': field.description[locale] }),
      ...(field.form?.placeholder && { 'ui:placeholder': field.form.placeholder[locale] }),
      'ui:classNames': `span-${field.form?.span ?? 1}${controlClass(field)}`,
    };
  }
  return ui;
}
