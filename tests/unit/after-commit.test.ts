// @vitest-environment node
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { afterCommit } from '../../src/server/kernel/db/afterCommit';
import { openPglite } from '../../src/server/kernel/db/pglite';
import type { Database, Queryable } from '../../src/server/kernel/db/database';
import { watchWrites } from '../../src/server/kernel/audit/unloggedWrites';

/**
 * Work a write asks for once committed (a specimen's process started, dashboards told, a report's PDF
 * drawn) waits for the commit of the transaction the write is in, however deep the write sits and
 * whichever wrapper of the database handed out the transaction.
 */
let dataDir: string;
let db: Database;
beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'after-commit-'));
  db = await openPglite(dataDir);
  await db.exec('create table step (id serial primary key, name text not null)');
}, 60_000);
afterAll(async () => {
  await db.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** A write deep inside another capability's step, asking to count the steps once committed. */
async function nestedWrite(tx: Queryable, name: string, seen: string[]) {
  await tx.query('insert into step (name) values ($1)', [name]);
  afterCommit(async () => {
    // Outside the transaction: on the embedded database this waits for it to end, so it sees only committed rows.
    const [row] = await db.query<{ n: number }>('select count(*)::int as n from step where name = $1', [name]);
    seen.push(`${name}: ${row!.n}`);
  });
}

describe('jobs after the commit', () => {
  it('run once the transaction is committed, in the order asked, before the transaction answers', async () => {
    const seen: string[] = [];
    const value = await db.transaction(async (tx) => {
      await nestedWrite(tx, 'a', seen);
      await nestedWrite(tx, 'b', seen);
      expect(seen).toEqual([]);
      return 'done';
    });
    expect(value).toBe('done');
    expect(seen).toEqual(['a: 1', 'b: 1']);
  });

  it('are dropped with a transaction that fails', async () => {
    const seen: string[] = [];
    await expect(
      db.transaction(async (tx) => {
        await nestedWrite(tx, 'c', seen);
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(seen).toEqual([]);
    expect(await db.query('select * from step where name = $1', ['c'])).toEqual([]);
  });

  it('reach the transaction through a wrapper of the database, and a failing job leaves the commit standing', async () => {
    const seen: string[] = [];
    await watchWrites(db).transaction(async (tx) => {
      afterCommit(() => Promise.reject(new Error('a job of its own')));
      await nestedWrite(tx, 'd', seen);
    });
    expect(seen).toEqual(['d: 1']);
  });
});
