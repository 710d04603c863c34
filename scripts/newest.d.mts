/** The newest file time under each of `dirs` (relative to `root`): scripts/newest.mjs. */
export function newestSource(root: string, dirs: string[]): number;
