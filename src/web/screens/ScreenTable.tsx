import { useMemo, useState } from 'react';
import { Table, type PaginationProps } from 'antd';
import type { ScreenSchema } from '../../shared/screens/fields';
import { matches } from '../../shared/screens/predicate';
import { useT } from '../i18n';
import type { ScreenRecord } from './dataProvider';
import type { ListFit } from './fit/useListFit';
import type { ListController } from './list/useListController';
import { RecordCards, type CardRow } from './RecordCards';
import { fillWidth, type TableLayout } from './tableLayout';
import { nestRows, parentIds, type TreeRow } from './treeRows';

/** Beyond this many rows a page renders virtually (fixed row height, only visible rows in the DOM). */
const VIRTUAL_FROM = 50;

interface Props {
  screen: ScreenSchema;
  list: ListController;
  /** The columns fitted to the page's width, or the cards that stand in for them on a phone. */
  fit: ListFit<ScreenRecord>;
  /** The key columns, which a card shows. */
  keys: readonly string[];
  layout: TableLayout;
  pageSizes: readonly number[];
  selection: {
    mode: 'none' | 'single' | 'multiple';
    selected: number[];
    setSelected: (ids: number[]) => void;
  };
}

/** A tree's rows in reading order, each with its depth, for the cards (which fold nothing). */
function flatten(rows: readonly TreeRow[], depth = 0): CardRow<ScreenRecord>[] {
  return rows.flatMap((record) => [{ record, depth }, ...flatten(record.children ?? [], depth + 1)]);
}

/** The pager of a list's page (its size, the total, the sizes offered), for its table or a grid of its rows. */
export function listPagination(
  list: ListController,
  pageSizes: readonly number[],
  t: ReturnType<typeof useT>,
): PaginationProps {
  return {
    current: list.params.page,
    pageSize: list.params.size,
    total: list.total,
    showSizeChanger: true,
    pageSizeOptions: pageSizes.map(String),
    showTotal: (total) => t(list.more ? 'screen.totalMore' : 'screen.total', { n: total }),
  };
}

/**
 * The list's table: server-sorted and paged, virtual rows on long pages, a tree list's rows nested
 * under their parents (all open until folded), and the selection column the schema asks for. On a
 * phone, the same rows as cards (fit.cards).
 */
export function ScreenTable({ screen, list, fit, keys, layout, pageSizes, selection }: Props) {
  const t = useT();
  const tree = screen.list?.tree;
  /** Rows of a tree list the user folded. */
  const [folded, setFolded] = useState<ReadonlySet<number>>(new Set());
  // Tree rows expand in place; virtual rows need a flat list of fixed height, and the body's height,
  // known from the first layout on (before the first paint). Decided by the page size, not by the rows
  // of the moment: switching mode when the rows arrive would build the whole table a second time.
  const virtual = !tree && list.params.size > VIRTUAL_FROM && layout.body !== undefined;
  const selectionWidth = fit.selectionWidth;
  const selectionColumn = selection.mode === 'none' ? 0 : selectionWidth;
  // Virtual rows are laid out by their widths alone: a table that does not fill its width gets the
  // room left to its field columns; one wider than the page scrolls as it is.
  const laidOut = useMemo(
    () =>
      virtual && layout.width && !fit.overflow ? fillWidth(fit.columns, layout.width - selectionColumn) : fit.columns,
    [virtual, layout.width, fit.columns, fit.overflow, selectionColumn],
  );
  const rows = useMemo(() => (tree ? nestRows(list.records, tree.parentField) : list.records), [tree, list.records]);
  const parents = useMemo(() => (tree ? parentIds(rows) : []), [tree, rows]);
  const selectableWhen = screen.list?.selectableWhen;
  const pagination: PaginationProps | false = tree ? false : listPagination(list, pageSizes, t);

  if (fit.cards) {
    const keySet = new Set(keys);
    // A card's actions share its width with its padding and border (global.css, .screen-card).
    const room = (layout.content ?? 0) - 26;
    return (
      <RecordCards<ScreenRecord>
        rows={tree ? flatten(rows) : rows.map((record) => ({ record, depth: 0 }))}
        rowKey={(r) => r.id}
        columns={fit.shown.filter((c) => keySet.has(String(c.key)))}
        actions={(record) => fit.rowActions(record, room)}
        loading={list.loading}
        selection={
          selection.mode === 'none'
            ? undefined
            : {
                type: selection.mode === 'single' ? 'radio' : 'checkbox',
                selected: selection.selected,
                onChange: (keys) => selection.setSelected(keys as number[]),
                disabled: selectableWhen ? (record) => !matches(selectableWhen, record) : undefined,
              }
        }
        pagination={
          pagination && {
            ...pagination,
            showSizeChanger: false,
            onChange: (page, size) => list.setPage(page, size),
          }
        }
      />
    );
  }

  return (
    <Table<ScreenRecord>
      className={fit.overflow ? 'screen-table scrolls' : 'screen-table'}
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
                setFolded((f) => (open ? new Set([...f].filter((id) => id !== record.id)) : new Set(f).add(record.id))),
            }
          : undefined
      }
      // Virtual rows want the table's width as a number (antd warns otherwise): their columns' sum.
      scroll={{
        x: virtual ? laidOut.reduce((sum, c) => sum + Number(c.width ?? 0), selectionColumn) : 'max-content',
        y: layout.body,
      }}
      rowSelection={
        selection.mode === 'none'
          ? undefined
          : {
              type: selection.mode === 'single' ? 'radio' : 'checkbox',
              columnWidth: selectionWidth,
              selectedRowKeys: selection.selected,
              onChange: (keys) => selection.setSelected(keys as number[]),
              // Only where the schema limits selection: otherwise antd would ask for each of 500 rows.
              getCheckboxProps: selectableWhen
                ? (record) => ({ disabled: !matches(selectableWhen, record) })
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
      pagination={pagination}
    />
  );
}
