import { useSnapshot } from 'valtio';
import type { ActionDef, ScreenSchema } from '../../shared/screens/fields';
import { labTypeWrites, screenAllows, type LabType, type ScreenAction } from '../../shared/screens/access';
import { userState } from '../auth/user';
import { commandHandler } from './commands';

/** The signed-in user's lab type (spec 1): the base organisation (org 0), a main lab, an only-lab, else a sub lab. */
export function useLabType(): LabType | undefined {
  const { info, isOnlyLab, isMainLab } = useSnapshot(userState);
  if (!info) return undefined;
  if (info.organization.id === 0) return 'base';
  if (isOnlyLab === 1) return 'only';
  return isMainLab === 1 ? 'main' : 'sub';
}

/** Actions that only read: the rest write, and go when the page is read-only. */
const READING: readonly ActionDef['kind'][] = ['view', 'export', 'history'];

/**
 * Whether the page may write at all: the lab types the schema lets write (permissions.writeLabTypes),
 * and, on a public-platform route (meta.isBasic, spec 6: the base organisation's data), only the base
 * organisation writes; a laboratory reads it there.
 */
export function useWritable(screen: ScreenSchema, basic: boolean): (action: ActionDef) => boolean {
  const labType = useLabType();
  const writes = labType !== undefined && labTypeWrites(screen, labType) && (!basic || labType === 'base');
  return (action) => writes || READING.includes(action.kind);
}

/** The permission each kind of action needs, unless the action names its own. */
const ACTION_PERMISSION: Record<ActionDef['kind'], ScreenAction> = {
  create: 'create',
  edit: 'update',
  view: 'read',
  delete: 'delete',
  export: 'export',
  import: 'import',
  command: 'update',
  // The server serves a transition as the command that calls it; kept for the type's sake.
  transition: 'update',
  history: 'read',
};

/**
 * The screen's actions this user may take, by place (toolbar, row, batch): the page may write, the
 * user's roles hold the action's permission and any roles it names, and a command has a handler. The
 * list lets rows be selected when the schema says so, else when a batch action needs it.
 */
export function useScreenActions(screen: ScreenSchema, basic: boolean) {
  const writable = useWritable(screen, basic);
  const { roles } = useSnapshot(userState);
  const allowed = (action: ActionDef) =>
    writable(action) &&
    screenAllows(screen, action.permission ?? ACTION_PERMISSION[action.kind], roles) &&
    (!action.roles || action.roles.some((r) => roles.includes(r))) &&
    (action.kind !== 'command' || commandHandler(action) !== undefined);
  const actions = screen.actions ?? {};
  const batch = (actions.batch ?? []).filter(allowed);
  return {
    toolbar: (actions.toolbar ?? []).filter(allowed),
    row: (actions.row ?? []).filter(allowed),
    batch,
    selection: screen.list?.selection ?? (batch.length > 0 ? ('multiple' as const) : ('none' as const)),
  };
}
