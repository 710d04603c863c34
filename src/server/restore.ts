import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { readConfig } from './kernel/config.js';
import { openPglite } from './kernel/db/pglite.js';
import { verifyChain } from './kernel/audit/chain.js';

/**
 * `npm run restore <backup.tar.gz> [data directory]`: loads a backup of `npm run backup` into a new,
 * empty data directory (default LIMS_DATA_DIR), then checks the operation log's chain in it. A
 * directory that already holds data is refused: move it aside first, so no restore overwrites a lab's
 * database by mistake. PostgreSQL: pg_restore (README). Exit status 0 restored, 1 not.
 */
async function isEmpty(dir: string): Promise<boolean> {
  try {
    return (await readdir(dir)).length === 0;
  } catch {
    return true;
  }
}

async function main() {
  const config = readConfig();
  if (config.databaseUrl) throw new Error('DATABASE_URL is set: restore PostgreSQL with pg_restore (README)');
  const [file, target] = process.argv.slice(2);
  if (!file) throw new Error('name the backup file: npm run restore -- <backup.tar.gz> [data directory]');
  const dataDir = path.resolve(target || config.dataDir);
  if (!(await isEmpty(dataDir))) throw new Error(`${dataDir} is not empty: move it aside, then restore into it`);
  const db = await openPglite(dataDir, await readFile(file));
  try {
    const chain = await verifyChain(db);
    const state = chain.broken ? `BROKEN at entry ${chain.broken.seq} of organisation ${chain.broken.orgId}` : 'intact';
    console.log(`restored ${file} into ${dataDir}; audit chain ${state} (${chain.entries} entries)`);
    return chain.broken ? 1 : 0;
  } finally {
    await db.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`not restored: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
