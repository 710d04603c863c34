import { spawn } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { newestSource } from '../../scripts/newest.mjs';
import { startTemplate } from './data-template';

const root = path.resolve(import.meta.dirname, '../..');
/** Where the build goes and the test servers serve it from: LIMS_WEB_ROOT, as the server reads it. */
export const webRoot = path.resolve(root, process.env.LIMS_WEB_ROOT || 'dist/web');
const built = path.join(webRoot, 'index.html');

/** The e2e suite drives the production build; build it once when a source is newer than it. */
export function isStale(): boolean {
  if (!existsSync(built)) return true;
  return newestSource(root, ['src/web', 'src/shared']) > statSync(built).mtimeMs;
}

/** The e2e project's set-up: the data template is seeded in this process while the app builds in its own. */
export default async function setup() {
  if (!isStale()) return;
  startTemplate();
  await build();
}

/** Builds the app into `webRoot` where a source is newer than it (the benches). */
export async function buildWebApp(): Promise<void> {
  if (isStale()) await build();
}

async function build(): Promise<void> {
  // NODE_ENV as vitest sets it ("test") would make vite build React's development bundle: slower, and
  // not the app users get. The tests and the bench drive the production bundle.
  const build = spawn('npx', ['vite', 'build', '--logLevel', 'warn', '--outDir', webRoot, '--emptyOutDir'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  });
  const code = await new Promise<number | null>((resolve, reject) => {
    build.once('error', reject);
    build.once('exit', resolve);
  });
  if (code !== 0) throw new Error(`vite build exited with ${code}`);
}
