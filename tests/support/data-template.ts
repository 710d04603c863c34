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

/** Global set-up of the api and e2e projects: builds the template (on PGlite runs only). */
export default async function setup(project: TestProject) {
  if (process.env.TEST_DATABASE_URL) return;
  const { readConfig } = await import('../../src/server/kernel/config');
  const { prepare } = await import('../../src/server/startup');
  const { DEMO_PASSWORD } = await import('./server');
  const dir = mkdtempSync(path.join(tmpdir(), 'lims-template-'));
  const config = { ...readConfig({ LIMS_DATA_DIR: dir, LIMS_DEMO_PASSWORD: DEMO_PASSWORD }), databaseUrl: undefined };
  const { db, screens } = await prepare(config, () => undefined);
  screens.close();
  await db.close();
  project.provide('pgliteTemplate', dir);
  return () => rmSync(dir, { recursive: true, force: true });
}
