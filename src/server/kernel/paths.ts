import { existsSync } from 'node:fs';
import path from 'node:path';

/**
 * The folder holding package.json, found by walking up from this module: the same answer whether the
 * server runs from its sources (tsx) or from the one-file build in dist/server, whose modules all share
 * the bundle's location.
 */
function repositoryRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`no package.json above ${from}`);
  }
}

export const REPOSITORY_ROOT = repositoryRoot(import.meta.dirname);
/** The screen, menu and demo files shipped with the product (LIMS_SCHEMA_DIR may name another copy). */
export const SHIPPED_SCHEMAS = path.join(REPOSITORY_ROOT, 'schemas');
