import { useSnapshot } from 'valtio';
import type { ActionDef, ScreenSchema } from '../../shared/screens/fields';
import { labTypeWrites, type LabType } from '../../shared/screens/access';
import { userState } from '../auth/user';

/** The signed-in user's lab type (spec 1): the base organisation (org 0), a main lab, an only-lab, else a sub lab. */
export function useLabType(): LabType | undefined {
  const { info, isOnlyLab, isMainLab } = useSnapshot(userState);
  if (!info) return undefined;
  if (info.organization.id === 0) return 'base';
  if (isOnlyLab === 1) return 'only';
  return isMainLab === 1 ? 'main' : 'sub';
}

/** Actions that only read: the rest write, and go when the page is read-only. */
const READING: readonly ActionDef['kind'][] = ['view', 'export'];

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
