/**
 * Screen files carry schemaVersion; each migration turns a file of one version into the next, as a
 * pure function, so files written for an older release keep working without anyone editing them.
 */
export const CURRENT_SCREEN_VERSION = 2;

type Json = Record<string, unknown>;

/**
 * Version 1 marked columns with `list: true|false` and filters with `filterable: true` on each field;
 * version 2 says `column` and `filter`, and lists filters on the screen.
 */
function v1ToV2(screen: Json): Json {
  const fields = (screen.fields as Json[] | undefined) ?? [];
  const filters: string[] = [];
  const migrated = fields.map(({ list, filterable, ...field }) => {
    if (filterable) filters.push(String(field.key));
    const out: Json = { ...field };
    if (list === false) out.column = false;
    if (filterable) out.filter = field.type === 'text' || field.type === 'textarea' ? 'contains' : 'equals';
    return out;
  });
  const next: Json = { ...screen, schemaVersion: 2, fields: migrated };
  if (filters.length > 0 && !screen.filters) next.filters = filters;
  return next;
}

const steps: Record<number, (screen: Json) => Json> = { 1: v1ToV2 };

export function migrateScreen(raw: Json): Json {
  let screen = raw;
  let version = typeof screen.schemaVersion === 'number' ? screen.schemaVersion : 1;
  while (version < CURRENT_SCREEN_VERSION) {
    const step = steps[version];
    if (!step) throw new Error(`no migration from schemaVersion ${version}`);
    screen = step(screen);
    version = screen.schemaVersion as number;
  }
  return screen;
}
