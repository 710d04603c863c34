#!/usr/bin/env node
// Builds the server into one ES module, dist/server/main.mjs: a process starts from it in about a second
// less than from the TypeScript sources through tsx (no per-file transform and resolution). Packages stay
// in node_modules, loaded as they are, so libraries imported lazily still load only when first used.
//   node scripts/build-server.mjs            build
//   node scripts/build-server.mjs --if-stale build only when a source under src/server or src/shared is newer
import { build } from 'esbuild';
import { existsSync, renameSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { newestSource } from './newest.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const SERVER_BUNDLE = path.join(root, 'dist/server/main.mjs');

export function serverIsStale() {
  if (!existsSync(SERVER_BUNDLE)) return true;
  return newestSource(root, ['src/server', 'src/shared']) > statSync(SERVER_BUNDLE).mtimeMs;
}

/** Writes beside the bundle and renames, so a process starting meanwhile reads the old or the new one whole. */
export async function buildServer() {
  const next = `${SERVER_BUNDLE}.${process.pid}.tmp.mjs`;
  await build({
    entryPoints: [path.join(root, 'src/server/main.ts')],
    outfile: next,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    sourcemap: 'inline',
    logLevel: 'warning',
  });
  renameSync(next, SERVER_BUNDLE);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (!process.argv.includes('--if-stale') || serverIsStale()) await buildServer();
}
