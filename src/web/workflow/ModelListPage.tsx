import { lazy, Suspense, useCallback, useMemo, useRef, useState } from 'react';
import { Button, Input, Space, Table, Tag, type TableColumnsType, type TablePaginationConfig } from 'antd';
import type { SorterResult } from 'antd/es/table/interface';
import { useSnapshot } from 'valtio';
import { errorMessage } from '../api/http';
import { useHiddenColumns } from '../preferences/columns';
import { ColumnPicker } from '../screens/ColumnPicker';
import { useListFit } from '../screens/fit/useListFit';
import { RecordCards } from '../screens/RecordCards';
import type { RowItem } from '../screens/RowActions';
import { useTableLayout } from '../screens/tableLayout';
import { useConfirmDelete } from '../screens/list/useConfirmDelete';
import { useListQuery } from '../screens/list/useListQuery';
import { useSave } from '../screens/list/useSave';
import { useSelection } from '../screens/list/useSelection';
import { feedback, notify } from '../feedback/feedback';
import { userState } from '../auth/user';
import { i18n } from '../i18n';
import * as api from './api';
import type { ModelRow } from './api';
import { retargetDiagram } from './copyDiagram';
import {
  categoryLabel,
  CopyDialog,
  formatTime,
  ImportDialog,
  LabsDialog,
  NewModelDialog,
  type NewModelValues,
} from './dialogs';
import { wt, type Zh } from './i18n';

const Designer = lazy(() => import('./designer/Designer'));

const SYNC_LABELS: Record<number, Zh> = { 0: '未同步', 1: '已同步', 2: '已更新' };

/**
 * What a user must see of each model at any window size (issue 25): which process, and whether it is
 * deployed. The rest scrolls beside them, and a phone shows these on a card.
 */
const KEY_COLUMNS = ['modelId', 'name', 'deploymentId'];

type Dialog =
  | { kind: 'add' }
  | { kind: 'import'; rows: ModelRow[] }
  | { kind: 'labs'; labs: { id: number; name: string }[] }
  | { kind: 'copy'; target: ModelRow }
  | { kind: 'design' | 'view'; model: ModelRow };

/** The list's query: the keyword the user applied, and the column sorted on the server. */
interface ModelQuery {
  search: string;
  sort?: string;
  order?: 'asc' | 'desc';
}

/** Spec 8's failure word (删除失败, 部署失败) and, when the server gave one, its reason: what the lab must fix. */
function failedWith(word: string, error: unknown): string {
  const reason = errorMessage(error, '');
  return reason ? `${word}：${reason}` : word;
}

/** Asks before a far-reaching action (deploy, sync, confirm updates) and runs it on OK; the button waits for it. */
function confirmThen(title: string, content: string, run: () => Promise<void>): void {
  feedback.modal.confirm({ title, content, okText: wt('确定'), cancelText: wt('取消'), onOk: run });
}

/**
 * The process model list (spec 2.4): keyword search, server-side sort, the columns and row actions of
 * the spec, and the public-data actions of the user's kind of organisation. `basic` is the route's
 * isBasic flag: the base organisation's models (orgId 0).
 */
