import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { UNLOGGED_WRITE } from '../../src/server/kernel/audit/unloggedWrites';
import { serverBundle } from './build-server';

const root = path.resolve(import.meta.dirname, '../..');
export const DEMO_PASSWORD = 'Demo@2026pw';

/**
 * Tests sign in far more often than people do: the sign-in and password-change throttles are set out
 * of their way, except in the tests of the throttles themselves, which pass their own limits.
 */
export const GENEROUS_LIMITS: Record<string, string> = {
  LIMS_AUTH_RATE_PER_ADDRESS: '100000',
  LIMS_AUTH_RATE_PER_ACCOUNT: '100000',
};

export interface TestServer {
  url: string;
  dataDir: string;
  /** Ends the process with SIGTERM (graceful) and waits for it. */
  stop(): Promise<void>;
  /** Ends the process with SIGKILL, as a crash would. */
  kill(): Promise<void>;
  /** Starts a new process on the same data (PGlite directory or PostgreSQL database). */
  restart(): Promise<TestServer>;
  /** Stops the process and removes its data. */
  dispose(): Promise<void>;
  output(): string;
}

/** A private copy of schemas/, so a test may add or break screen files without touching the repository. */
export function copySchemas(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'lims-schemas-'));
  cpSync(path.join(root, 'schemas'), dir, { recursive: true });
  return dir;
}

/** Environment keys that change what a new database holds: a server setting one seeds its own. */
const SEEDING_KEYS = ['LIMS_SCHEMA_DIR', 'LIMS_SEED_DEMO', 'LIMS_DEMO_PASSWORD', 'DATABASE_URL'];

/**
 * The run's seeded template (tests/support/data-template.ts) of that kind, when the server would seed the
 * same data; a server with other seeding settings, or outside vitest, seeds its own.
 */
async function templateFor(
  kind: 'pgliteTemplate' | 'postgresTemplate',
  env: Record<string, string>,
): Promise<string | undefined> {
  if (!process.env.VITEST || SEEDING_KEYS.some((k) => k in env)) return undefined;
  const { inject } = await import('vitest');
  return inject(kind);
}

/** Fills a new PGlite directory from the run's template, where there is one. */
export async function copyTemplate(dataDir: string, env: Record<string, string>): Promise<void> {
  if (process.env.TEST_DATABASE_URL) return;
  const template = await templateFor('pgliteTemplate', env);
  if (template) cpSync(template, dataDir, { recursive: true });
}

/**
 * Scratch databases of a vitest run are named after its template, so the run's teardown drops any a
 * test left behind (data-template.ts): a developer's PostgreSQL server does not fill up with them.
 */
async function scratchPrefix(): Promise<string> {
  if (!process.env.VITEST) return `lims_t_${process.pid}_`;
  const { inject } = await import('vitest');
  return `${inject('postgresTemplate')}_t_`;
}

/**
 * A scratch database on the PostgreSQL server of TEST_DATABASE_URL, one per test server: a copy of the
 * run's template where there is one. A copy fails while a session is still connected to the template
 * (the one that seeded it may take a moment to end), so it is tried again.
 */
