import type { ClipboardEvent, KeyboardEvent } from 'react';
import { Input } from 'antd';
import type { ScreenRecord } from './dataProvider';
import type { Worksheet } from './list/useWorksheet';

/** The input of row `index` in a worksheet column (the list's, or a grid's `column`): what Enter and paste move between. */
const inputOf = (index: number, column = '') =>
  document.querySelector<HTMLInputElement>(
    `input[data-worksheet-col="${CSS.escape(column)}"][data-worksheet-row="${index}"]`,
  );

/**
 * One typed cell of a worksheet: Enter (or ↓) moves to the row below and ↑ to the row above, as at a
 * bench with a keypad; a pasted column (one value per line) fills this row and the ones below it. In a
 * grid, `rows` are the cell's column and Tab moves across, as in any form.
 */
export function WorksheetCell({
  sheet,
  record,
  rows,
  index,
  label,
  column = '',
}: {
  sheet: Worksheet;
  record: ScreenRecord;
  rows: ScreenRecord[];
  index: number;
  label: string;
  column?: string;
}) {
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    const step = e.key === 'Enter' || e.key === 'ArrowDown' ? 1 : e.key === 'ArrowUp' ? -1 : 0;
    if (step === 0) return;
    e.preventDefault();
    const next = inputOf(index + step, column);
    next?.focus();
    next?.select();
  };
  const onPaste = (e: ClipboardEvent<HTMLInputElement>) => {
    const lines = e.clipboardData.getData('text').replace(/\r/g, '').replace(/\n$/, '').split('\n');
    if (lines.length < 2) return;
    e.preventDefault();
    const below = rows.slice(index).filter((r) => sheet.editable(r));
    sheet.type(
      below,
      lines.map((l) => l.split('\t')[0]!.trim()),
    );
  };
  return (
    <Input
      size="small"
      value={sheet.valueOf(record)}
      status={sheet.edits.has(record.id) ? 'warning' : undefined}
      data-worksheet-row={index}
      data-worksheet-col={column}
      aria-label={label}
      onChange={(e) => sheet.type([record], [e.target.value])}
      onKeyDown={onKeyDown}
      onPaste={onPaste}
    />
  );
}
