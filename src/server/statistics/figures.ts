/** Small, pure aggregation helpers for the statistics screens. */

/** The p-th percentile (0-100) by nearest rank; undefined for no values. */
export function percentile(values: number[], p: number): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1];
}

/** Minutes from one 'YYYY-MM-DD HH:mm[:ss]' time to another; undefined when either is missing. */
export function minutesBetween(from: unknown, to: unknown): number | undefined {
  if (typeof from !== 'string' || typeof to !== 'string') return undefined;
  const ms = Date.parse(to.replace(' ', 'T')) - Date.parse(from.replace(' ', 'T'));
  return Number.isFinite(ms) && ms >= 0 ? Math.round(ms / 60_000) : undefined;
}

/** Items grouped by a key, in first-seen order. */
export function groupBy<T>(items: T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    groups.set(k, [...(groups.get(k) ?? []), item]);
  }
  return groups;
}

export const share = (n: number, total: number) => (total === 0 ? 0 : Math.round((n / total) * 1000) / 10);

/** Rows sorted by a field the query names (e.g. "count,desc"), else by the default; then one page. */
export function page<T extends Record<string, unknown>>(
  rows: T[],
  query: { sort?: string; page?: string; size?: string },
  fallback: string,
) {
  const [field, order] = (query.sort || fallback).split(',');
  const sign = order === 'desc' ? -1 : 1;
  const sorted = [...rows].sort((a, b) => {
    const x = a[field!];
    const y = b[field!];
    if (x === y) return 0;
    if (x === undefined || x === null) return 1;
    if (y === undefined || y === null) return -1;
    return (x < y ? -1 : 1) * sign;
  });
  const size = Math.min(Math.max(Number(query.size) || 50, 1), 1000);
  const from = (Math.max(Number(query.page) || 1, 1) - 1) * size;
  return { records: sorted.slice(from, from + size).map((r, i) => ({ id: from + i + 1, ...r })), total: sorted.length };
}
