import { proxy, subscribe, useSnapshot } from 'valtio';
import { userState } from '../auth/user';

/**
 * The columns each user hid on each list (issue 25: a column picker per screen, remembered per
 * user), kept in this browser's localStorage beside the other preferences. Key columns are never
 * hidden: the picker does not offer them, and a stored key is ignored should a schema mark it later.
 */
const KEY = 'lims-columns';

/** Hidden column keys by `${userId}:${listId}`. */
type Stored = Record<string, string[]>;

function load(): Stored {
  try {
    const stored = JSON.parse(localStorage.getItem(KEY) ?? '{}') as unknown;
    return stored && typeof stored === 'object' && !Array.isArray(stored) ? (stored as Stored) : {};
  } catch {
    return {};
  }
}

export const columnPreferences = proxy<{ hidden: Stored }>({ hidden: load() });
subscribe(columnPreferences, () => localStorage.setItem(KEY, JSON.stringify(columnPreferences.hidden)));

const NONE: readonly string[] = [];
const slot = (userId: number | undefined, listId: string) => `${userId ?? 0}:${listId}`;

export function setHiddenColumns(userId: number | undefined, listId: string, keys: readonly string[]): void {
  const id = slot(userId, listId);
  if (keys.length === 0) delete columnPreferences.hidden[id];
  else columnPreferences.hidden[id] = [...keys];
}

/** The signed-in user's hidden columns of a list (a screen's id, or a hand-written list's name), and their setter. */
export function useHiddenColumns(listId: string): [readonly string[], (keys: readonly string[]) => void] {
  const { info } = useSnapshot(userState);
  const { hidden } = useSnapshot(columnPreferences);
  const userId = info?.user.id;
  return [hidden[slot(userId, listId)] ?? NONE, (keys) => setHiddenColumns(userId, listId, keys)];
}
