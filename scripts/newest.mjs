// When a build is stale: the newest modification time of any file under the given folders. Plain
// node:fs, so `npm start` can ask before `npm ci` has installed anything.
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';

function newest(dir) {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(full) : statSync(full).mtimeMs);
  }
  return latest;
}

/** The newest file time under each of `dirs` (relative to `root`). */
export function newestSource(root, dirs) {
  return Math.max(...dirs.map((d) => newest(path.join(root, d))));
}
