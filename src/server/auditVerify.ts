import { readConfig } from './kernel/config.js';
import { openDatabase } from './kernel/db/database.js';
import { verifyChain, type BrokenLink } from './kernel/audit/chain.js';

/**
 * `npm run audit:verify`: checks the operation log's hash chain of every organisation in the database
 * the server is configured for (LIMS_DATA_DIR or DATABASE_URL), and reports the first broken link.
 * Exit status 0 when every link holds, 1 when one is broken, 2 when the check could not run. The
 * embedded database serves one process at a time: stop the server first (on PostgreSQL it may run).
 */
const WHY: Record<BrokenLink['reason'], string> = {
  hash: 'its content no longer matches its hash (edited)',
  previous: 'it does not name the hash of the entry before it (an entry before it was edited or replaced)',
  gap: 'entries before it are missing (removed)',
  start: 'the log starts neither at its first entry nor at a deleteAll checkpoint (its beginning was removed)',
};

async function main() {
  const config = readConfig();
  const db = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    const report = await verifyChain(db);
    if (!report.broken) {
      console.log(`audit chain intact: ${report.entries} entries in ${report.organisations} organisation(s)`);
      return 0;
    }
    const { orgId, seq, id, reason } = report.broken;
    console.log(`audit chain BROKEN: organisation ${orgId}, entry ${seq} of its log (id ${id}): ${WHY[reason]}`);
    return 1;
  } finally {
    await db.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`audit chain not checked: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(2);
  },
);
