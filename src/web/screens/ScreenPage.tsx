import { lazy, Suspense, useEffect, useMemo, useRef, useState } from 'react';
import { AxiosError } from 'axios';
import {
  Alert,
  Button,
  DatePicker,
  Form,
  Input,
  Select,
  Space,
  Spin,
  Table,
  Tag,
  theme,
  Upload,
  type TableColumnsType,
} from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useSnapshot } from 'valtio';
import type { ActionDef, FieldDef, ScreenSchema } from '../../shared/screens/fields';
import { listColumns } from '../../shared/screens/fields';
import { screenAllows, type ScreenAction } from '../../shared/screens/access';
import type { RecordValues } from '../../shared/screens/predicate';
import type { FieldError } from '../../shared/screens/validate';
import type { Locale } from '../../shared/i18n/messages';
import { errorMessage } from '../api/http';
import { dictionaryState } from '../dictionaries/dictionaries';
import { feedback, notify } from '../feedback/feedback';
import { userState } from '../auth/user';
import { i18n, translate, useT } from '../i18n';
import { useListController, useRecordDialog, useSelection, type ListController } from './controllers';
import { dataProvider, queryOf, type ScreenRecord } from './dataProvider';
import { fieldValue } from './fieldViews';
import { RecordDialog } from './RecordDialog';
import { PublicDataActions } from './PublicDataActions';
import { useWritable } from './access';
import { nestRows, parentIds } from './treeRows';
import { commandHandler } from './commands';
import { CommandDialog } from './CommandDialog';
import { saveFile } from './download';
import { PUSH_TOPIC_EVENT } from '../push/pushChannel';
import { fillWidth, useTableLayout } from './tableLayout';
import { RowActions } from './RowActions';

/** Statistics charts: hand-written, with their chart library, loaded only by a screen that has one. */
const ScreenChart = lazy(() => import('../charts/ScreenChart'));

/** Beyond this many rows a page renders virtually (fixed row height, only visible rows in the DOM). */
const VIRTUAL_FROM = 50;

const ACTION_PERMISSION: Record<ActionDef['kind'], ScreenAction> = {
  create: 'create',
  edit: 'update',
  view: 'read',
  delete: 'delete',
  export: 'export',
  import: 'import',
  command: 'update',
};

/**
 * A period filter: [from, to] as the list query's keyFrom / keyTo. A datetime's last day counts whole
 * (a run at 08:00 on the last day is in the period).
 */
function DateRangeFilter({
  field,
  value,
  onChange,
}: {
  field: FieldDef;
  value?: unknown;
  onChange?: (v: unknown) => void;
}) {
  const [from, to] = (value as (string | undefined)[] | undefined) ?? [];
  const end = field.type === 'datetime' ? 'YYYY-MM-DD 23:59:59' : 'YYYY-MM-DD';
  // A new array each render would reset the picker while the user types the second date.
  const range = useMemo(
    (): [Dayjs | null, Dayjs | null] | null => (from || to ? [from ? dayjs(from) : null, to ? dayjs(to) : null] : null),
    [from, to],
  );
  return (
    <DatePicker.RangePicker
      value={range}
      allowEmpty={[true, true]}
      onChange={(d) => onChange?.(d && (d[0] || d[1]) ? [d[0]?.format('YYYY-MM-DD'), d[1]?.format(end)] : undefined)}
      style={{ width: 250 }}
    />
  );
}

/** A filter's control; Form.Item hands it value and onChange, passed on to the antd input. */
function FilterControl({
  field,
  locale,
  ...control
}: {
  field: FieldDef;
  locale: Locale;
  value?: unknown;
  onChange?: (v: unknown) => void;
}) {
  const { dictionaries } = useSnapshot(dictionaryState);
  // Dates filter by range unless the schema says otherwise (the server's default too).
  if ((field.type === 'date' || field.type === 'datetime') && (field.filter ?? 'range') === 'range')
    return <DateRangeFilter field={field} {...control} />;
  if (field.type === 'enum' || field.type === 'boolean') {
    const options =
      field.type === 'boolean'
        ? [
            { value: 'true', label: locale === 'zh-CN' ? '是' : 'Yes' },
            { value: 'false', label: locale === 'zh-CN' ? '否' : 'No' },
          ]
        : field.dictionary
          ? (dictionaries.find((d) => d.name === field.dictionary)?.details ?? []).map((d) => ({
              value: d.value,
              label: d.label,
            }))
          : (field.options ?? []).map((o) => ({ value: String(o.value), label: o.label[locale] }));
    return (
      <Select
        {...control}
        value={control.value as string | undefined}
        allowClear
        options={options}
        style={{ width: 140 }}
        placeholder={field.label[locale]}
      />
    );
  }
  return (
    <Input
      {...control}
      value={control.value as string | undefined}
      allowClear
      placeholder={field.label[locale]}
      style={{ width: 160 }}
    />
  );
}

