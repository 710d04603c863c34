import { useCallback, useEffect, useMemo, useState } from 'react';
import { Alert, Button, Card, Select, Space, Table, type TableColumnsType } from 'antd';
import { useSnapshot } from 'valtio';
import { formDefaults, formPageScreen, type FormPage } from '../../../shared/forms/formPage';
import type { FieldError } from '../../../shared/screens/validate';
import { errorMessage } from '../../api/http';
import { notify } from '../../feedback/feedback';
import { i18n } from '../../i18n';
import type { ScreenRecord } from '../../screens/dataProvider';
import { fieldValue } from '../../screens/fieldViews';
import { RecordForm, useRecordForm } from '../../screens/RecordForm';
import { rt } from './i18n';
import { formInfos, formPage, insertFormData, savedFormData } from './api';
import { serverFieldErrors, time } from './results';
import './runtime.css';

/**
 * 表单数据操作示例 (menu 20906): a form designer picks a form page, fills it in exactly as a task form
 * shows it (the generic record form), saves it with insertFormData (spec 7.6) and sees what was saved
 * for that page (findTbAllData).
 */
type Saved = Awaited<ReturnType<typeof savedFormData>>['records'][number];

function FillIn({ page, onSaved }: { page: FormPage; onSaved: () => void }) {
  const screen = useMemo(() => formPageScreen(page), [page]);
  const form = useRecordForm(screen, formDefaults(page));
  const [saving, setSaving] = useState(false);
  const [serverErrors, setServerErrors] = useState<FieldError[]>([]);
  const save = async () => {
    const record = form.check();
    if (!record) return;
    setSaving(true);
    try {
      await insertFormData(page.id, record);
      notify.success(rt('保存成功'));
      setServerErrors([]);
      onSaved();
    } catch (e) {
      setServerErrors(serverFieldErrors(e));
      notify.error(errorMessage(e, rt('保存失败')));
    } finally {
      setSaving(false);
    }
  };
  return (
    <Card
      size="small"
      title={`${rt('填写表单')} - ${page.pageName}`}
      extra={
        <Button type="primary" loading={saving} onClick={() => void save()} data-testid="save-form-data">
          {rt('保存')}
        </Button>
      }
    >
      <RecordForm screen={screen} mode="create" form={form} serverErrors={serverErrors} />
    </Card>
  );
}

function SavedRows({ page, version }: { page: FormPage; version: number }) {
  const { locale } = useSnapshot(i18n);
  const [rows, setRows] = useState<Saved[]>([]);
  const [error, setError] = useState<string>();
  useEffect(() => {
    savedFormData(page.id).then(
      (a) => setRows(a.records),
      (e: unknown) => setError(errorMessage(e, rt('查询失败'))),
    );
  }, [page, version]);
  const screen = useMemo(() => formPageScreen(page), [page]);
  const columns: TableColumnsType<Saved> = [
    ...screen.fields.map((field) => ({
      key: field.key,
      title: field.label[locale],
      render: (_: unknown, row: Saved) => fieldValue(field, { ...row.data, id: 0, version: 0 } as ScreenRecord, locale),
    })),
    { key: 'createdBy', title: rt('填写人'), dataIndex: 'createdBy', width: 110 },
    { key: 'at', title: rt('填写时间'), width: 170, render: (_, row) => time(row.createFormTime) },
  ];
  return (
    <Card size="small" title={rt('已保存的数据')}>
      {error && <Alert type="error" showIcon title={error} />}
      <Table<Saved>
        rowKey="id"
        size="small"
        bordered
        columns={columns}
        dataSource={rows}
        data-testid="saved-form-data"
        scroll={{ x: 'max-content' }}
      />
    </Card>
  );
}

export default function FormDataDemoPage() {
  useSnapshot(i18n);
  const [pages, setPages] = useState<{ id: number; pageName: string }[]>([]);
  const [page, setPage] = useState<FormPage>();
  const [error, setError] = useState<string>();
  /** Bumped by every save: the saved list reloads and the form starts empty again. */
  const [version, setVersion] = useState(0);
  useEffect(() => {
    formInfos().then(setPages, (e: unknown) => setError(errorMessage(e, rt('查询失败'))));
  }, []);
  const choose = useCallback((id: number) => {
    formPage(id).then(setPage, (e: unknown) => setError(errorMessage(e, rt('读取失败'))));
  }, []);
  return (
    <div className="form-data-demo">
      <Space className="manage-toolbar">
        <span>{rt('表单页面')}</span>
        <Select
          style={{ width: 280 }}
          placeholder={rt('请选择表单页面')}
          aria-label={rt('表单页面')}
          value={page?.id}
          onChange={choose}
          showSearch={{ optionFilterProp: 'label' }}
          options={pages.map((p) => ({ value: p.id, label: p.pageName }))}
          data-testid="form-page"
        />
      </Space>
      {error && <Alert type="error" showIcon title={error} />}
      {page && (
        <>
          <FillIn key={`${page.id}-${version}`} page={page} onSaved={() => setVersion((v) => v + 1)} />
          <SavedRows page={page} version={version} />
        </>
      )}
    </div>
  );
}
