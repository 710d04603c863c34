/**
 * `npm run migrate-screens [-- --translations table.json]`: rewrites every screen file under
 * schemas/screens to the current schemaVersion, as the loader would migrate it in memory, so the files
 * a configurator reads are the ones the app runs. For version 3 (descriptions in each language) a table
 * of English description → Chinese text fills the Chinese side; a description the table lacks keeps its
 * one text in both languages, and is listed, so nothing is silently left untranslated.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { CURRENT_SCREEN_VERSION, migrateScreen } from '../src/shared/screens/migrate';

const root = path.resolve(import.meta.dirname, '..');
const dir = path.join(root, 'schemas/screens');

async function main() {
  const at = process.argv.indexOf('--translations');
  const table: Record<string, string> =
    at > 0 ? (JSON.parse(await readFile(path.resolve(process.argv[at + 1]!), 'utf8')) as Record<string, string>) : {};
  const missing = new Set<string>();
  const translate = (text: string) => {
    const zh = table[text];
    if (!zh) missing.add(text);
    return zh;
  };
  let changed = 0;
  for (const file of (await readdir(dir)).filter((f) => f.endsWith('.json')).sort()) {
    const full = path.join(dir, file);
    const raw = JSON.parse(await readFile(full, 'utf8')) as Record<string, unknown>;
    if (raw.schemaVersion === CURRENT_SCREEN_VERSION) continue;
    await writeFile(full, `${JSON.stringify(migrateScreen(raw, translate), null, 2)}\n`);
    changed++;
  }
  console.log(`migrate-screens: ${changed} file(s) now at schemaVersion ${CURRENT_SCREEN_VERSION}`);
  if (missing.size > 0) {
    console.warn(`${missing.size} description(s) kept in English in both languages:`);
    for (const text of missing) console.warn(`  ${text}`);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
