import { execFileSync } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');
/** The one-file server the test servers run (scripts/build-server.mjs): built from the sources of this run. */
export const serverBundle = path.join(root, 'dist/server/main.mjs');

export default function setup() {
  execFileSync(process.execPath, ['scripts/build-server.mjs'], { cwd: root, stdio: 'inherit' });
}
