import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseUrlOf, startServer, DEMO_PASSWORD, type TestServer } from '../support/server';
import { api, tokenFor } from '../support/client';
import { openDatabase } from '../../src/server/kernel/db/database';
import { verifyChain, type ChainReport } from '../../src/server/kernel/audit/chain';

/**
 * Issue 20, tamper-evident audit: the operation log is a hash chain per organisation, kept by the
 * database on every append (parallel ones included); deleteAll seals it with a checkpoint; an entry
 * edited or removed in the database is found by `npm run audit:verify` and the administrator's call.
 */
const root = path.resolve(import.meta.dirname, '../..');
let server: TestServer;
let admin: ReturnType<typeof api>;
beforeAll(async () => {
  server = await startServer();
  admin = api(server.url, await tokenFor(server.url, 'admin', DEMO_PASSWORD));
});
afterAll(() => server?.dispose());

const chainOf = async () => (await admin.get<ChainReport>('/api/log/verifyChain')).body.resultObject;

/** The command as an operator runs it, on the server's database. */
function auditVerify(): { status: number | null; out: string } {
  const url = databaseUrlOf(server);
  const result = spawnSync('npm', ['run', '-s', 'audit:verify'], {
    cwd: root,
    env: { ...process.env, ...(url ? { DATABASE_URL: url } : { DATABASE_URL: '', LIMS_DATA_DIR: server.dataDir }) },
    encoding: 'utf8',
  });
  return { status: result.status, out: result.stdout + result.stderr };
}

const specimenType = (n: number) => ({ code: `AC${n}`, name: `链${n}`, category: 'blood' });

describe('operation log chain', () => {
  it('holds through ordinary writes, parallel ones included', async () => {
    for (let n = 1; n <= 3; n++)
      expect((await admin.post('/api/resources/specimenType', specimenType(n))).status).toBe(200);
    // Sign-ins are logged in the account's own organisation: the sub lab's log gets a few entries.
    for (let i = 0; i < 3; i++) await tokenFor(server.url, 'lab2admin', DEMO_PASSWORD);
    const parallel = await Promise.all(
      Array.from({ length: 12 }, (_, i) => admin.post('/api/resources/specimenType', specimenType(100 + i))),
    );
    expect(parallel.every((r) => r.status === 200)).toBe(true);
    const report = await chainOf();
    expect(report.broken).toBeUndefined();
    expect(report.entries).toBeGreaterThan(15);
  });

  it('stays whole when deleteAll empties the log: the checkpoint carries the last hash', async () => {
    const emptied = await admin.delete<{ deleted: number }>('/api/log/deleteAll');
    expect(emptied.status).toBe(200);
    expect(emptied.body.resultObject.deleted).toBeGreaterThan(15);
    const log = await admin.get<{ records: { action: string; after: { deleted: number; lastHash: string } }[] }>(
      '/api/log/getLogList?size=10',
    );
    expect(log.body.resultObject.records).toHaveLength(1);
    expect(log.body.resultObject.records[0]!.action).toBe('deleteAll');
    expect(log.body.resultObject.records[0]!.after.lastHash).toMatch(/^[0-9a-f]{64}$/);
    for (let n = 4; n <= 6; n++)
      expect((await admin.post('/api/resources/specimenType', specimenType(n))).status).toBe(200);
    expect((await chainOf()).broken).toBeUndefined();
  });

  it('is checked by npm run audit:verify, which finds an entry edited in the database', async () => {
    await server.stop();
    const intact = auditVerify();
    expect(intact.out).toMatch(/audit chain intact: \d+ entries/);
    expect(intact.status).toBe(0);

    const db = await openDatabase({ databaseUrl: databaseUrlOf(server), dataDir: server.dataDir });
    let target: { id: number; seq: string } | undefined;
    try {
      [target] = await db.query<{ id: number; seq: string }>(
        `select id, seq from operation_log where org_id = 1 and action = 'create' order by seq limit 1 offset 1`,
      );
      await db.query(`update operation_log set after = jsonb_set(after, '{name}', '"改过的"') where id = $1`, [
        target!.id,
      ]);
      // The sub lab's log loses an entry from its middle.
      const [middle] = await db.query<{ id: number; seq: string }>(
        `select id, seq from operation_log where org_id = 2 order by seq offset 1 limit 1`,
      );
      await db.query('delete from operation_log where id = $1', [middle!.id]);
      expect((await verifyChain(db, 2)).broken).toMatchObject({
        orgId: 2,
        seq: Number(middle!.seq) + 1,
        reason: 'gap',
      });
    } finally {
      // The embedded database serves one process at a time: closed before the command opens it.
      await db.close();
    }

    const edited = auditVerify();
    expect(edited.status).toBe(1);
    expect(edited.out).toContain(
      `audit chain BROKEN: organisation 1, entry ${target!.seq} of its log (id ${target!.id})`,
    );
    expect(edited.out).toContain('edited');

    server = await server.restart();
    admin = api(server.url, await tokenFor(server.url, 'admin', DEMO_PASSWORD));
    expect((await chainOf()).broken).toMatchObject({ orgId: 1, reason: 'hash' });
  }, 180_000);
});
