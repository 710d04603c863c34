import { existsSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');
const BESIDE = 'shared/fixtures/activiti';

/**
 * The Activiti fixtures, kept beside the repository in ../shared/fixtures/activiti. A git worktree placed
 * deeper (../wt/<branch>) finds them in the nearest folder above it that holds them; where none does,
 * the usual place, so a missing file is named there.
 */
export const ACTIVITI_FIXTURES = ((): string => {
  for (let dir = path.dirname(root); ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, BESIDE))) return path.join(dir, BESIDE);
    if (path.dirname(dir) === dir) return path.join(path.dirname(root), BESIDE);
  }
})();
