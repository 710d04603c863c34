/**
 * The one database contract the server codes against. Two drivers implement it: PGlite (embedded,
 * on disk, the default) and node-postgres (a PostgreSQL server through DATABASE_URL). Both speak the
 * same SQL, so every query is written once, in PostgreSQL's dialect, with $1-style parameters.
 */
export interface Queryable {
  query<Row = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<Row[]>;
  /** Several statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
}

export interface Database extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /** Runs fn in one transaction: committed when fn resolves, rolled back when it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
  /**
   * The embedded database's whole data directory as a gzipped tar, taken between two statements while
   * the server runs (a backup: `npm run backup`); PostgreSQL has pg_dump instead.
   */
  dump?(): Promise<Uint8Array>;
  /**
   * Hears NOTIFY on a channel, from this process and (on PostgreSQL) every other one sharing the
   * database. onGap is called when notices may have been missed (a lost connection, and once more when
   * it is back); `listening` says whether notices are being heard now.
   */
  listen(channel: string, onNotice: (payload: string) => void, onGap?: () => void): Promise<Listening>;
}

export interface Listening {
  readonly listening: boolean;
  close(): Promise<void>;
}

export async function openDatabase(options: { databaseUrl?: string; dataDir: string }): Promise<Database> {
  if (options.databaseUrl) {
    const { openPostgres } = await import('./postgres.js');
    return openPostgres(options.databaseUrl);
  }
  const { openPglite } = await import('./pglite.js');
  return openPglite(options.dataDir);
}

export async function one<Row>(db: Queryable, sql: string, params?: unknown[]): Promise<Row | undefined> {
  const rows = await db.query<Row>(sql, params);
  return rows[0];
}
