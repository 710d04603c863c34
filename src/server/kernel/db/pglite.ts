import { mkdir } from 'node:fs/promises';
import { PGlite, types } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { committing } from './afterCommit.js';
import type { Database, Queryable } from './database.js';

// Same value types as node-postgres: bigint and numeric come back as text, never as JS BigInt, and
// bytea as a Buffer, so rows look alike on both drivers.
const parsers = {
  [types.INT8]: (v: string) => v,
  [types.NUMERIC]: (v: string) => v,
  // PGlite's own bytea parser and serializer go byte by byte in script: reading or storing a 110 KB
  // report took ~200 ms of the server's one thread. Node's hex codec does it in well under a millisecond.
  [types.BYTEA]: (v: string) => Buffer.from(v.slice(2), 'hex'),
};
const serializers = {
  [types.BYTEA]: (v: unknown) => {
    if (!(v instanceof Uint8Array)) throw new TypeError('Invalid input for bytea type');
    return `\\x${Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('hex')}`;
  },
};

function wrap(q: Pick<PGlite, 'query' | 'exec'>): Queryable {
  return {
    async query<Row>(sql: string, params?: unknown[]) {
      const result = await q.query<Row>(sql, params);
      return result.rows;
    },
    async exec(sql: string) {
      await q.exec(sql);
    },
  };
}

/** `restore`: a backup (dump()) to load into a new, empty data directory. */
export async function openPglite(dataDir: string, restore?: Uint8Array): Promise<Database> {
  await mkdir(dataDir, { recursive: true });
  // pg_trgm: trigram indexes answer the lists' "contains" filters (resources/repository.ts).
  const pg = await PGlite.create(dataDir, {
    extensions: { pg_trgm },
    parsers,
    serializers,
    ...(restore && { loadDataDir: new Blob([new Uint8Array(restore)]) }),
  });
  return {
    kind: 'pglite',
    ...wrap(pg),
    transaction: (fn) => committing(() => pg.transaction((tx) => fn(wrap(tx)))),
    close: () => pg.close(),
    async dump() {
      // A checkpoint first, so that a restore replays little write-ahead log; the dump itself runs
      // with no statement in between (PGlite's own lock): what it copies is what a crash would leave.
      await pg.exec('checkpoint');
      return new Uint8Array(await (await pg.dumpDataDir('gzip')).arrayBuffer());
    },
    // One process holds the PGlite directory: its own notices are all there are, and none is missed.
    async listen(channel, onNotice) {
      const stop = await pg.listen(channel, onNotice);
      return { listening: true, close: () => stop() };
    },
  };
}
