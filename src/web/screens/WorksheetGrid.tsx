import { useMemo } from 'react';
import { Table, type TableColumnsType } from 'antd';
import type { Locale } from '../../shared/i18n/messages';
import type { FieldDef, ScreenSchema } from '../../shared/screens/fields';
import { fieldValue } from './fieldViews';
import type { ScreenRecord } from './dataProvider';
import { pivot, type GridColumn, type GridLine } from './list/pivot';
import { WorksheetCell } from './WorksheetCell';
import { listPagination } from './ScreenTable';
import type { ListController } from './list/useListController';
import { useT } from '../i18n';
import type { Worksheet } from './list/useWorksheet';

/**
 * The worksheet as a grid (list.worksheet.grid): one line per specimen, one column per ordered item,
 * each cell the result to type (Tab across, Enter down, a pasted column fills the cells below) or, once
 * past typing, its value; the server's flag beside it when it is not the default one.
 */
export function WorksheetGrid({
  screen,
  sheet,
  list,
  pageSizes,
  locale,
}: {
  screen: ScreenSchema;
  sheet: Worksheet;
  list: ListController;
  pageSizes: readonly number[];
  locale: Locale;
}) {
  const t = useT();
  const records = list.records;
  const grid = sheet.sheet!.grid!;
  const field = (key: string | undefined) => screen.fields.find((f) => f.key === key);
  const typed = field(sheet.sheet!.field)!;
  const mark = field(grid.mark);
  const { lines, columns } = useMemo(() => pivot(records, grid.row, grid.column), [records, grid]);

  const cell = (column: GridColumn, line: GridLine) => {
    const record = line.cells.get(column.key);
    if (!record) return null;
    const index = column.records.indexOf(record);
    const label = `${line.key} ${column.label}`;
    return (
      <div className="worksheet-grid-cell">
        {sheet.editable(record) ? (
          <WorksheetCell
            sheet={sheet}
            record={record}
            rows={column.records}
            index={index}
            label={label}
            column={column.key}
          />
        ) : (
          (fieldValue(typed, record, locale) ?? stateOf(screen, record, locale))
        )}
        {mark && markOf(mark, record, locale)}
      </div>
    );
  };
  const heading = (key: string): TableColumnsType<GridLine>[number] => {
    const f = field(key)!;
    return {
      key,
      title: f.label[locale],
      width: 110,
      render: (_: unknown, line: GridLine) => fieldValue(f, line.first, locale),
    };
  };
  const tableColumns: TableColumnsType<GridLine> = [
    { ...heading(grid.row), fixed: 'left', width: 130 },
    ...(grid.rowLabels ?? []).map(heading),
    ...columns.map((column) => ({
      key: `item-${column.key}`,
      title: column.label,
      width: 150,
      render: (_: unknown, line: GridLine) => cell(column, line),
    })),
  ];
  return (
    <Table<GridLine>
      className="worksheet-grid"
      data-testid="worksheet-grid"
      size="small"
      rowKey="key"
      columns={tableColumns}
      dataSource={lines}
      pagination={{ ...listPagination(list, pageSizes, t), onChange: (page, size) => list.setPage(page, size) }}
      scroll={{ x: 'max-content' }}
    />
  );
}

/**
 * A cell past typing that holds no value (a result cancelled with its rejected tube): its state, so it
 * does not read as one still to be typed.
 */
function stateOf(screen: ScreenSchema, record: ScreenRecord, locale: Locale) {
  const state = screen.fields.find((f) => f.key === screen.resource.lifecycle?.field);
  return state ? <span className="worksheet-grid-state">{fieldValue(state, record, locale)}</span> : null;
}

/** The server's mark of a cell (a flag), shown when it is not the field's default (a normal result). */
function markOf(mark: FieldDef, record: ScreenRecord, locale: Locale) {
  const value = record[mark.key];
  if (value === undefined || value === null || value === '' || value === mark.default) return null;
  return <span className="worksheet-grid-mark">{fieldValue(mark, record, locale)}</span>;
}
