import { describe, expect, it } from 'vitest';
import { fitColumns, MIN_SCROLL } from './columnFit';

const col = (key: string, width: number, fixed?: 'left' | 'right') => ({ key, width, ...(fixed && { fixed }) });
const columns = [
  col('handoverNo', 160),
  col('fromSite', 140),
  col('boxNo', 140),
  col('status', 90),
  col('receivedAt', 170),
  col('$actions', 200, 'right'),
];
const keys = new Set(['handoverNo', 'status', 'receivedAt']);
const order = (fitted: { columns: { key: string; fixed?: unknown }[] }) =>
  fitted.columns.map((c) => (c.fixed ? `${c.key}:${String(c.fixed)}` : c.key));

describe('fitting columns into a table', () => {
  it('keeps the schema order, nothing pinned anew, when every column fits', () => {
    const fitted = fitColumns(columns, keys, 900);
    expect(fitted.overflow).toBe(false);
    expect(fitted.keysInView).toBe(true);
    expect(order(fitted)).toEqual(['handoverNo', 'fromSite', 'boxNo', 'status', 'receivedAt', '$actions:right']);
  });

  it('pins the key columns on their side, in their order, and scrolls the others between them', () => {
    const fitted = fitColumns(columns, keys, 800);
    expect(fitted.overflow).toBe(true);
    expect(fitted.keysInView).toBe(true);
    // Of the five field columns, the first two and a half are the left side.
    expect(order(fitted)).toEqual([
      'handoverNo:left',
      'fromSite',
      'boxNo',
      'status:right',
      'receivedAt:right',
      '$actions:right',
    ]);
  });

  it('pins a column the schema fixes at the left like a key column, at the left whatever its place', () => {
    const fitted = fitColumns(
      [...columns.slice(1, 5), col('index', 60, 'left'), columns[5]!],
      new Set(['fromSite']),
      600,
    );
    expect(order(fitted)).toEqual(['fromSite:left', 'index:left', 'boxNo', 'status', 'receivedAt', '$actions:right']);
  });

  it('pins only the key columns that leave the scrolling ones room, and says the others are out of view', () => {
    // 160 + 90 fit beside the actions with MIN_SCROLL to spare; receivedAt (170) would not.
    const room = 160 + 90 + 200 + MIN_SCROLL + 100;
    const fitted = fitColumns(columns, keys, room);
    expect(order(fitted).filter((k) => /:(left|right)$/.test(k))).toEqual([
      'handoverNo:left',
      'status:right',
      '$actions:right',
    ]);
    expect(fitted.keysInView).toBe(false);
  });
});
