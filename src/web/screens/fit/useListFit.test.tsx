import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, renderHook, screen } from '@testing-library/react';
import type { TableColumnsType } from 'antd';
import type { RowItem } from '../RowActions';
import { CARDS_BELOW, useListFit } from './useListFit';

interface Row {
  id: number;
  state: string;
}
const col = (key: string, width: number) => ({ key, dataIndex: key, title: key, width });
const columns: TableColumnsType<Row> = [
  col('no', 160),
  col('site', 140),
  col('box', 140),
  col('seal', 140),
  col('state', 90),
];
const records: Row[] = [
  { id: 1, state: 'open' },
  { id: 2, state: 'received' },
];
const item = (label: string): RowItem => ({ key: label, label, onRun: () => undefined });
/** An open handover offers six actions, a received one two. */
const actions = (r: Row) =>
  r.state === 'open'
    ? ['查看', '编辑', '确认接收', '打印交接单', '导出Excel', '删除'].map(item)
    : ['查看', '打印交接单'].map(item);
const keys = ['no', 'state'];

function fit(width: number | undefined, hidden: string[] = [], keyColumns = keys) {
  return renderHook(() => useListFit({ columns, keys: keyColumns, hidden, records, actions, width, selectable: true }))
    .result.current;
}

afterEach(() => cleanup());

describe('a list laid out in its width', () => {
  it('keeps the columns as they are until it is measured, then as they are where they fit', () => {
    for (const width of [undefined, 2000]) {
      const laid = fit(width);
      expect(laid.cards).toBe(false);
      expect(laid.overflow).toBe(false);
      expect(laid.columns.map((c) => c.key)).toEqual(['no', 'site', 'box', 'seal', 'state', '$actions']);
    }
  });

  it('pins the key columns where the others scroll, the actions as wide as the widest row needs', () => {
    const laid = fit(800);
    expect(laid.overflow).toBe(true);
    expect(laid.columns.map((c) => `${String(c.key)}${c.fixed ? `:${String(c.fixed)}` : ''}`)).toEqual([
      'no:left',
      'site',
      'box',
      'seal',
      'state:right',
      '$actions:right',
    ]);
    // The open row's six actions do not fit in 30 % of 800 px: some go into the more menu.
    const actionsColumn = laid.columns.at(-1)!;
    expect(Number(actionsColumn.width)).toBeLessThanOrEqual(0.3 * 800);
    render(<>{laid.rowActions(records[0]!, 200)}</>);
    expect(screen.getByRole('button', { name: /更多/ })).toBeTruthy();
    expect(screen.queryByRole('button', { name: '删除' })).toBeNull();
  });

  it('shows what the user did not hide, and never hides a key column', () => {
    const laid = fit(2000, ['box', 'state']);
    expect(laid.shown.map((c) => c.key)).toEqual(['no', 'site', 'seal', 'state']);
  });

  it('gives the key columns room before inline buttons: a laptop sees a table, its actions in a more menu', () => {
    // 760 px: with 30 % of it for buttons, the three key columns would not all stay in view.
    const laid = fit(760, [], ['no', 'site', 'state']);
    expect(laid.cards).toBe(false);
    expect(laid.columns.filter((c) => c.fixed).map((c) => c.key)).toEqual(['no', 'site', 'state', '$actions']);
    expect(Number(laid.columns.at(-1)!.width)).toBeLessThanOrEqual(120);
    // Wide enough, the same list keeps more of its buttons inline.
    expect(Number(fit(1400, [], ['no', 'site', 'state']).columns.at(-1)!.width)).toBeGreaterThan(120);
  });

  it('turns the rows into cards on a phone', () => {
    expect(fit(CARDS_BELOW - 1).cards).toBe(true);
    expect(fit(CARDS_BELOW + 200).cards).toBe(false);
  });
});