export default function ModelListPage({ basic }: { basic: boolean }) {
  const { info, isOnlyLab, isMainLab, roles } = useSnapshot(userState);
  // Re-render on a language switch: every label below is read through wt().
  const { locale } = useSnapshot(i18n);
  const orgId = basic ? 0 : (info?.organization.id ?? -1);
  // Spec 2.4 / 9: the page fills the window less 105 px; the rows scroll in what the rest leaves them.
  const pageRef = useRef<HTMLDivElement>(null);
  const layout = useTableLayout(pageRef);
  const load = useCallback(
    (q: ModelQuery) =>
      orgId < 0
        ? undefined
        : api.listModels({ orgId, searchKeyWord: q.search, ...(q.sort && { sort: q.sort, order: q.order }) }).then(
            (records) => ({ records }),
            (e: unknown) => {
              notify.error(errorMessage(e, wt('查询失败')));
              throw e;
            },
          ),
    [orgId],
  );
  const list = useListQuery<ModelQuery, ModelRow>({ initial: { search: '' }, load });
  const rows = list.records;
  const selection = useSelection(rows);
  const selected = selection.selected;
  const [keyword, setKeyword] = useState('');
  const selectable = orgId === 0 || orgId === 1;
  const isAdmin = roles.includes('admin');

  /** Asks again with the keyword typed (it applies when the user asks: button, Enter, or a change made here). */
  const query = () => {
    list.refine({ search: keyword.trim() });
    list.reload();
  };

  /** The page's dialogs and their submits: buttons wait while one runs; success clears the selection and reloads. */
  const dialogs = useSave<Dialog>(() => {
    selection.clear();
    query();
  });
  const { dialog, saving: busy, save: submit } = dialogs;

  const confirmDelete = useConfirmDelete({
    remove: ([id]: string[]) => api.deleteModel(id!),
    texts: {
      title: wt('警告'),
      content: wt('此操作将永久删除该流程, 是否继续?'),
      ok: wt('确定'),
      cancel: wt('取消'),
      done: wt('删除成功'),
      cancelled: wt('已取消删除'),
      failed: wt('删除失败'),
    },
    failure: (e, texts) => failedWith(texts.failed, e),
    reload: query,
  });

  const add = (v: NewModelValues) =>
    void submit(async () => {
      const res = await api.insertModel({ ...v, orgId });
      return res.resultMessage;
    }, wt('新增失败'));

  /** Deploying changes what every new specimen runs: asked first, and its outcome stays on screen. */
  const deploy = (row: ModelRow) =>
    confirmThen(
      wt('部署确认'),
      wt('部署「{name}」后，新标本将按此版本启动流程；已在运行的流程仍按原版本进行。').replace('{name}', row.name),
      async () => {
        try {
          notify.lasting(wt('流程已部署'), (await api.deployModel(row.id)).resultMessage);
          query();
        } catch (e) {
          notify.error(failedWith(wt('部署失败'), e));
        }
      },
    );

  const copyFrom = (target: ModelRow, source: ModelRow) =>
    void submit(async () => {
      let xml: string;
      try {
        xml = (await api.modelXml(source.id)).bpmnXml;
      } catch (e) {
        console.error('获取拷贝对象的流程xml失败', e);
        throw e;
      }
      return (await api.saveModelXml(target.id, retargetDiagram(xml, target.key, target.name), '')).resultMessage;
    }, wt('拷贝失败'));

  const needSelection = () => {
    if (selected.length > 0) return false;
    notify.warning(wt('请先勾选数据进行操作'));
    return true;
  };

  const publicData = async () => {
    if (orgId === 0) {
      if (needSelection()) return;
      const orgs = await api.organizations();
      return dialogs.open({ kind: 'labs', labs: orgs.filter((o) => o.id !== 0 && o.labType !== 'base') });
    }
    if (isMainLab === 1) {
      if (needSelection()) return;
      const ask = wt('将对选中的 {n} 个流程执行「{action}」，其他实验室的流程模型会随之改变。是否继续？');
      return confirmThen(
        publicLabel,
        ask.replace('{n}', String(selected.length)).replace('{action}', publicLabel),
        () => submit(async () => (await api.syncModels(selected, 1)).message, wt('同步失败'), wt('公共数据操作完成')),
      );
    }
    dialogs.open({ kind: 'import', rows: await api.listModels({ orgId: 0 }) });
  };

  /** Confirm updates: the selected rows where there is a selection, else the has-update set (newVersion > 1). */
  const confirmUpdates = () => {
    const pending = rows
      .filter((r) => r.newVersion > 1 && r.syncFlag === 2 && (!selectable || selected.includes(r.id)))
      .map((r) => r.id);
    if (pending.length === 0) return void notify.warning(wt('请先勾选数据进行操作'));
    const ask = wt('将用集团的新版本更新 {n} 个流程，本实验室对它们的修改会被覆盖。是否继续？');
    confirmThen(wt('确认更新'), ask.replace('{n}', String(pending.length)), () =>
      submit(async () => (await api.syncModels(pending, 2)).message, wt('更新失败'), wt('公共数据操作完成')),
    );
  };

  const publicLabel = orgId === 0 ? wt('下发公共数据') : isMainLab === 1 ? wt('同步公共数据') : wt('导入公共数据');
  const showPublic = isOnlyLab !== 1 && isAdmin;

  // Every column has a width, so that the table knows when they fit the window (screens/fit).
  const columns = useMemo(
    (): TableColumnsType<ModelRow> =>
      [
        ...(selectable
          ? []
          : [
              {
                title: wt('序号'),
                key: 'index',
                width: 60,
                // Pinned like the key columns, so that it stays first when they move to the left (screens/fit).
                fixed: 'left' as const,
                render: (_: unknown, __: ModelRow, i: number) => i + 1,
              },
            ]),
        { title: wt('流程ID'), dataIndex: 'modelId', key: 'modelId', sorter: true, width: 180, ellipsis: true },
        { title: wt('流程标识'), dataIndex: 'key', key: 'key', sorter: true, width: 160, ellipsis: true },
        { title: wt('流程名称'), dataIndex: 'name', key: 'name', width: 160, ellipsis: true },
        ...(orgId === 1 ? [] : [{ title: wt('版本'), dataIndex: 'version', key: 'version', width: 70 }]),
        { title: wt('编码'), dataIndex: 'code', key: 'code', width: 140, ellipsis: true },
        ...(orgId === 1
          ? [
              {
                title: wt('同步状态'),
                dataIndex: 'syncFlag',
                key: 'syncFlag',
                sorter: true,
                width: 100,
                render: (v: number) => (SYNC_LABELS[v] ? wt(SYNC_LABELS[v]) : v),
              },
            ]
          : []),
        {
          title: wt('类别'),
          dataIndex: 'category',
          key: 'category',
          sorter: true,
          width: 90,
          render: categoryLabel,
        },
        {
          title: wt('最后更新时间'),
          dataIndex: 'lastUpdateTime',
          key: 'lastUpdateTime',
          sorter: true,
          width: 180,
          render: formatTime,
        },
        {
          title: wt('部署状态'),
          dataIndex: 'deploymentId',
          key: 'deploymentId',
          sorter: true,
          width: 120,
          render: (v: string | null, r: ModelRow) => (
            <Space size={4} wrap>
              {v ? <Tag color="green">{wt('已部署')}</Tag> : <Tag>{wt('未部署')}</Tag>}
              {r.newVersion > 1 && r.syncFlag === 2 && (
                <Tag color="orange">
                  {wt('有新版本')} v{r.newVersion}
                </Tag>
              )}
            </Space>
          ),
        },
      ].map((c) => ({ ...c, className: `screen-col-${c.key}` })),
    // wt() reads the locale.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [selectable, orgId, locale],
  );
  const [hidden, setHidden] = useHiddenColumns('workflow-models');
  // The handlers read the page's state as it is when clicked.
  const rowItems = (r: ModelRow): RowItem[] => [
    ...(r.hasXml
      ? []
      : [{ key: 'copy', label: wt('拷贝流程图'), onRun: () => dialogs.open({ kind: 'copy', target: r }) }]),
    { key: 'edit', label: wt('编辑'), onRun: () => dialogs.open({ kind: 'design', model: r }) },
    { key: 'view', label: wt('查看'), onRun: () => dialogs.open({ kind: 'view', model: r }) },
    { key: 'delete', label: wt('删除'), danger: true, onRun: () => confirmDelete([r.id]) },
    { key: 'deploy', label: wt('部署'), onRun: () => deploy(r) },
  ];
  const fit = useListFit({
    columns,
    keys: KEY_COLUMNS,
    hidden,
    records: rows,
    actions: rowItems,
    width: layout.width ?? layout.content,
    selectable,
  });

  const onTableChange = (
    _: TablePaginationConfig,
    __: unknown,
    sorter: SorterResult<ModelRow> | SorterResult<ModelRow>[],
  ) => {
    const s = Array.isArray(sorter) ? sorter[0] : sorter;
    const order = s?.order === 'descend' ? ('desc' as const) : ('asc' as const);
    list.setQuery((q) => ({ search: q.search, ...(s?.order && { sort: String(s.columnKey), order }) }));
  };

  return (
    <div
      className="process-model-list"
      data-testid="process-model-list"
      ref={pageRef}
      style={{ minHeight: layout.page, boxSizing: 'border-box' }}
    >
      <Space wrap style={{ marginBottom: 8 }}>
        <Input.Search
          placeholder={wt('流程名称')}
          allowClear
          value={keyword}
          onChange={(e) => setKeyword(e.target.value)}
          onSearch={query}
          style={{ width: 240 }}
          enterButton={wt('查询')}
          data-testid="model-search"
        />
        <Button type="primary" onClick={() => dialogs.open({ kind: 'add' })}>
          {wt('新增模型')}
        </Button>
        {showPublic && (
          <Button
            onClick={() => void publicData().catch((e: unknown) => notify.error(errorMessage(e, wt('查询失败'))))}
            loading={busy}
          >
            {publicLabel}
          </Button>
        )}
        {showPublic && orgId !== 0 && (
          <Button onClick={confirmUpdates} disabled={busy}>
            {wt('确认更新')}
          </Button>
        )}
        {!fit.cards && <ColumnPicker columns={columns} keys={KEY_COLUMNS} hidden={hidden} onChange={setHidden} />}
      </Space>
      {fit.cards ? (
        <RecordCards<ModelRow>
          rows={rows.map((record) => ({ record, depth: 0 }))}
          rowKey={(r) => r.id}
          columns={fit.shown.filter((c) => KEY_COLUMNS.includes(String(c.key)))}
          // A card's actions share its width with its padding and border (global.css, .screen-card).
          actions={(r) => fit.rowActions(r, (layout.content ?? 0) - 26)}
          loading={list.loading}
          selection={
            selectable
              ? {
                  type: 'checkbox',
                  selected,
                  onChange: (keys) => selection.setSelected(keys as string[]),
                  disabled: (r) => r.syncFlag === 1,
                }
              : undefined
          }
        />
      ) : (
        <Table<ModelRow>
          className={fit.overflow ? 'screen-table scrolls' : 'screen-table'}
          rowKey="id"
          size="small"
          loading={list.loading}
          dataSource={rows}
          columns={fit.columns}
          onChange={onTableChange}
          pagination={{ defaultPageSize: 50, pageSizeOptions: [50, 100, 200, 500], showSizeChanger: true }}
          scroll={{ x: 'max-content', y: layout.body }}
          rowSelection={
            selectable
              ? {
                  selectedRowKeys: selected,
                  onChange: (keys) => selection.setSelected(keys as string[]),
                  getCheckboxProps: (r) => ({ disabled: r.syncFlag === 1 }),
                }
              : undefined
          }
        />
      )}
      {dialog?.kind === 'add' && <NewModelDialog busy={busy} onOk={add} onCancel={() => dialogs.close()} />}
      {dialog?.kind === 'import' && (
        <ImportDialog
          rows={dialog.rows}
          busy={busy}
          onCancel={() => dialogs.close()}
          onOk={(ids) =>
            ids.length === 0
              ? notify.warning(wt('请先勾选数据进行操作'))
              : void submit(
                  async () => (await api.issueModels(ids, [orgId])).message,
                  wt('导入失败'),
                  wt('公共数据操作完成'),
                )
          }
        />
      )}
      {dialog?.kind === 'labs' && (
        <LabsDialog
          labs={dialog.labs}
          busy={busy}
          onCancel={() => dialogs.close()}
          onOk={(labs) =>
            labs.length === 0
              ? notify.warning(wt('请先选择要下发的实验室'))
              : void submit(
                  async () => (await api.issueModels(selected, labs)).message,
                  wt('下发失败'),
                  wt('公共数据操作完成'),
                )
          }
        />
      )}
      {dialog?.kind === 'copy' && (
        <CopyDialog
          target={dialog.target}
          rows={rows}
          busy={busy}
          onCancel={() => dialogs.close()}
          onOk={(source) => copyFrom(dialog.target, source)}
        />
      )}
      {(dialog?.kind === 'design' || dialog?.kind === 'view') && (
        <Suspense fallback={null}>
          <Designer
            model={dialog.model}
            readOnly={dialog.kind === 'view'}
            onClose={(saved) => {
              dialogs.close();
              if (saved) query();
            }}
          />
        </Suspense>
      )}
    </div>
  );
}
