import { CAPABILITIES } from './capabilities.js';
import type { ServerConfig } from './kernel/config.js';
import { openDatabase, type Database } from './kernel/db/database.js';
import { migrate } from './kernel/db/migrate.js';
import { ensureIndexes, ensurePartitions, existingIndexes } from './kernel/resources/repository.js';
import { ScreenRegistry } from './kernel/screens/registry.js';
import { seedAlways, seedDemo } from './kernel/seed.js';
import { readMenuFile } from './menus/seed.js';

export interface Prepared {
  db: Database;
  screens: ScreenRegistry;
}

/**
 * Everything before the server listens: the database brought up to date, the product's own data
 * (menus, system dictionaries), the demo data when asked, and the screen schemas with their indexes.
 */
export async function prepare(config: ServerConfig, log: (message: string) => void = console.warn): Promise<Prepared> {
  const db = await openDatabase(config);
  await migrate(db);
  const menus = await readMenuFile(config.schemaDir);
  const screens = new ScreenRegistry(config.schemaDir);
  screens.on('problem', (p: { file: string; path: string; message: string }) =>
    log(`screen schema ${p.file} at ${p.path}: ${p.message}`),
  );
  screens.reload();
  // Each screen's rows in a partition of their own (a view's are its owner's), made before any is written.
  const partitionAll = () =>
    ensurePartitions(
      db,
      screens.list().map((screen) => (screens.storageOf(screen) ?? screen).resource.name),
    );
  await partitionAll();
  const setup = { screens: screens.list(), schemaDir: config.schemaDir, menus, demoPassword: config.demoPassword };
  await seedAlways(db, CAPABILITIES, setup);
  // Demo rows go through the screens' own validation, so the screens are read first.
  if (config.seedDemo) await seedDemo(db, CAPABILITIES, setup);
  // One at a time: PostgreSQL refuses two "create index if not exists" of one name running together.
  const indexAll = async () => {
    const existing = await existingIndexes(db);
    // A view's filters and sort run on its owner's rows: its indexes are on them too.
    for (const screen of screens.list()) {
      const owner = screens.storageOf(screen);
      const stored = owner && owner !== screen ? { ...screen, resource: owner.resource } : screen;
      await ensureIndexes(db, stored, existing).catch((e: unknown) => log(String(e)));
    }
  };
  screens.on('change', () => {
    const partitioned = partitionAll();
    screens.holdRecordsUntil(partitioned);
    void partitioned.then(indexAll, (e: unknown) => log(String(e)));
  });
  await indexAll();
  return { db, screens };
}
