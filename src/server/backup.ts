import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { readConfig } from './kernel/config.js';
import { openPglite } from './kernel/db/pglite.js';

/**
 * `npm run backup [file]`: a copy of the embedded database (PGlite) as a gzipped tar, restored with
 * `npm run restore`. While the server runs it is asked for the copy (LIMS_BACKUP_URL, default the
 * configured host and port; key LIMS_BACKUP_KEY), taken between two statements so it is consistent;
 * when no server answers, the data directory (LIMS_DATA_DIR) is read directly. PostgreSQL: pg_dump
 * (README). Exit status 0 with the file written, 1 when no backup could be taken.
 */
const config = readConfig();

function defaultFile(): string {
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  return path.resolve('backups', `lims-${stamp}.tar.gz`);
}

/** The copy the running server gives, or undefined when none answers at the address. */
async function fromServer(): Promise<Uint8Array | undefined> {
  const base = process.env.LIMS_BACKUP_URL || `http://${config.host}:${config.port}`;
  let res: Response;
  try {
    res = await fetch(`${base}/api/system/backup`, { headers: { 'x-backup-key': config.backupKey ?? '' } });
  } catch {
    return undefined;
  }
  if (!res.ok) {
    const body = (await res.json().catch(() => ({}))) as { resultMessage?: string };
    throw new Error(`the server at ${base} refused the backup (${res.status}): ${body.resultMessage ?? ''}`);
  }
  return new Uint8Array(await res.arrayBuffer());
}

async function main() {
  if (config.databaseUrl) throw new Error('DATABASE_URL is set: back up PostgreSQL with pg_dump (README)');
  const file = path.resolve(process.argv[2] || defaultFile());
  let tar = await fromServer();
  let source = 'the running server';
  if (!tar) {
    // No server: nobody else has the directory open, so it may be opened here.
    const db = await openPglite(config.dataDir);
    try {
      tar = await db.dump!();
    } finally {
      await db.close();
    }
    source = config.dataDir;
  }
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, tar);
  console.log(`backup written: ${file} (${tar.byteLength} bytes, from ${source})`);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(`no backup taken: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
