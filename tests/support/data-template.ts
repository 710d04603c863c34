import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';

/**
 * A PGlite data directory made once per test run with the migrations and the demo data, which each
 * test server then copies into a directory of its own (`startServer`, `startInProcess`): a fresh
 * database costs ~9 s to create and seed, a copy well under one. On a PostgreSQL run the template is a
 * database, and each test server's scratch database is created from it (`create database … template`).
 */
declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplate: string;
    /** On PostgreSQL runs: the seeded database each test server's scratch database is created from. */
    postgresTemplate: string;
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

/** Migrates and seeds a database: a PGlite directory, or the PostgreSQL database `databaseUrl` names. */
async function seeded(dir: string, databaseUrl: string | undefined): Promise<void> {
  const { readConfig } = await import('../../src/server/kernel/config');
  const { prepare } = await import('../../src/server/startup');
  const { DEMO_PASSWORD } = await import('./server');
  const config = { ...readConfig({ LIMS_DATA_DIR: dir, LIMS_DEMO_PASSWORD: DEMO_PASSWORD }), databaseUrl };
  const { db, screens } = await prepare(config, () => undefined);
  screens.close();
  await db.close();
}

/** The template of a PGlite run: a data directory. */
async function makeTemplate(): Promise<string> {
  const dir = mkdtempSync(path.join(tmpdir(), 'lims-template-'));
  await seeded(dir, undefined);
  return dir;
}

/** The template of a PostgreSQL run: a database on the server of TEST_DATABASE_URL, named after this run. */
async function makePostgresTemplate(adminUrl: string): Promise<string> {
  const name = `lims_template_${process.pid}`;
  await adminQuery(adminUrl, `drop database if exists ${name}`);
  await adminQuery(adminUrl, `create database ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const dir = mkdtempSync(path.join(tmpdir(), 'lims-template-'));
  await seeded(dir, url.toString());
  rmSync(dir, { recursive: true, force: true });
  return name;
}

async function adminQuery(adminUrl: string, sql: string): Promise<{ datname: string }[]> {
  const pg = (await import('pg')).default;
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return (await client.query<{ datname: string }>(sql)).rows;
  } finally {
    await client.end();
  }
}

/** Drops the run's template and every scratch database made from it that a test did not drop. */
async function dropRun(adminUrl: string, template: string): Promise<void> {
  const left = await adminQuery(adminUrl, `select datname from pg_database where datname like '${template}\\_t\\_%'`);
  for (const { datname } of left) await adminQuery(adminUrl, `drop database if exists ${datname} with (force)`);
  await adminQuery(adminUrl, `drop database if exists ${template} with (force)`);
}

/**
 * Starts making the run's template, once, and answers it: the app's build (build-app.ts) calls it first,
 * so the seeding runs in this process while the build runs in its own, on the other core.
 */
export function startTemplate(): Shared {
  const adminUrl = process.env.TEST_DATABASE_URL;
  const holder = globalThis as { [SHARED]?: Shared };
  return (holder[SHARED] ??= {
    dir: adminUrl ? makePostgresTemplate(adminUrl) : makeTemplate(),
    users: 0,
  });
}

/** Global set-up of the api and e2e projects: builds the run's template, on PGlite or on PostgreSQL. */
export default async function setup(project: TestProject) {
  const adminUrl = process.env.TEST_DATABASE_URL;
  const holder = globalThis as { [SHARED]?: Shared };
  const shared = startTemplate();
  shared.users++;
  const made = await shared.dir;
  project.provide(adminUrl ? 'postgresTemplate' : 'pgliteTemplate', made);
  return async () => {
    if (--shared.users > 0) return;
    delete holder[SHARED];
    if (adminUrl) await dropRun(adminUrl, made);
    else rmSync(made, { recursive: true, force: true });
  };
}
