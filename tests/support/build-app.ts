import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { startTemplate } from './data-template';

const root = path.resolve(import.meta.dirname, '../..');
/** Where the build goes and the test servers serve it from: LIMS_WEB_ROOT, as the server reads it. */
export const webRoot = path.resolve(root, process.env.LIMS_WEB_ROOT || 'dist/web');
const built = path.join(webRoot, 'index.html');

function newest(dir: string): number {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(full) : statSync(full).mtimeMs);
  }
  return latest;
}

/** The e2e suite drives the production build; build it once when a source is newer than it. */
export function isStale(): boolean {
  if (!existsSync(built)) return true;
  const sources = Math.max(newest(path.join(root, 'src/web')), newest(path.join(root, 'src/shared')));
  return sources > statSync(built).mtimeMs;
}

/** The e2e project's set-up: the data template is seeded in this process while the app builds in its own. */
export default async function setup() {
  if (!isStale()) return;
  startTemplate();
  await buildWebApp();
}

/** Builds the app into `webRoot` where a source is newer than it (the e2e set-up and the benches). */
export async function buildWebApp(): Promise<void> {
  if (!isStale()) return;
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
