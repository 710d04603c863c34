import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPglite } from '../../src/server/kernel/db/pglite';
import type { Database } from '../../src/server/kernel/db/database';

/**
 * The embedded database hands back values as node-postgres does (the code above it is one for both):
 * bigint and numeric as text, bytea as a Buffer of exactly the bytes stored, a signed report's PDF too.
 */
let dataDir: string;
let db: Database;
beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'pglite-values-'));
  db = await openPglite(dataDir);
  await db.exec('create table file (id serial primary key, content bytea not null)');
  // A new PGlite database is made (initdb) first: seconds, more beside other work.
}, 60_000);
afterAll(async () => {
  await db.close();
  rmSync(dataDir, { recursive: true, force: true });
});

// Every byte value, and a run long enough to be kept out of line (TOAST), as a report is.
const pdfLike = Buffer.concat([Buffer.from('%PDF-1.3\n'), Buffer.from(Array.from({ length: 256 }, (_, i) => i))]);
const large = Buffer.alloc(300_000, 0xa7);

describe('values from the embedded database', () => {
  it('stores bytes and gives back a Buffer of the same bytes, in and out of a transaction', async () => {
    const [{ id }] = (await db.query<{ id: number }>('insert into file (content) values ($1) returning id', [
      pdfLike,
    ])) as [{ id: number }];
    const [row] = await db.query<{ content: Buffer }>('select content from file where id = $1', [id]);
    expect(Buffer.isBuffer(row!.content)).toBe(true);
    expect(row!.content.equals(pdfLike)).toBe(true);

    const inTx = await db.transaction(async (tx) => {
      const [made] = await tx.query<{ content: Buffer }>('insert into file (content) values ($1) returning content', [
        large.subarray(1000, 201_000),
      ]);
      return made!.content;
    });
    expect(Buffer.isBuffer(inTx)).toBe(true);
    expect(inTx.equals(large.subarray(1000, 201_000))).toBe(true);
  });

  it('refuses what is not bytes for a bytea, and writes nothing', async () => {
    const before = await db.query<{ n: string }>('select count(*) as n from file');
    await expect(db.query('insert into file (content) values ($1)', ['not bytes'])).rejects.toThrow(/bytea/);
    expect(await db.query('select count(*) as n from file')).toEqual(before);
  });

  it('gives bigint and numeric as text, never a rounded number', async () => {
    const [row] = await db.query<{ big: unknown; exact: unknown }>(
      'select 9007199254740993::int8 as big, 0.1::numeric + 0.2::numeric as exact',
    );
    expect(row).toEqual({ big: '9007199254740993', exact: '0.3' });
  });
});
