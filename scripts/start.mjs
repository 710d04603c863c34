#!/usr/bin/env node
// `npm start`: install when node_modules is missing, build the browser app and the server when either is
// missing or older than its sources, then serve app + API on one port (PORT, default 8080) with the
// embedded database.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { newestSource } from './newest.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

if (!existsSync(path.join(root, 'node_modules/.package-lock.json'))) {
  console.log('Installing dependencies (npm ci)…');
  execFileSync(npm, ['ci', '--no-audit', '--no-fund'], { cwd: root, stdio: 'inherit' });
}

const built = path.join(root, 'dist/web/index.html');
const sources = newestSource(root, ['src/web', 'src/shared']);
if (!existsSync(built) || statSync(built).mtimeMs < sources) {
  console.log('Building the browser app…');
  // Whatever NODE_ENV the shell has, the app served is React's production bundle.
  execFileSync(npm, ['run', 'build', '--silent'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  });
}

// The server runs from its one-file build (scripts/build-server.mjs), made again when a source is newer.
const { buildServer, serverIsStale, SERVER_BUNDLE } = await import('./build-server.mjs');
if (serverIsStale()) {
  console.log('Building the server…');
  await buildServer();
}
const server = spawn(process.execPath, ['--enable-source-maps', SERVER_BUNDLE], { cwd: root, stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code) => process.exit(code ?? 0));
