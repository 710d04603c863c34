import type { ScreenSchema } from '../generated/screen.js';

export type ScreenAction = 'read' | 'create' | 'update' | 'delete' | 'export' | 'import';

/** Without a word in the schema, admins and editors read and export; admins write. */
const DEFAULTS: Record<ScreenAction, readonly string[]> = {
  read: ['admin', 'editor'],
  export: ['admin', 'editor'],
  create: ['admin'],
  update: ['admin'],
  delete: ['admin'],
  import: ['admin'],
};

/** The screen-level half of `can`: which roles the schema lets do an action. Server and app ask the same. */
export function screenAllows(screen: ScreenSchema, action: ScreenAction, roles: readonly string[]): boolean {
  const allowed = screen.permissions?.[action] ?? DEFAULTS[action];
  return roles.some((r) => allowed.includes(r as 'admin' | 'editor'));
}

export type LabType = 'base' | 'main' | 'sub' | 'only';

/**
 * Whether users of an organisation of this lab type may write the screen's records (create, update,
 * delete, import): the schema's permissions.writeLabTypes, or every lab type when it names none
 * (e.g. system dictionaries are kept by the base organisation, read by every lab).
 */
export function labTypeWrites(screen: ScreenSchema, labType: LabType): boolean {
  const allowed = screen.permissions?.writeLabTypes;
  return !allowed || allowed.includes(labType);
}
