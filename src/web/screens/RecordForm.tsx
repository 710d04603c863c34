import { useCallback, useMemo, useState } from 'react';
import Form from '@rjsf/antd';
import type { ErrorSchema, FieldTemplateProps, ObjectFieldTemplateProps, RegistryWidgetsType } from '@rjsf/utils';
import { useSnapshot } from 'valtio';
import type { ScreenSchema } from '../../shared/screens/fields';
import { formFields } from '../../shared/screens/fields';
import type { RecordValues } from '../../shared/screens/predicate';
import { validateRecord, type FieldError } from '../../shared/screens/validate';
import { i18n } from '../i18n';
import { toRjsfSchema, toUiSchema, type DialogMode } from './rjsfSchema';
import { LocalNumberWidget, LocalTextWidget } from './widgets/LocalTextWidget';
import {
  DateRangeWidget,
  DateWidget,
  DictionaryWidget,
  OptionsWidget,
  RemoteSelectWidget,
  SwitchWidget,
  TreeWidget,
} from './widgets/SelectWidgets';
import { TreeCheckWidget } from './widgets/TreeCheckWidget';
import { FileWidget } from './widgets/FileWidget';
import { ScanListWidget } from './widgets/ScanListWidget';
import { formValidator } from './formValidator';

/**
 * The form of a record (the form controller and its view, react-admin's split): an rjsf form built
 * from a screen's fields, checked by the same validateRecord the server runs. The record dialog shows
 * it; so do pages that fill in a screen-shaped form of their own (a workflow task's form page).
 */
const widgets: RegistryWidgetsType = {
  LocalTextWidget,
  LocalNumberWidget,
  OptionsWidget,
  DictionaryWidget,
  RemoteSelectWidget,
  TreeWidget,
  TreeCheckWidget,
  SwitchWidget,
  DateWidget,
  DateRangeWidget,
  FileWidget,
  ScanListWidget,
};

/** A light field frame (label, control, help, error): antd's Form.Item grid costs most of a keystroke. */
function FieldTemplate({
  id,
  label,
  required,
  children,
  rawErrors,
  rawHelp,
  hidden,
  classNames,
  schema,
}: FieldTemplateProps) {
  if (hidden) return <div hidden>{children}</div>;
  if (schema.type === 'object') return children;
  const error = rawErrors?.[0];
  return (
    <div className={`screen-field ${classNames ?? ''}${error ? ' has-error' : ''}`}>
      <label htmlFor={id} className={required ? 'required' : undefined}>
        {label}
      </label>
      {children}
      {error ? (
        <div className="screen-field-error" role="alert">
          {error}
        </div>
      ) : (
        rawHelp && <div className="screen-field-help">{rawHelp}</div>
      )}
    </div>
  );
}

/** The form's grid: `dialog.columns` columns; a field spans `form.span` of them. */
function ObjectFieldTemplate({ properties, registry }: ObjectFieldTemplateProps) {
  const columns = (registry.formContext as { columns?: number } | undefined)?.columns ?? 1;
  return (
    <div className="screen-form" style={{ gridTemplateColumns: `repeat(${columns}, minmax(0, 1fr))` }}>
      {properties.map((p) => p.content)}
    </div>
  );
}

const templates = { FieldTemplate, ObjectFieldTemplate };

function toErrorSchema(errors: FieldError[]): ErrorSchema {
  return Object.fromEntries(errors.map((e) => [e.field, { __errors: [e.message] }])) as ErrorSchema;
}

/** The state of a record form: its values, the errors found on blur or submit, and the check before saving. */
export function useRecordForm(screen: ScreenSchema, initial: RecordValues) {
  const { locale } = useSnapshot(i18n);
  const [data, setData] = useState<RecordValues>(initial);
  const [errors, setErrors] = useState<FieldError[]>([]);
  const [touched, setTouched] = useState(false);

  /** The record of the form's own fields when it passes the checks, else undefined (errors shown). */
  const check = useCallback((): RecordValues | undefined => {
    const fields = new Set(formFields(screen).map((f) => f.key));
    const record = Object.fromEntries(Object.entries(data).filter(([k]) => fields.has(k)));
    const found = validateRecord(screen, record, locale);
    setErrors(found);
    setTouched(found.length > 0);
    return found.length === 0 ? record : undefined;
  }, [screen, data, locale]);

  const blur = useCallback(
    (key: string, value: unknown) => {
      // The widget hands its latest value with the blur; the form's own state may not have it yet.
      const current = { ...data, [key]: value === '' ? undefined : value };
      const fieldErrors = validateRecord(screen, current, locale).filter((e) => e.field === key);
      setErrors((prev) => [...prev.filter((e) => e.field !== key), ...fieldErrors]);
      setTouched(true);
    },
    [screen, data, locale],
  );

  return { data, setData, errors, touched, check, blur };
}

export type RecordFormController = ReturnType<typeof useRecordForm>;

interface Props {
  screen: ScreenSchema;
  mode: DialogMode;
  form: RecordFormController;
  /** Errors the server answered for the last save, shown on their fields until the user edits again. */
  serverErrors?: FieldError[];
  /** The record a command's form is about (its row), for a widget that reads it (a scan list's expected codes). */
  about?: RecordValues;
}

export function RecordForm({ screen, mode, form, serverErrors = [], about }: Props) {
  const { locale } = useSnapshot(i18n);
  const schema = useMemo(() => toRjsfSchema(screen, locale), [screen, locale]);
  const uiSchema = useMemo(() => toUiSchema(screen, mode, form.data, locale), [screen, mode, form.data, locale]);
  const formContext = useMemo(() => ({ columns: screen.dialog?.columns ?? 1, record: about }), [screen, about]);
  const shown = form.touched || serverErrors.length === 0 ? form.errors : serverErrors;
  const { setData, blur } = form;
  return (
    <Form
      schema={schema}
      uiSchema={uiSchema}
      formData={form.data}
      formContext={formContext}
      widgets={widgets}
      templates={templates}
      validator={formValidator}
      noValidate
      noHtml5Validate
      showErrorList={false}
      extraErrors={toErrorSchema(shown)}
      disabled={mode === 'view'}
      onChange={(e) => setData((e.formData ?? {}) as RecordValues)}
      onBlur={(id, value: unknown) => blur(id.replace(/^root_/, ''), value)}
    />
  );
}
