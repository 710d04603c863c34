import { useMemo, type ReactNode } from 'react';
import { theme, type TableColumnsType } from 'antd';
import { useT } from '../../i18n';
import { RowActions, type RowItem } from '../RowActions';
import { actionsWidth, inlineCount, type ActionText } from './actionFit';
import { fitColumns } from './columnFit';
import { textWidth } from './textWidth';

/** Narrower than this (a phone), a list shows its rows as cards: no table fits there. */
export const CARDS_BELOW = 576;
/** The share of the table's width the row actions may take before the rest go in a more menu. */
const ACTIONS_SHARE = 0.3;
const ACTIONS_MIN = 120;
const ACTIONS_MAX = 360;

export interface ListFitOptions<R> {
  /** The list's field columns (with keys and widths), in the schema's order; no actions column. */
  columns: TableColumnsType<R>;
  /** Keys of the key columns: always shown, and pinned when the table scrolls. */
  keys: readonly string[];
  /** Columns the user hid with the column picker (key columns stay). */
  hidden?: readonly string[];
  records: readonly R[];
  /** A row's actions; none, no actions column. */
  actions?: (record: R) => RowItem[];
  /** The width of the list's content box; undefined until measured (the first frame lays nothing out). */
  width?: number;
  /** The table has a selection column (checkbox or radio). */
  selectable: boolean;
}

export interface ListFit<R> {
  /** Rows as cards: the list is too narrow for a table of its key columns. */
  cards: boolean;
  /** The table's columns, fitted: key columns pinned when the others scroll, the actions at the right. */
  columns: TableColumnsType<R>;
  /** The field columns the list shows (the user's choice), for the cards. */
  shown: TableColumnsType<R>;
  /** The columns are wider than the table: the unpinned ones scroll. */
  overflow: boolean;
  /** The actions of one row laid out in a room of this many px (a card's width). */
  rowActions: (record: R, room: number) => ReactNode;
  /** The selection column's width as antd's stylesheet gives it (virtual rows need it as a number). */
  selectionWidth: number;
}

/**
 * The layout of a list in the width it has (issue 25), shared by the generic screen and the
 * hand-written lists: which columns show, which are pinned, how wide the actions column is (only
 * as wide as its buttons, the rest in a more menu), and whether the rows are cards instead.
 */
export function useListFit<R>({
  columns,
  keys,
  hidden,
  records,
  actions,
  width,
  selectable,
}: ListFitOptions<R>): ListFit<R> {
  const t = useT();
  const { token } = theme.useToken();
  const more = t('screen.more');
  const actionsTitle = t('screen.actions');
  const { fontSize, fontFamily, paddingXS, lineWidth, controlHeight } = token;
  const selectionWidth = selectable ? controlHeight + paddingXS * 2 : 0;
  return useMemo(() => {
    const text: ActionText = { fontSize, fontFamily, more };
    // A small table's cell: its padding either side and its border; and room for a running command's spinner.
    const cell = paddingXS * 2 + lineWidth;
    const spinner = fontSize + 4;
    const keySet = new Set(keys);
    const hiddenSet = new Set(hidden);
    const shown = columns.filter((c) => keySet.has(String(c.key)) || !hiddenSet.has(String(c.key)));
    const layout = (record: R, room: number) => {
      const items = actions!(record);
      return {
        items,
        inline: inlineCount(
          items.map((i) => i.label),
          room,
          text,
        ),
      };
    };
    const rowActions = (record: R, room: number) => {
      if (!actions) return null;
      const { items, inline } = layout(record, room);
      return <RowActions items={items} inline={inline} more={more} />;
    };
    /** The actions column whose buttons take at most `room` px inline, the rest in a more menu. */
    const actionsColumn = (room: number) => {
      let widest = textWidth(actionsTitle, fontSize, fontFamily);
      for (const record of records) {
        const { items, inline } = layout(record, room);
        widest = Math.max(
          widest,
          actionsWidth(
            items.map((i) => i.label),
            inline,
            text,
          ),
        );
      }
      return {
        key: '$actions',
        title: actionsTitle,
        fixed: 'right' as const,
        width: widest + cell + spinner,
        className: 'screen-col-actions',
        render: (_: unknown, record: R) => rowActions(record, room),
      };
    };
    const tableRoom = width === undefined ? Infinity : width - selectionWidth;
    const fitWith = (room: number) => fitColumns(actions ? [...shown, actionsColumn(room)] : shown, keySet, tableRoom);
    let fitted = fitWith(Math.min(ACTIONS_MAX, Math.max(ACTIONS_MIN, (width ?? 0) * ACTIONS_SHARE)) - cell - spinner);
    // The key columns come before inline buttons: where they are not all in view, the actions keep the
    // least room (the rest in their more menu) before the rows become cards. A 1366 px laptop's list
    // of handovers is a table then, its keys pinned.
    if (actions && !fitted.keysInView) fitted = fitWith(ACTIONS_MIN - cell - spinner);
    return {
      cards: width !== undefined && (width < CARDS_BELOW || !fitted.keysInView),
      columns: fitted.columns,
      shown,
      overflow: fitted.overflow,
      rowActions,
      selectionWidth,
    };
  }, [
    columns,
    keys,
    hidden,
    records,
    actions,
    width,
    selectionWidth,
    fontSize,
    fontFamily,
    paddingXS,
    lineWidth,
    more,
    actionsTitle,
  ]);
}
