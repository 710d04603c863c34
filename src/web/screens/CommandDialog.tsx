import { useMemo } from 'react';
import { Modal } from 'antd';
import { useSnapshot } from 'valtio';
import type { ActionDef, ScreenSchema } from '../../shared/screens/fields';
import { matches, type RecordValues } from '../../shared/screens/predicate';
import type { FieldError } from '../../shared/screens/validate';
import { i18n, useT } from '../i18n';
import { RecordForm, useRecordForm } from './RecordForm';
import { dialogFit } from './fit/dialogFit';

/**
 * The inputs a command asks for before it runs (action.fields: a receiver's account and password, a
 * reason): the record form over those fields, checked by the same validateRecord, so a command dialog
 * is declared in the schema like any form and needs no component of its own.
 */
export function commandFormScreen(screen: ScreenSchema, action: ActionDef): ScreenSchema {
  return {
    schemaVersion: screen.schemaVersion,
    id: `${screen.id}#${action.name ?? action.endpoint ?? 'command'}`,
    title: action.label ?? screen.title,
    resource: screen.resource,
    fields: action.fields ?? [],
    dialog: { columns: (action.fields?.length ?? 0) > 3 ? 2 : 1 },
  };
}

/** The values of the fields the form shows for them (each field's visibleWhen). */
export function shownValues(screen: ScreenSchema, values: RecordValues): RecordValues {
  const shown = new Set(screen.fields.filter((f) => matches(f.visibleWhen, values)).map((f) => f.key));
  return Object.fromEntries(Object.entries(values).filter(([key]) => shown.has(key)));
}

interface Props {
  screen: ScreenSchema;
  action: ActionDef;
  /** How many rows it runs on (shown in the title of a batch command). */
  count: number;
  running: boolean;
  /** Errors the server answered for the last run, shown on their fields. */
  serverErrors: FieldError[];
  onRun: (values: RecordValues) => void;
  onClose: () => void;
  /** The row a row command runs on (none for a batch), which the form's widgets may read. */
  record?: RecordValues;
}

export function CommandDialog({ screen, action, count, running, serverErrors, onRun, onClose, record }: Props) {
  const t = useT();
  const { locale } = useSnapshot(i18n);
  const formScreen = useMemo(() => commandFormScreen(screen, action), [screen, action]);
  const initial = useMemo(
    () => Object.fromEntries(formScreen.fields.filter((f) => f.default !== undefined).map((f) => [f.key, f.default])),
    [formScreen],
  );
  const form = useRecordForm(formScreen, initial);
  const label = action.label?.[locale] ?? t('screen.command');
  const submit = () => {
    const values = form.check();
    // What the dialog no longer shows is not sent: typed before a choice hid it (missing tubes, then the box scanned).
    if (values) onRun(shownValues(formScreen, values));
  };
  return (
    <Modal
      open
      title={count > 1 ? `${label} (${count})` : label}
      width={formScreen.dialog?.columns === 2 ? 720 : 480}
      onCancel={onClose}
      onOk={submit}
      okText={t('common.confirm')}
      cancelText={t('common.cancel')}
      confirmLoading={running}
      mask={{ closable: false }}
      destroyOnHidden
      className="command-dialog"
      {...dialogFit}
    >
      <RecordForm screen={formScreen} mode="create" form={form} serverErrors={serverErrors} about={record} />
    </Modal>
  );
}
