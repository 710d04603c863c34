/**
 * An optimistic-concurrency token for rows kept in tables without a version column (organisations,
 * menus): a 31-bit FNV-1a hash of what the row holds. A user saving an edit of a row that changed
 * since it was read sends an old token and is refused, as the generic resource refuses a stale version.
 */
export function contentVersion(content: unknown): number {
  let hash = 0x811c9dc5;
  for (const ch of JSON.stringify(content)) {
    hash ^= ch.codePointAt(0)!;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash & 0x7fffffff;
}