async function createScratchDatabase(
  adminUrl: string,
  env: Record<string, string>,
): Promise<{ url: string; drop(): Promise<void> }> {
  const template = await templateFor('postgresTemplate', env);
  const name = `${await scratchPrefix()}${Math.random().toString(36).slice(2, 10)}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    for (let attempt = 1; ; attempt++) {
      try {
        await admin.query(template ? `create database ${name} template ${template}` : `create database ${name}`);
        break;
      } catch (e) {
        // 55006: the template is being accessed by other users.
        if ((e as { code?: string }).code !== '55006' || attempt >= 50) throw e;
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

function waitForReady(child: ChildProcess, log: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      log.push(chunk.toString());
      const match = /LIMS is ready at (http:\/\/\S+)/.exec(log.join(''));
      if (match?.[1]) resolve(match[1]);
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (chunk: Buffer) => log.push(chunk.toString()));
    child.once('exit', (code) => reject(new Error(`server exited with ${code} before it was ready:\n${log.join('')}`)));
  });
}

interface Launch {
  env: Record<string, string>;
  dataDir: string;
  databaseUrl?: string;
  dropDatabase?: () => Promise<void>;
}

/** How each server was launched, so that a second process can join its database. */
const launches = new WeakMap<TestServer, Launch>();

async function launch(l: Launch): Promise<TestServer> {
  const log: string[] = [];
  const child = spawn(process.execPath, ['--enable-source-maps', serverBundle], {
    cwd: root,
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      LIMS_DATA_DIR: l.dataDir,
      LIMS_DEMO_PASSWORD: DEMO_PASSWORD,
      LOG_LEVEL: 'warn',
      DATABASE_URL: l.databaseUrl ?? '',
      ...GENEROUS_LIMITS,
      ...l.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await waitForReady(child, log);
  const end = async (signal: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited;
  };
  const server: TestServer = {
    url,
    dataDir: l.dataDir,
    stop: () => end('SIGTERM'),
    kill: () => end('SIGKILL'),
    async restart() {
      await end('SIGTERM');
      return launch(l);
    },
    async dispose() {
      await end('SIGTERM');
      await l.dropDatabase?.();
      rmSync(l.dataDir, { recursive: true, force: true });
      // Every write the file's tests made must be in the operation log (src/server/logs/unloggedWrites.ts).
      const unlogged = log
        .join('')
        .split('\n')
        .filter((line) => line.includes(UNLOGGED_WRITE));
      if (unlogged.length) throw new Error(`the server wrote without an operation-log entry:\n${unlogged.join('\n')}`);
    },
    output: () => log.join(''),
  };
  launches.set(server, l);
  return server;
}

/**
 * Starts the server (`src/server/main.ts`, built by tests/support/build-server.ts) as its own process on a fresh data directory (PGlite), or on a fresh
 * database of the PostgreSQL server named by TEST_DATABASE_URL. Each call gets its own data.
 */
export async function startServer(env: Record<string, string> = {}): Promise<TestServer> {
  const data = await freshData(env, 'lims-test-');
  return launch({ env, dataDir: data.dataDir, databaseUrl: data.databaseUrl, dropDatabase: data.dropDatabase });
}

/** A test's own database: where its PGlite data lives, or the scratch PostgreSQL database it runs on. */
export interface FreshData {
  dataDir: string;
  databaseUrl?: string;
  dropDatabase?: () => Promise<void>;
}

/**
 * A new directory filled from the run's PGlite template, or, on a PostgreSQL run (TEST_DATABASE_URL), an
 * empty directory and a scratch database copied from the run's PostgreSQL template. Servers built in the
 * test's own process use it too, so that the PostgreSQL run tests them on PostgreSQL.
 */
export async function freshData(env: Record<string, string>, prefix: string): Promise<FreshData> {
  const dataDir = mkdtempSync(path.join(tmpdir(), prefix));
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) {
    await copyTemplate(dataDir, env);
    return { dataDir };
  }
  const scratch = await createScratchDatabase(adminUrl, env);
  return { dataDir, databaseUrl: scratch.url, dropDatabase: scratch.drop };
}

/**
 * Another server process on the same PostgreSQL database as `server` (several processes behind one
 * address). Its dispose() ends only this process: the database stays with the first server.
 * PGlite serves one process only, so this needs TEST_DATABASE_URL.
 */
export async function startSecondProcess(server: TestServer, env: Record<string, string> = {}): Promise<TestServer> {
  const first = launches.get(server);
  if (!first?.databaseUrl) throw new Error('a second server process needs PostgreSQL (TEST_DATABASE_URL)');
  const dataDir = mkdtempSync(path.join(tmpdir(), 'lims-test-'));
  return launch({ env: { ...first.env, ...env }, dataDir, databaseUrl: first.databaseUrl });
}

/** The PostgreSQL database a server runs on (undefined on PGlite), for tests that look at its sessions. */
export function databaseUrlOf(server: TestServer): string | undefined {
  return launches.get(server)?.databaseUrl;
}
