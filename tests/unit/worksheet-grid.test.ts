import { describe, expect, it } from 'vitest';
import { pivot } from '../../src/web/screens/list/pivot';

const result = (id: number, barcode: string, item: number, label: string) => ({
  id,
  version: 1,
  barcode,
  item,
  labels: { item: label },
});

describe('the worksheet grid (specimens × items)', () => {
  it('makes one line per specimen in the order the rows come, and one column per item in the catalogue’s order', () => {
    // The page's rows may come in any order within a specimen: the columns keep the catalogue's.
    const rows = [
      result(2, 'B1', 11, '血红蛋白'),
      result(1, 'B1', 10, '白细胞计数'),
      result(3, 'B2', 11, '血红蛋白'),
      result(4, 'B3', 10, '白细胞计数'),
    ];
    const { lines, columns } = pivot(rows, 'barcode', 'item');
    expect(lines.map((l) => l.key)).toEqual(['B1', 'B2', 'B3']);
    expect(columns.map((c) => [c.key, c.label])).toEqual([
      ['10', '白细胞计数'],
      ['11', '血红蛋白'],
    ]);
    expect(lines[1]!.cells.get('10')).toBeUndefined();
    // Enter and a pasted column move down an item's column, past the specimens that did not order it.
    expect(columns[0]!.records.map((r) => r.id)).toEqual([1, 4]);
    expect(columns[1]!.records.map((r) => r.id)).toEqual([2, 3]);
    expect(lines[0]!.cells.get('10')!.id).toBe(1);
  });
});
