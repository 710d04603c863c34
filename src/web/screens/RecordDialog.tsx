import { memo } from 'react';
import { Modal } from 'antd';
import { useSnapshot } from 'valtio';
import type { ScreenSchema } from '../../shared/screens/fields';
import type { RecordValues } from '../../shared/screens/predicate';
import type { FieldError } from '../../shared/screens/validate';
import { i18n, useT } from '../i18n';
import type { DialogMode } from './rjsfSchema';
import { RecordForm, useRecordForm } from './RecordForm';
import { dialogFit } from './fit/dialogFit';

interface Props {
  screen: ScreenSchema;
  mode: DialogMode;
  initial: RecordValues;
  /** Errors the server answered for the last save, shown on their fields. */
  serverErrors: FieldError[];
  saving: boolean;
  onSave: (data: RecordValues) => void;
  onClose: () => void;
}

/**
 * The create / edit / view dialog of a screen: the record form built from the schema's fields, checked
 * by the same validateRecord the server runs, so both refuse a record with the same words.
 */
export const RecordDialog = memo(function RecordDialog({
  screen,
  mode,
  initial,
  serverErrors,
  saving,
  onSave,
  onClose,
}: Props) {
  const t = useT();
  const { locale } = useSnapshot(i18n);
  const form = useRecordForm(screen, initial);
  const titleKey = mode === 'create' ? 'screen.create' : mode === 'edit' ? 'screen.edit' : 'screen.view';

  const submit = () => {
    const record = form.check();
    if (record) onSave(record);
  };

  return (
    <Modal
      open
      title={`${t(titleKey)} - ${screen.title[locale]}`}
      width={screen.dialog?.width ?? 640}
      onCancel={onClose}
      onOk={mode === 'view' ? onClose : submit}
      okText={mode === 'view' ? t('common.close') : t('common.confirm')}
      cancelButtonProps={{ style: mode === 'view' ? { display: 'none' } : undefined }}
      cancelText={t('common.cancel')}
      confirmLoading={saving}
      mask={{ closable: false }}
      destroyOnHidden
      className="record-dialog"
      {...dialogFit}
    >
      <RecordForm screen={screen} mode={mode} form={form} serverErrors={serverErrors} />
    </Modal>
  );
});
