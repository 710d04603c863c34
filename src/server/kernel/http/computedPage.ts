/**
 * A page of rows a capability computed (statistics, chart points) in the generic list's shape, so the
 * renderer pages and sorts them like stored records.
 */

/** Rows sorted by a field the query names (e.g. "count,desc"), else by the default; empty values last. */
export function sorted<T extends Record<string, unknown>>(rows: T[], sort: string | undefined, fallback: string): T[] {
  const [field, order] = (sort || fallback).split(',');
  const sign = order === 'desc' ? -1 : 1;
  return [...rows].sort((a, b) => {
    const x = a[field!];
    const y = b[field!];
    if (x === y) return 0;
    if (x === undefined || x === null) return 1;
    if (y === undefined || y === null) return -1;
    return (x < y ? -1 : 1) * sign;
  });
}

/** The rows in order, then one page of them, numbered. */
export function page<T extends Record<string, unknown>>(
  rows: T[],
  query: { sort?: string; page?: string; size?: string },
  fallback: string,
) {
  const size = Math.min(Math.max(Number(query.size) || 50, 1), 1000);
  const from = (Math.max(Number(query.page) || 1, 1) - 1) * size;
  return {
    records: sorted(rows, query.sort, fallback)
      .slice(from, from + size)
      .map((r, i) => ({ id: from + i + 1, ...r })),
    total: rows.length,
  };
}
