import type { ScreenRecord } from './dataProvider';

/** A row of a tree list: the record with the rows that name it as their parent. */
export type TreeRow = ScreenRecord & { children?: TreeRow[] };

/**
 * Nests a flat list under its parents (list.tree): a row whose parent field names a listed row goes
 * under it, in list order; the others are roots. A row never ends up under itself, even when the data
 * holds a cycle: the cycle's rows become roots.
 */
export function nestRows(records: readonly ScreenRecord[], parentField: string): TreeRow[] {
  const byId = new Map<number, TreeRow>(records.map((r) => [r.id, { ...r }]));
  const parentOf = (row: TreeRow) => {
    const id = row[parentField];
    return typeof id === 'number' && id !== row.id ? byId.get(id) : undefined;
  };
  const inCycle = (row: TreeRow) => {
    const seen = new Set<number>([row.id]);
    for (let at = parentOf(row); at; at = parentOf(at)) {
      if (seen.has(at.id)) return true;
      seen.add(at.id);
    }
    return false;
  };
  const roots: TreeRow[] = [];
  for (const row of byId.values()) {
    const parent = parentOf(row);
    if (parent && !inCycle(row)) (parent.children ??= []).push(row);
    else roots.push(row);
  }
  return roots;
}

/** Ids of the rows that have children, at any depth. */
export function parentIds(rows: readonly TreeRow[]): number[] {
  return rows.flatMap((r) => (r.children?.length ? [r.id, ...parentIds(r.children)] : []));
}