function FilterBar({ screen, list }: { screen: ScreenSchema; list: ListController }) {
  const t = useT();
  const { locale } = useSnapshot(i18n);
  const [form] = Form.useForm();
  const fields = (screen.filters ?? [])
    .map((k) => screen.fields.find((f) => f.key === k))
    .filter((f): f is FieldDef => !!f);
  if (fields.length === 0) return null;
  const apply = () => list.setFilters(form.getFieldsValue() as Record<string, unknown>);
  return (
    <Form form={form} layout="inline" className="screen-filters" onFinish={apply}>
      {fields.map((f) => (
        <Form.Item key={f.key} name={f.key} label={f.label[locale]}>
          <FilterControl field={f} locale={locale} />
        </Form.Item>
      ))}
      <Space>
        <Button type="primary" htmlType="submit">
          {t('screen.query')}
        </Button>
        <Button
          onClick={() => {
            form.resetFields();
            apply();
          }}
        >
          {t('screen.reset')}
        </Button>
      </Space>
    </Form>
  );
}

/** A new record starts with the schema's defaults. */
function defaultsOf(screen: ScreenSchema): RecordValues {
  return Object.fromEntries(screen.fields.filter((f) => f.default !== undefined).map((f) => [f.key, f.default]));
}

/** Field errors the server answered (400 with resultObject.errors), else none. */
function serverFieldErrors(error: unknown): FieldError[] {
  if (error instanceof AxiosError)
    return (error.response?.data as { resultObject?: { errors?: FieldError[] } })?.resultObject?.errors ?? [];
  return [];
}

/**
 * The one page every schema route renders (issue 7): filters, toolbar, server-sorted and paged table,
 * selection, row actions, and the record dialog. Nothing in it knows a particular screen.
 */
