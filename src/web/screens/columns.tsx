import type { ReactNode } from 'react';
import { Tag, type TableColumnsType } from 'antd';
import type { Locale } from '../../shared/i18n/messages';
import type { ActionDef, ScreenSchema } from '../../shared/screens/fields';
import { listColumns } from '../../shared/screens/fields';
import type { useT } from '../i18n';
import type { ListParams, ScreenRecord } from './dataProvider';
import { fieldValue } from './fieldViews';
import { RowActions } from './RowActions';

export interface ColumnOptions {
  screen: ScreenSchema;
  locale: Locale;
  t: ReturnType<typeof useT>;
  /** The list's sort, which the sorted column shows. */
  sort: ListParams['sort'];
  /** The row actions this user may take; none, no actions column. */
  rowActions: ActionDef[];
  /** A command's button state on a row: the running one spins, the others wait. */
  commandState: (action: ActionDef, record: ScreenRecord) => { loading?: boolean; disabled?: boolean };
  onRow: (action: ActionDef, record: ScreenRecord) => void;
  /** A cell drawn by the page instead of the field's value (a worksheet's typed column); undefined: the value. */
  cell?: (key: string, record: ScreenRecord, index: number) => ReactNode | undefined;
}

/**
 * The table's columns: one per list field (width, fixed side, ellipsis, server sort), the sync state
 * of a public resource, and the row actions at the right.
 */
export function screenColumns(options: ColumnOptions): TableColumnsType<ScreenRecord> {
  const { screen, locale, t, sort } = options;
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
      render: (_: unknown, record: ScreenRecord, index: number) =>
        options.cell?.(f.key, record, index) ?? fieldValue(f, record, locale),
    };
  });
  if (screen.resource.publicData) cols.push(syncColumn(t));
  if (options.rowActions.length > 0) cols.push(actionsColumn(options));
  return cols;
}

function syncColumn(t: ColumnOptions['t']): TableColumnsType<ScreenRecord>[number] {
  return {
    key: '$syncFlag',
    title: t('publicData.column'),
    width: 100,
    render: (_: unknown, record: ScreenRecord) =>
      record.syncFlag === 1 ? (
        <Tag color="green">{t('publicData.synced')}</Tag>
      ) : record.syncFlag === 2 ? (
        <Tag color="orange">{t('publicData.updated')}</Tag>
      ) : null,
  };
}

function actionsColumn({ locale, t, rowActions, commandState, onRow }: ColumnOptions) {
  return {
    key: '$actions',
    title: t('screen.actions'),
    fixed: 'right' as const,
    width: 60 + rowActions.length * 50,
    render: (_: unknown, record: ScreenRecord) => (
      <RowActions
        actions={rowActions}
        record={record}
        label={(a) => a.label?.[locale] ?? t(`screen.${a.kind}` as 'screen.edit')}
        state={(a) => commandState(a, record)}
        onRun={(a) => onRow(a, record)}
      />
    ),
  };
}
