import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, DEMO_PASSWORD, type TestServer } from '../support/server';
import { api, tokenFor } from '../support/client';

/**
 * Issue 20, backup and restore of the embedded database: `npm run backup` takes a copy from the running
 * server while clients keep writing; `npm run restore` loads it into a fresh data directory; a server
 * started there has every record acknowledged before the backup, and the operation log's chain
 * verifies (`npm run audit:verify`). PostgreSQL is backed up with pg_dump (README), so this runs on PGlite.
 */
const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../..');
const KEY = 'backup-key-for-tests-0123456789';

function script(name: string, args: string[], env: Record<string, string>) {
  return run(process.execPath, ['--import', 'tsx', `src/server/${name}.ts`, ...args], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: '', ...env },
  }).then(
    (r) => ({ code: 0, out: r.stdout + r.stderr }),
    (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, out: e.stdout + e.stderr }),
  );
}

const work = mkdtempSync(path.join(tmpdir(), 'lims-backup-'));
let server: TestServer;
let restored: TestServer | undefined;
beforeAll(async () => {
  if (!process.env.TEST_DATABASE_URL) server = await startServer({ LIMS_BACKUP_KEY: KEY });
});
afterAll(async () => {
  await restored?.dispose();
  await server?.dispose();
  rmSync(work, { recursive: true, force: true });
});

describe.skipIf(!!process.env.TEST_DATABASE_URL)('backup and restore (PGlite)', () => {
  it('refuses a backup without the right key, in the envelope', async () => {
    for (const key of [undefined, 'wrong', KEY.slice(0, -1)]) {
      const res = await fetch(`${server.url}/api/system/backup`, { headers: key ? { 'x-backup-key': key } : {} });
      expect(res.status).toBe(401);
      expect(await res.json()).toMatchObject({ resultCode: 401, resultMessage: '备份密钥不正确', resultObject: null });
    }
  });

  it('copies the running database, restores it into a fresh directory, with the records and a verifiable chain', async () => {
    const admin = api(server.url, await tokenFor(server.url, 'admin', DEMO_PASSWORD));
    const before: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await admin.post('/api/resources/specimenType', {
        code: `BK${i}`,
        name: `备份前${i}`,
        category: 'blood',
      });
      expect(res.body.resultCode, res.body.resultMessage).toBe(200);
      before.push(`BK${i}`);
    }
    // Writes go on while the backup is taken: the copy must still be a consistent database.
    let writing = true;
    const during = (async () => {
      for (let n = 0; writing; n++)
        await admin.post('/api/resources/specimenType', { code: `BD${n}`, name: `备份中${n}`, category: 'urine' });
    })();
    const file = path.join(work, 'lims.tar.gz');
    const backup = await script('backup', [file], { LIMS_BACKUP_URL: server.url, LIMS_BACKUP_KEY: KEY });
    writing = false;
    await during;
    expect(backup.out).toContain('backup written');
    expect(backup.code).toBe(0);
    expect(statSync(file).size).toBeGreaterThan(10_000);

    const dataDir = path.join(work, 'restored');
    const restore = await script('restore', [file, dataDir], {});
    expect(restore.out).toMatch(/audit chain intact/);
    expect(restore.code).toBe(0);
    // A second restore into the same directory is refused: it holds a database now.
    const again = await script('restore', [file, dataDir], {});
    expect(again.code).toBe(1);
    expect(again.out).toContain('is not empty');

    restored = await startServer({ LIMS_DATA_DIR: dataDir });
    const there = api(restored.url, await tokenFor(restored.url, 'admin', DEMO_PASSWORD));
    const list = await there.get<{ records: { code: string }[] }>('/api/resources/specimenType?code=BK&size=100');
    expect(list.body.resultObject.records.map((r) => r.code).sort()).toEqual(before);
    const chain = await there.get<{ broken?: unknown; entries: number }>('/api/log/verifyChain');
    expect(chain.body.resultObject.broken).toBeUndefined();
    expect(chain.body.resultObject.entries).toBeGreaterThan(5);
    await restored.stop();

    const verify = await script('auditVerify', [], { LIMS_DATA_DIR: dataDir });
    expect(verify.out).toContain('audit chain intact');
    expect(verify.code).toBe(0);
  }, 180_000);
});