export function ScreenView({ screen, basic = false }: { screen: ScreenSchema; basic?: boolean }) {
  const t = useT();
  const { locale } = useSnapshot(i18n);
  const { roles } = useSnapshot(userState);
  const { pageSizes } = useSnapshot(dictionaryState);
  const list = useListController(screen, (screen.list?.pageSizes ?? pageSizes)[0] ?? 50, basic);
  const writable = useWritable(screen, basic);
  const selection = useSelection(screen, list.records);
  const dialog = useRecordDialog();
  const [saving, setSaving] = useState(false);
  const [serverErrors, setServerErrors] = useState<FieldError[]>([]);
  const [busy, setBusy] = useState(false);
  /** The command being run (its button key): that button spins, the other commands wait. */
  const [running, setRunning] = useState<string>();
  /** A command waiting for its dialog's inputs (action.fields), with the rows it runs on. */
  const [asking, setAsking] = useState<{
    action: ActionDef;
    records: ScreenRecord[];
    key: string;
    errors: FieldError[];
  }>();
  /** Rows of a tree list the user folded. */
  const [folded, setFolded] = useState<ReadonlySet<number>>(new Set());
  // Spec 2.4 / 9: the page fills the window less 105 px; the rows scroll in what the rest leaves them.
  const pageRef = useRef<HTMLDivElement>(null);
  const layout = useTableLayout(pageRef);
  const allowed = (action: ActionDef) =>
    writable(action) &&
    screenAllows(screen, action.permission ?? ACTION_PERMISSION[action.kind], roles) &&
    (!action.roles || action.roles.some((r) => roles.includes(r))) &&
    (action.kind !== 'command' || commandHandler(action) !== undefined);
  const actions = screen.actions ?? {};
  const toolbar = (actions.toolbar ?? []).filter(allowed);
  const rowActions = (actions.row ?? []).filter(allowed);
  const batch = (actions.batch ?? []).filter(allowed);
  const selectionMode = screen.list?.selection ?? (batch.length > 0 ? 'multiple' : 'none');

  const remove = (ids: number[]) =>
    feedback.modal.confirm({
      title: t('screen.warning'),
      content: t('screen.deleteConfirm'),
      okText: t('common.confirm'),
      cancelText: t('common.cancel'),
      onOk: async () => {
        try {
          await dataProvider.deleteMany(screen, ids);
          notify.success(t('screen.deleted'));
          selection.clear();
          list.reload();
        } catch (e) {
          notify.error(errorMessage(e, t('screen.deleteFailed')));
        }
      },
      onCancel: () => notify.info(t('screen.deleteCancelled')),
    });

  const save = async (data: RecordValues) => {
    const state = dialog.state;
    if (!state) return;
    setSaving(true);
    try {
      if (state.mode === 'create') await dataProvider.create(screen, data);
      else await dataProvider.update(screen, state.record!.id, { ...data, version: state.record!.version });
      notify.success(t(state.mode === 'create' ? 'screen.created' : 'screen.updated'));
      setServerErrors([]);
      dialog.close();
      list.reload();
    } catch (e) {
      setServerErrors(serverFieldErrors(e));
      notify.error(errorMessage(e, t('screen.saveFailed')));
    } finally {
      setSaving(false);
    }
  };

  /**
   * A named command on some rows: confirm when the schema asks, ask for its inputs when it declares
   * fields (the dialog stays open, with the server's field errors, until the command succeeds), run,
   * say how it went, show the new state.
   */
  const runCommand = (action: ActionDef, records: ScreenRecord[], key: string, values?: RecordValues) => {
    const handler = commandHandler(action);
    if (!handler || running) return;
    if (action.fields && !values) return setAsking({ action, records, key, errors: [] });
    const label = action.label?.[locale] ?? t('screen.command');
    // The list's filters and sort, not its page: a toolbar command works on the whole list.
    const listQuery = Object.fromEntries(
      Object.entries(queryOf(list.params)).filter(([k]) => k !== 'page' && k !== 'size'),
    );
    const go = async () => {
      setRunning(key);
      try {
        const text = await handler({ screen, action, records, locale, values, listQuery });
        notify.success(text || t('screen.commandDone', { action: label }));
        setAsking(undefined);
        list.reload();
      } catch (e) {
        setAsking((current) => current && { ...current, errors: serverFieldErrors(e) });
        notify.error(errorMessage(e, t('screen.commandFailed', { action: label })));
      } finally {
        setRunning(undefined);
      }
    };
    if (!action.confirm) return void go();
    feedback.modal.confirm({
      title: t('screen.warning'),
      content: action.confirm[locale],
      okText: t('common.confirm'),
      cancelText: t('common.cancel'),
      onOk: go,
    });
  };
  const commandKey = (scope: string, action: ActionDef, id?: number) =>
    `${scope}:${action.name ?? action.endpoint}:${id ?? ''}`;
  const commandButton = (key: string) => ({
    loading: running === key,
    disabled: running !== undefined && running !== key,
  });

  const runToolbar = async (action: ActionDef) => {
    if (action.kind === 'create') return dialog.open('create');
    if (action.kind === 'command') return runCommand(action, [], commandKey('toolbar', action));
    if (action.kind === 'export') {
      setBusy(true);
      try {
        saveFile(await dataProvider.exportFile(screen, list.params), `${screen.title[locale]}.xlsx`);
      } catch (e) {
        notify.error(errorMessage(e, t('screen.exportFailed')));
      } finally {
        setBusy(false);
      }
    }
  };

  const runBatch = (action: ActionDef) => {
    if (selection.selected.length === 0) return notify.warning(t('screen.selectFirst'));
    if (action.kind === 'delete') remove(selection.selected);
    if (action.kind === 'command') {
      const chosen = new Set(selection.selected);
      runCommand(
        action,
        list.records.filter((r) => chosen.has(r.id)),
        commandKey('batch', action),
      );
    }
  };

  const columns = useMemo<TableColumnsType<ScreenRecord>>(() => {
    const sort = list.params.sort;
    const cols: TableColumnsType<ScreenRecord> = listColumns(screen).map((f) => {
      const column = typeof f.column === 'object' ? f.column : {};
      return {
        key: f.key,
        dataIndex: f.key,
        title: f.label[locale],
        width: column.width ?? 140,
        fixed: column.fixed,
        ellipsis: column.ellipsis ?? true,
        sorter: f.sortable ? true : undefined,
        sortOrder: sort?.field === f.key ? (sort.order === 'asc' ? 'ascend' : 'descend') : null,
        render: (_: unknown, record: ScreenRecord) => fieldValue(f, record, locale),
      };
    });
    if (screen.resource.publicData) {
      cols.push({
        key: '$syncFlag',
        title: t('publicData.column'),
        width: 100,
        render: (_: unknown, record: ScreenRecord) =>
          record.syncFlag === 1 ? (
            <Tag color="green">{t('publicData.synced')}</Tag>
          ) : record.syncFlag === 2 ? (
            <Tag color="orange">{t('publicData.updated')}</Tag>
          ) : null,
      });
    }
    if (rowActions.length > 0) {
      cols.push({
        key: '$actions',
        title: t('screen.actions'),
        fixed: 'right',
        width: 60 + rowActions.length * 50,
        render: (_: unknown, record: ScreenRecord) => (
          <RowActions
            actions={rowActions}
            record={record}
            label={(a) => a.label?.[locale] ?? t(`screen.${a.kind}` as 'screen.edit')}
            state={(a) => commandButton(commandKey('row', a, record.id))}
            onRun={(a) =>
              a.kind === 'delete'
                ? remove([record.id])
                : a.kind === 'command'
                  ? runCommand(a, [record], commandKey('row', a, record.id))
                  : dialog.open(a.kind === 'edit' ? 'edit' : 'view', record)
            }
          />
        ),
      });
    }
    return cols;
    // rowActions is derived from screen and roles, both in the deps through screen and locale.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [screen, locale, list.params.sort, roles, running]);

  const tree = screen.list?.tree;
  // Tree rows expand in place; virtual rows need a flat list of fixed height, and the body's height,
  // known from the first layout on (before the first paint). Decided by the page size, not by the rows
  // of the moment: switching mode when the rows arrive would build the whole table a second time.
  const virtual = !tree && list.params.size > VIRTUAL_FROM && layout.body !== undefined;
  // The selection column's width as antd's stylesheet gives it; virtual rows need it as a number.
  const { token } = theme.useToken();
  const selectionWidth = token.controlHeight + token.paddingXS * 2;
  const selectionColumn = selectionMode === 'none' ? 0 : selectionWidth;
  const laidOut = useMemo(
    () => (virtual && layout.width ? fillWidth(columns, layout.width - selectionColumn) : columns),
    [virtual, layout.width, columns, selectionColumn],
  );
  const rows = useMemo(() => (tree ? nestRows(list.records, tree.parentField) : list.records), [tree, list.records]);
  const parents = useMemo(() => (tree ? parentIds(rows) : []), [tree, rows]);
  return (
    <div
      className="screen-page"
      data-screen={screen.id}
      ref={pageRef}
      style={{ minHeight: layout.page, boxSizing: 'border-box' }}
    >
      <FilterBar screen={screen} list={list} />
      <Space className="screen-toolbar" wrap>
        {toolbar.map((a) =>
          a.kind === 'import' ? (
            <Upload
              key="import"
              accept=".xlsx"
              showUploadList={false}
              beforeUpload={(file) => {
                setBusy(true);
                dataProvider
                  .importFile(screen, file, a.endpoint)
                  .then((n) => {
                    notify.success(t('screen.imported', { n }));
                    list.reload();
                  })
                  .catch((e: unknown) => {
                    const errors = serverFieldErrors(e);
                    feedback.modal.error({
                      title: t('screen.importFailed'),
                      content:
                        errors.length > 0
                          ? errors.map((er, i) => <div key={i}>{er.message}</div>)
                          : errorMessage(e, t('screen.importFailed')),
                    });
                  })
                  .finally(() => setBusy(false));
                return false;
              }}
            >
              <Button loading={busy}>{a.label?.[locale] ?? t('screen.import')}</Button>
            </Upload>
          ) : (
            <Button
              key={a.kind + (a.name ?? a.endpoint ?? '')}
              type={a.kind === 'create' ? 'primary' : 'default'}
              {...(a.kind === 'command'
                ? commandButton(commandKey('toolbar', a))
                : { loading: a.kind === 'export' && busy })}
              onClick={() => void runToolbar(a)}
            >
              {a.label?.[locale] ?? t(`screen.${a.kind}` as 'screen.create')}
            </Button>
          ),
        )}
        <PublicDataActions
          screen={screen}
          basic={basic}
          selected={selection.selected}
          records={list.records}
          onDone={list.reload}
        />
        {batch.map((a) => (
          <Button
            key={`batch-${a.kind}-${a.name ?? a.endpoint ?? ''}`}
            danger={a.kind === 'delete'}
            {...(a.kind === 'command' ? commandButton(commandKey('batch', a)) : {})}
            onClick={() => runBatch(a)}
          >
            {a.label?.[locale] ??
              t(a.kind === 'delete' ? 'screen.batchDelete' : (`screen.${a.kind}` as 'screen.create'))}
          </Button>
        ))}
      </Space>
      {list.error !== undefined && (
        <Alert type="error" showIcon title={errorMessage(list.error, t('screen.queryFailed'))} />
      )}
      {screen.chart && (
        <Suspense fallback={<Spin className="screen-chart-loading" />}>
          <ScreenChart screen={screen} list={list} />
        </Suspense>
      )}
      <Table<ScreenRecord>
        rowKey="id"
        size="small"
        bordered
        loading={list.loading}
        columns={laidOut}
        dataSource={rows}
        virtual={virtual}
        // No "点击升序" tooltip on sortable headers (the spec's tables show none): a tooltip per sortable
        // column re-rendered with every page of rows cost ~15 ms of a 500-row page.
        showSorterTooltip={false}
        expandable={
          tree
            ? {
                // Every branch open unless the user folded it: the rows arrive after the first render.
                expandedRowKeys: parents.filter((id) => !folded.has(id)),
                onExpand: (open, record) =>
                  setFolded((f) =>
                    open ? new Set([...f].filter((id) => id !== record.id)) : new Set(f).add(record.id),
                  ),
              }
            : undefined
        }
        // Virtual rows want the table's width as a number (antd warns otherwise): their columns' sum.
        scroll={{
          x: virtual ? laidOut.reduce((sum, c) => sum + Number(c.width ?? 0), selectionColumn) : 'max-content',
          y: layout.body,
        }}
        rowSelection={
          selectionMode === 'none'
            ? undefined
            : {
                type: selectionMode === 'single' ? 'radio' : 'checkbox',
                columnWidth: selectionWidth,
                selectedRowKeys: selection.selected,
                onChange: (keys) => selection.setSelected(keys as number[]),
                // Only where the schema limits selection: otherwise antd would ask for each of 500 rows.
                getCheckboxProps: screen.list?.selectableWhen
                  ? (record) => ({ disabled: !selection.selectable(record) })
                  : undefined,
              }
        }
        onChange={(pagination, _filters, sorter) => {
          const s = Array.isArray(sorter) ? sorter[0] : sorter;
          const field = s?.order ? String(s.columnKey) : undefined;
          const next = field
            ? { field, order: s!.order === 'ascend' ? ('asc' as const) : ('desc' as const) }
            : screen.list?.defaultSort;
          if (JSON.stringify(next) !== JSON.stringify(list.params.sort)) list.setSort(next);
          else list.setPage(pagination.current ?? 1, pagination.pageSize ?? list.params.size);
        }}
        pagination={
          tree
            ? false
            : {
                current: list.params.page,
                pageSize: list.params.size,
                total: list.total,
                showSizeChanger: true,
                pageSizeOptions: (screen.list?.pageSizes ?? pageSizes).map(String),
                showTotal: (total) => t(list.more ? 'screen.totalMore' : 'screen.total', { n: total }),
              }
        }
      />
      {asking && (
        <CommandDialog
          screen={screen}
          action={asking.action}
          count={asking.records.length}
          running={running === asking.key}
          serverErrors={asking.errors}
          onRun={(values) => runCommand(asking.action, asking.records, asking.key, values)}
          onClose={() => setAsking(undefined)}
        />
      )}
      {dialog.state && (
        <RecordDialog
          screen={screen}
          mode={dialog.state.mode}
          initial={dialog.state.record ?? defaultsOf(screen)}
          serverErrors={serverErrors}
          saving={saving}
          onSave={(data) => void save(data)}
          onClose={() => {
            setServerErrors([]);
            dialog.close();
          }}
        />
      )}
    </div>
  );
}

/**
 * Loads a screen schema by id and renders it. When its file changes on the server, the server says so
 * over the push channel and the open page takes the new schema at once, keeping its query.
 */
export default function ScreenPage({ screenId, basic = false }: { screenId: string; basic?: boolean }) {
  const [screen, setScreen] = useState<ScreenSchema>();
  const [error, setError] = useState<string>();
  useEffect(() => {
    let current = true;
    const load = () =>
      dataProvider.getScreen(screenId).then(
        (s) => current && setScreen((old) => (JSON.stringify(old) === JSON.stringify(s) ? old : s)),
        (e: unknown) => current && setError(errorMessage(e, translate('screen.queryFailed', i18n.locale))),
      );
    void load();
    const onPush = (event: Event) => {
      const message = (event as CustomEvent<{ topic?: string; ids?: unknown }>).detail;
      if (message.topic === 'screens' && Array.isArray(message.ids) && message.ids.includes(screenId)) void load();
    };
    window.addEventListener(PUSH_TOPIC_EVENT, onPush);
    // A message missed while the push channel was down: look again when the window regains focus.
    window.addEventListener('focus', load);
    return () => {
      current = false;
      window.removeEventListener(PUSH_TOPIC_EVENT, onPush);
      window.removeEventListener('focus', load);
    };
  }, [screenId]);
  if (error) return <Alert type="error" showIcon title={error} />;
  if (!screen) return <Spin />;
  return <ScreenView key={screen.id} screen={screen} basic={basic} />;
}
