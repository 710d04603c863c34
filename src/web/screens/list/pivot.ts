import type { ScreenRecord } from '../dataProvider';

/** One column of a worksheet grid: a value of the column field (an item) and how it reads. */
export interface GridColumn {
  key: string;
  label: string;
  /** The column's records line by line, gaps left out: what Enter and a pasted column move through. */
  records: ScreenRecord[];
}

/** One line of a worksheet grid: a value of the row field (a barcode), the first record for its labels, and its cells. */
export interface GridLine {
  key: string;
  first: ScreenRecord;
  cells: Map<string, ScreenRecord>;
}

/** Numeric keys (ids) by number, others as text. */
const byKey = (a: GridColumn, b: GridColumn) =>
  /^\d+$/.test(a.key) && /^\d+$/.test(b.key) ? Number(a.key) - Number(b.key) : a.key.localeCompare(b.key);

const keyOf = (record: ScreenRecord, field: string) => String(record[field] ?? '');
const labelOf = (record: ScreenRecord, field: string) => {
  const label = record.labels?.[field];
  return label === undefined ? keyOf(record, field) : Array.isArray(label) ? label.join('、') : label;
};

/**
 * The records of a list as a grid (specimens × items): lines in the order their first record comes,
 * columns in the order of their keys (an item's id: the catalogue's order), whatever order the page's
 * rows came in. Two records with the same line and column keep the first.
 */
export function pivot(
  records: ScreenRecord[],
  row: string,
  column: string,
): { lines: GridLine[]; columns: GridColumn[] } {
  const lines = new Map<string, GridLine>();
  const columns = new Map<string, GridColumn>();
  for (const record of records) {
    const lineKey = keyOf(record, row);
    const columnKey = keyOf(record, column);
    const line = lines.get(lineKey) ?? { key: lineKey, first: record, cells: new Map<string, ScreenRecord>() };
    lines.set(lineKey, line);
    if (!columns.has(columnKey))
      columns.set(columnKey, { key: columnKey, label: labelOf(record, column), records: [] });
    if (!line.cells.has(columnKey)) line.cells.set(columnKey, record);
  }
  for (const line of lines.values()) for (const [key, record] of line.cells) columns.get(key)!.records.push(record);
  return { lines: [...lines.values()], columns: [...columns.values()].sort(byKey) };
}
