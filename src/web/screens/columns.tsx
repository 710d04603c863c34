import type { ReactNode } from 'react';
import { Tag, type TableColumnsType } from 'antd';
import type { Locale } from '../../shared/i18n/messages';
import type { FieldDef, ScreenSchema } from '../../shared/screens/fields';
import { listColumns } from '../../shared/screens/fields';
import type { useT } from '../i18n';
import type { ListParams, ScreenRecord } from './dataProvider';
import { fieldValue } from './fieldViews';

export interface ColumnOptions {
  screen: ScreenSchema;
  locale: Locale;
  t: ReturnType<typeof useT>;
  /** The list's sort, which the sorted column shows. */
  sort: ListParams['sort'];
  /** A cell drawn by the page instead of the field's value (a worksheet's typed column); undefined: the value. */
  cell?: (key: string, record: ScreenRecord, index: number) => ReactNode | undefined;
}

/**
 * A column's width when the schema gives none: what its values need in a small table (a date and
 * time, 19 characters, is cut short in less than 170 px), so that a fitted table knows its widths.
 */
const TYPE_WIDTH: Partial<Record<FieldDef['type'], number>> = {
  datetime: 170,
  date: 110,
  boolean: 80,
  integer: 90,
  number: 100,
  money: 110,
  enum: 110,
  barcode: 150,
  phone: 130,
};

export function columnWidth(field: FieldDef): number {
  const column = typeof field.column === 'object' ? field.column : {};
  return column.width ?? TYPE_WIDTH[field.type] ?? 140;
}

/**
 * The table's field columns: one per list field (width, fixed side, ellipsis, server sort), and the
 * sync state of a public resource. Each cell carries `screen-col-<key>`, by which the layout tests
 * find a key column. The row actions and the fitting to the window come after (fit/useListFit).
 */
export function screenColumns({ screen, locale, t, sort, cell }: ColumnOptions): TableColumnsType<ScreenRecord> {
  const cols: TableColumnsType<ScreenRecord> = listColumns(screen).map((f) => {
    const column = typeof f.column === 'object' ? f.column : {};
    return {
      key: f.key,
      dataIndex: f.key,
      title: f.label[locale],
      width: columnWidth(f),
      fixed: column.fixed,
      ellipsis: column.ellipsis ?? true,
      className: `screen-col-${f.key}`,
      sorter: f.sortable ? true : undefined,
      sortOrder: sort?.field === f.key ? (sort.order === 'asc' ? 'ascend' : 'descend') : null,
      render: (_: unknown, record: ScreenRecord, index: number) =>
        cell?.(f.key, record, index) ?? fieldValue(f, record, locale),
    };
  });
  if (screen.resource.publicData) cols.push(syncColumn(t));
  return cols;
}

function syncColumn(t: ColumnOptions['t']): TableColumnsType<ScreenRecord>[number] {
  return {
    key: '$syncFlag',
    title: t('publicData.column'),
    width: 100,
    className: 'screen-col-syncFlag',
    render: (_: unknown, record: ScreenRecord) =>
      record.syncFlag === 1 ? (
        <Tag color="green">{t('publicData.synced')}</Tag>
      ) : record.syncFlag === 2 ? (
        <Tag color="orange">{t('publicData.updated')}</Tag>
      ) : null,
  };
}
