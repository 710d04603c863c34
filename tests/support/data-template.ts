import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';

/**
 * A PGlite data directory made once per test run with the migrations and the demo data, which each
 * test server then copies into a directory of its own (`startServer`, `startInProcess`): a fresh
 * database costs ~9 s to create and seed, a copy well under one.
 */
declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplate: string;
  }
}

/**
 * The template of this run, shared by the projects that ask for it (api and e2e): vitest runs every
 * project's global set-up in its one main process, loading this file once per project, so the template
 * is kept on globalThis and made once. The last project to tear down removes it.
 */
const SHARED = Symbol.for('lims.tests.pgliteTemplate');
interface Shared {
  dir: Promise<string>;
  users: number;
}

async function makeTemplate(): Promise<string> {
  const { readConfig } = await import('../../src/server/kernel/config');
  const { prepare } = await import('../../src/server/startup');
  const { DEMO_PASSWORD } = await import('./server');
  const dir = mkdtempSync(path.join(tmpdir(), 'lims-template-'));
  const config = { ...readConfig({ LIMS_DATA_DIR: dir, LIMS_DEMO_PASSWORD: DEMO_PASSWORD }), databaseUrl: undefined };
  const { db, screens } = await prepare(config, () => undefined);
  screens.close();
  await db.close();
  return dir;
}

/** Global set-up of the api and e2e projects: builds the template (on PGlite runs only). */
export default async function setup(project: TestProject) {
  if (process.env.TEST_DATABASE_URL) return;
  const holder = globalThis as { [SHARED]?: Shared };
  const shared = (holder[SHARED] ??= { dir: makeTemplate(), users: 0 });
  shared.users++;
  const dir = await shared.dir;
  project.provide('pgliteTemplate', dir);
  return () => {
    if (--shared.users > 0) return;
    delete holder[SHARED];
    rmSync(dir, { recursive: true, force: true });
  };
}
