/**
 * Screen files carry schemaVersion; each migration turns a file of one version into the next, as a
 * pure function, so files written for an older release keep working without anyone editing them.
 */
export const CURRENT_SCREEN_VERSION = 3;

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

/**
 * Version 3 gives a field's description in each language, like its label. A version 2 file has one
 * text; it is shown in both languages (the configurator translates it with `npm run migrate-screens`).
 */
export function localizeDescriptions(screen: Json, translate: Translate = () => undefined): Json {
  const field = (f: Json): Json => {
    const out: Json = { ...f };
    if (typeof f.description === 'string')
      out.description = { 'zh-CN': translate(f.description) ?? f.description, 'en-US': f.description };
    if (Array.isArray(f.itemFields)) out.itemFields = (f.itemFields as Json[]).map(field);
    return out;
  };
  const next: Json = { ...screen, schemaVersion: 3 };
  if (Array.isArray(screen.fields)) next.fields = (screen.fields as Json[]).map(field);
  const actions = screen.actions as Record<string, Json[] | undefined> | undefined;
  if (actions)
    next.actions = Object.fromEntries(
      Object.entries(actions).map(([place, list]) => [
        place,
        list?.map((a) => (Array.isArray(a.fields) ? { ...a, fields: (a.fields as Json[]).map(field) } : a)),
      ]),
    );
  return next;
}

/** A translation of an English description into Chinese, when the caller has one (the migration script's table). */
export type Translate = (text: string) => string | undefined;

const steps: Record<number, (screen: Json, translate?: Translate) => Json> = {
  1: v1ToV2,
  2: (screen, translate) => localizeDescriptions(screen, translate),
};

export function migrateScreen(raw: Json, translate?: Translate): Json {
  let screen = raw;
  let version = typeof screen.schemaVersion === 'number' ? screen.schemaVersion : 1;
  while (version < CURRENT_SCREEN_VERSION) {
    const step = steps[version];
    if (!step) throw new Error(`no migration from schemaVersion ${version}`);
    screen = step(screen, translate);
    version = screen.schemaVersion as number;
  }
  return screen;
}
