import { lazy, Suspense, useEffect, useMemo, useRef, useState } from 'react';
import { Alert, Spin } from 'antd';
import { useSnapshot } from 'valtio';
import { keyColumns, type ActionDef, type ScreenSchema } from '../../shared/screens/fields';
import { matches, type RecordValues } from '../../shared/screens/predicate';
import { errorMessage } from '../api/http';
import { userState } from '../auth/user';
import { dictionaryState } from '../dictionaries/dictionaries';
import { notify } from '../feedback/feedback';
import { i18n, translate, useT } from '../i18n';
import { useHiddenColumns } from '../preferences/columns';
import { PUSH_TOPIC_EVENT } from '../push/pushChannel';
import { useScreenActions } from './access';
import { ColumnPicker } from './ColumnPicker';
import { screenColumns } from './columns';
import { dataProvider, type ScreenRecord } from './dataProvider';
import { FilterBar } from './FilterBar';
import { useListFit } from './fit/useListFit';
import { commandKey, isBatchKey, useCommandRunner } from './list/useCommandRunner';
import { useConfirmDelete } from './list/useConfirmDelete';
import { useImportExport } from './list/useImportExport';
import { useListController } from './list/useListController';
import { useLinkFilters } from './list/useLinkFilters';
import { useSave } from './list/useSave';
import { useScanDesk } from './list/useScanDesk';
import { useSelection } from './list/useSelection';
import type { RowItem } from './RowActions';
import { ScanBar } from './ScanBar';
import { WorksheetBar } from './WorksheetBar';
import { WorksheetCell } from './WorksheetCell';
import { WorksheetGrid } from './WorksheetGrid';
import { useWorksheet } from './list/useWorksheet';
import type { DialogMode } from './rjsfSchema';
import { ScreenTable } from './ScreenTable';
import { ScreenToolbar } from './ScreenToolbar';
import { useTableLayout } from './tableLayout';

/** Statistics charts: hand-written, with their chart library, loaded only by a screen that has one. */
const ScreenChart = lazy(() => import('../charts/ScreenChart'));
// The form renderer and its validator (the heaviest code of a list page) arrive with the first dialog,
// not with the list: fetched when the pointer or focus first comes onto the page, so a click on 新增 finds
// them loaded, and never for someone who only reads the list.
const loadRecordDialog = () => import('./RecordDialog');
const loadCommandDialog = () => import('./CommandDialog');
const RecordDialog = lazy(() => loadRecordDialog().then((m) => ({ default: m.RecordDialog })));
const CommandDialog = lazy(() => loadCommandDialog().then((m) => ({ default: m.CommandDialog })));
const HistoryDrawer = lazy(() => import('./HistoryDrawer').then((m) => ({ default: m.HistoryDrawer })));
let dialogsAsked = false;
function preloadDialogs() {
  if (dialogsAsked) return;
  dialogsAsked = true;
  void loadRecordDialog();
  void loadCommandDialog();
}

/** A new record starts with the schema's defaults. */
function defaultsOf(screen: ScreenSchema): RecordValues {
  return Object.fromEntries(screen.fields.filter((f) => f.default !== undefined).map((f) => [f.key, f.default]));
}

/**
 * The one page every schema route renders (issue 7): filters, toolbar, server-sorted and paged table,
 * selection, row actions, and the record dialog. Nothing in it knows a particular screen; the list's
 * state lives in the headless hooks of ./list, and this view only wires them to the antd parts.
 */
