import type { ServerConfig } from './config.js';
import { openDatabase, type Database } from './kernel/db/database.js';
import { migrate } from './kernel/db/migrate.js';
import { seedSystemDictionaries } from './dictionaries/repository.js';
import { readMenuFile, seedMenus } from './menus/seed.js';
import { ensureIndexes } from './kernel/resources/repository.js';
import { ScreenRegistry } from './kernel/screens/registry.js';
import { seedDemo } from './seed/demo.js';

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
  const routes = await readMenuFile(config.schemaDir);
  await db.transaction(async (tx) => {
    await seedMenus(tx, routes);
    await seedSystemDictionaries(tx);
  });

  const screens = new ScreenRegistry(config.schemaDir);
  screens.on('problem', (p: { file: string; path: string; message: string }) =>
    log(`screen schema ${p.file} at ${p.path}: ${p.message}`),
  );
  screens.reload();
  // Demo rows go through the screens' own validation, so the screens are read first.
  if (config.seedDemo)
    await seedDemo(db, routes, config.demoPassword, { schemaDir: config.schemaDir, screens: screens.list() });
  // One at a time: PostgreSQL refuses two "create index if not exists" of one name running together.
  const indexAll = async () => {
    for (const screen of screens.list()) await ensureIndexes(db, screen).catch((e: unknown) => log(String(e)));
  };
  screens.on('change', () => void indexAll());
  await indexAll();
  return { db, screens };
}
