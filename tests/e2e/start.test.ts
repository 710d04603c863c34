import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * Issue 2 "done when": `npm start` (scripts/start.mjs) serves the app and the API on one port with the
 * embedded database, prints the address and the demo logins, and ends cleanly on SIGTERM. It runs in
 * the e2e project, whose set-up has built the app already, so the script finds the build up to date.
 */
const root = path.resolve(import.meta.dirname, '../..');
const dataDir = mkdtempSync(path.join(tmpdir(), 'lims-start-'));
let child: ChildProcess | undefined;
afterAll(async () => {
  // A test that failed or timed out before its SIGTERM leaves the script (and the server it started) running.
  if (child && child.exitCode === null && child.signalCode === null) {
    const exited = new Promise((resolve) => child!.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
  rmSync(dataDir, { recursive: true, force: true });
});

describe('npm start', () => {
  // A first start seeds a new database (migrations, demo data, hashed demo passwords) rather than copying
  // the run's template as the other servers do: well under a minute alone, several on a busy machine.
  it(
    'serves the login page and the API, prints the demo logins, and stops on SIGTERM',
    { timeout: 240_000 },
    async () => {
      const env: NodeJS.ProcessEnv = { ...process.env, PORT: '0', LIMS_DATA_DIR: dataDir, LOG_LEVEL: 'warn' };
      delete env.LIMS_DEMO_PASSWORD;
      delete env.DATABASE_URL;
      const started = spawn(process.execPath, ['scripts/start.mjs'], {
        cwd: root,
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      child = started;
      let output = '';
      started.stdout.on('data', (c: Buffer) => (output += c.toString()));
      started.stderr.on('data', (c: Buffer) => (output += c.toString()));
      const exited = new Promise<number | null>((resolve) => started.once('exit', resolve));
      const url = await new Promise<string>((resolve, reject) => {
        started.stdout.on('data', () => {
          const m = /LIMS is ready at (http:\/\/\S+)/.exec(output);
          if (m?.[1] && /onlyadmin/.test(output)) resolve(m[1]);
        });
        void exited.then(() => reject(new Error(`npm start ended early:\n${output}`)));
      });
      try {
        expect(output).toContain('database: PGlite at');
        expect(output).toMatch(/Demo logins \(password Lims@2026\)/);
        for (const account of ['admin', 'editor', 'baseadmin', 'lab2admin', 'lab3admin', 'onlyadmin'])
          expect(output).toContain(account);

        // A client route falls back to the app's page.
        const page = await fetch(`${url}/login`);
        expect(page.status).toBe(200);
        expect(page.headers.get('content-type')).toContain('text/html');
        expect(await page.text()).toContain('<title>实验室信息管理系统</title>');

        // The printed demo login signs in on the same port.
        const body = new URLSearchParams({
          grant_type: 'password',
          scope: 'all',
          username: 'admin',
          password: 'Lims@2026',
        });
        const token = await fetch(`${url}/oauth/token?client_id=laboratory`, { method: 'POST', body });
        expect(token.status).toBe(200);
        expect(((await token.json()) as { access_token?: string }).access_token).toBeTruthy();
      } finally {
        started.kill('SIGTERM');
      }
      expect(await exited).toBe(0);
    },
  );
});