export function ScreenView({ screen, basic = false }: { screen: ScreenSchema; basic?: boolean }) {
  const t = useT();
  const { locale } = useSnapshot(i18n);
  const { roles } = useSnapshot(userState);
  const { pageSizes } = useSnapshot(dictionaryState);
  const sizes = screen.list?.pageSizes ?? pageSizes;
  const linked = useLinkFilters(screen);
  const list = useListController(screen, sizes[0] ?? 50, basic, linked);
  // A link that brings the open page another query filters its list anew.
  const [appliedLink, setAppliedLink] = useState(linked);
  if (appliedLink !== linked) {
    setAppliedLink(linked);
    list.setFilters(linked);
  }
  const selection = useSelection(list.records);
  const actions = useScreenActions(screen, basic);
  const editor = useSave<{ mode: DialogMode; record?: ScreenRecord }>(list.reload);
  // The rows a batch command was run on are done with: their ticks go (their state may no longer take it).
  const commands = useCommandRunner(screen, list, (key) => isBatchKey(key) && selection.clear());
  const files = useImportExport(screen, list);
  const confirmDelete = useConfirmDelete({
    remove: (ids: number[]) => dataProvider.deleteMany(screen, ids),
    texts: {
      title: t('screen.warning'),
      content: t('screen.deleteConfirm'),
      ok: t('common.confirm'),
      cancel: t('common.cancel'),
      done: t('screen.deleted'),
      cancelled: t('screen.deleteCancelled'),
      failed: t('screen.deleteFailed'),
    },
    selection,
    reload: list.reload,
  });
  // Spec 2.4 / 9: the page fills the window less 105 px; the rows scroll in what the rest leaves them.
  const pageRef = useRef<HTMLDivElement>(null);
  const layout = useTableLayout(pageRef);
  const [history, setHistory] = useState<ScreenRecord>();
  const desk = useScanDesk(screen, list, actions.row);
  const sheet = useWorksheet(screen, list.reload);
  /** A worksheet with a grid opens as the grid (specimens × items); the list stays a click away for signing. */
  const [gridView, setGridView] = useState(Boolean(screen.list?.worksheet?.grid));
  const sheetField = sheet.sheet && screen.fields.find((f) => f.key === sheet.sheet!.field);
  const cell = (key: string, record: ScreenRecord, index: number) =>
    sheetField && key === sheetField.key && sheet.editable(record) ? (
      <WorksheetCell sheet={sheet} record={record} rows={list.records} index={index} label={sheetField.label[locale]} />
    ) : undefined;

  const saveRecord = (data: RecordValues) => {
    const open = editor.dialog;
    if (!open) return;
    void editor.save(async () => {
      if (open.mode === 'create') await dataProvider.create(screen, data);
      else await dataProvider.update(screen, open.record!.id, { ...data, version: open.record!.version });
      return t(open.mode === 'create' ? 'screen.created' : 'screen.updated');
    }, t('screen.saveFailed'));
  };

  const onToolbar = (action: ActionDef) => {
    if (action.kind === 'create') editor.open({ mode: 'create' });
    if (action.kind === 'command') commands.run(action, [], commandKey('toolbar', action));
    if (action.kind === 'export') void files.exportList();
  };

  const onBatch = (action: ActionDef) => {
    if (selection.selected.length === 0) return notify.warning(t('screen.selectFirst'));
    if (action.kind === 'delete') confirmDelete(selection.selected);
    if (action.kind === 'command') commands.run(action, selection.chosen, commandKey('batch', action));
  };

  const onRow = (action: ActionDef, record: ScreenRecord) => {
    if (action.kind === 'delete') confirmDelete([record.id]);
    else if (action.kind === 'history') setHistory(record);
    else if (action.kind === 'command') commands.run(action, [record], commandKey('row', action, record.id));
    else editor.open({ mode: action.kind === 'edit' ? 'edit' : 'view', record });
  };

  const columns = useMemo(
    () => screenColumns({ screen, locale, t, sort: list.params.sort, cell: sheet.sheet ? cell : undefined }),
    // t follows the locale; a worksheet's cells follow its edits and the rows.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [screen, locale, list.params.sort, sheet.edits, list.records],
  );
  const keys = useMemo(() => keyColumns(screen), [screen]);
  const [hidden, setHidden] = useHiddenColumns(screen.id);
  const rowItems = useMemo(
    () =>
      actions.row.length === 0
        ? undefined
        : (record: ScreenRecord): RowItem[] =>
            actions.row
              .filter((a) => matches(a.visibleWhen, record))
              .map((a) => ({
                key: a.kind + (a.name ?? a.endpoint ?? ''),
                label: a.label?.[locale] ?? t(`screen.${a.kind}` as 'screen.edit'),
                danger: a.kind === 'delete',
                ...(a.kind === 'command' && commands.button(commandKey('row', a, record.id))),
                onRun: () => onRow(a, record),
              })),
    // The row actions follow from screen and roles, the handlers' state from the running command:
    // all in the deps through screen, roles and commands.running.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [screen, locale, roles, commands.running],
  );
  const fit = useListFit({
    columns,
    keys,
    hidden,
    records: list.records,
    actions: rowItems,
    width: layout.width ?? layout.content,
    selectable: actions.selection !== 'none',
  });

  const asking = commands.asking;
  return (
    <div
      className="screen-page"
      data-screen={screen.id}
      ref={pageRef}
      style={{ minHeight: layout.page, boxSizing: 'border-box' }}
      onPointerOver={preloadDialogs}
      onFocus={preloadDialogs}
    >
      {screen.list?.scan && (
        <ScanBar onScan={desk.onScan} act={desk.actSwitch} tally={desk.tally} onClearTally={desk.clearTally} />
      )}
      <FilterBar screen={screen} onApply={list.setFilters} values={linked} />
      <div className="screen-toolbar-row">
        <ScreenToolbar
          screen={screen}
          basic={basic}
          toolbar={actions.toolbar}
          batch={actions.batch}
          busy={files.busy}
          commandState={(a, scope) => commands.button(commandKey(scope, a))}
          onToolbar={onToolbar}
          onImport={files.importFile}
          onBatch={onBatch}
          selected={selection.selected}
          chosen={selection.chosen}
          records={list.records}
          reload={list.reload}
        />
        {!fit.cards && <ColumnPicker columns={columns} keys={keys} hidden={hidden} onChange={setHidden} />}
      </div>
      {sheet.sheet && (
        <WorksheetBar sheet={sheet} grid={gridView} onGrid={sheet.sheet.grid ? setGridView : undefined} />
      )}
      {list.error !== undefined && (
        <Alert type="error" showIcon title={errorMessage(list.error, t('screen.queryFailed'))} />
      )}
      {screen.chart && (
        <Suspense fallback={<Spin className="screen-chart-loading" />}>
          <ScreenChart screen={screen} list={list} />
        </Suspense>
      )}
      {gridView ? (
        <WorksheetGrid screen={screen} sheet={sheet} list={list} pageSizes={sizes} locale={locale} />
      ) : (
        <ScreenTable
          screen={screen}
          list={list}
          fit={fit}
          keys={keys}
          layout={layout}
          pageSizes={sizes}
          selection={{ mode: actions.selection, selected: selection.selected, setSelected: selection.setSelected }}
        />
      )}
      <Suspense fallback={null}>
        {asking && (
          <CommandDialog
            screen={screen}
            action={asking.action}
            count={asking.records.length}
            running={commands.running === asking.key}
            serverErrors={asking.errors}
            onRun={(values) => commands.run(asking.action, asking.records, asking.key, values)}
            onClose={commands.stopAsking}
            record={asking.records.length === 1 ? asking.records[0] : undefined}
          />
        )}
        {history && <HistoryDrawer screen={screen} record={history} onClose={() => setHistory(undefined)} />}
        {editor.dialog && (
          <RecordDialog
            screen={screen}
            mode={editor.dialog.mode}
            initial={editor.dialog.record ?? defaultsOf(screen)}
            serverErrors={editor.errors}
            saving={editor.saving}
            onSave={saveRecord}
            onClose={editor.close}
          />
        )}
      </Suspense>
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
