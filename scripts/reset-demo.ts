/**
 * `npm run reset-demo`: the demo data as on a first start, for a new walk through "A day in the lab"
 * (README). The embedded database's data directory (LIMS_DATA_DIR, default ./data) is removed and made
 * again: migrations, the product's own data and the demo (organisations, accounts, screens' rows, the
 * deployed demo processes). A server still running on the data is asked first and the reset refused,
 * since it would keep writing to the removed files. A PostgreSQL database (DATABASE_URL) is never
 * dropped by this script: its owner drops and creates it, and the next start seeds it.
 */
import { existsSync, rmSync } from 'node:fs';
import { readConfig } from '../src/server/kernel/config';
import { prepare } from '../src/server/startup';

async function serverRunning(port: number): Promise<boolean> {
  try {
    const res = await fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(2000) });
    return res.ok;
  } catch {
    return false;
  }
}

async function main() {
  const config = readConfig(process.env);
  if (config.databaseUrl) {
    console.error('reset-demo: DATABASE_URL is set. Drop and create that database yourself; the next start seeds it.');
    process.exit(1);
  }
  if (await serverRunning(config.port)) {
    console.error(`reset-demo: a server answers on port ${config.port}. Stop it (Ctrl+C) and run this again.`);
    process.exit(1);
  }
  if (existsSync(config.dataDir)) rmSync(config.dataDir, { recursive: true, force: true });
  console.log(`reset-demo: seeding a fresh demo in ${config.dataDir} (about a minute)…`);
  const { db, screens } = await prepare(config, (message) => console.warn(message));
  screens.close();
  await db.close();
  console.log('reset-demo: done. npm start serves it; sign in as editor or admin with the demo password.');
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
