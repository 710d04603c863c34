import { perScreenPreference } from './perScreen';

/**
 * The columns each user hid on each list (issue 25: a column picker per screen, remembered per
 * user), kept in this browser's localStorage beside the other preferences. Key columns are never
 * hidden: the picker does not offer them, and a stored key is ignored should a schema mark it later.
 */
const hiddenColumns = perScreenPreference<readonly string[]>('lims-columns');
export const columnPreferences = hiddenColumns.state;

const NONE: readonly string[] = [];

export function setHiddenColumns(userId: number | undefined, listId: string, keys: readonly string[]): void {
  hiddenColumns.set(userId, listId, keys.length === 0 ? undefined : [...keys]);
}

/** The signed-in user's hidden columns of a list (a screen's id, or a hand-written list's name), and their setter. */
export function useHiddenColumns(listId: string): [readonly string[], (keys: readonly string[]) => void] {
  const [hidden, set] = hiddenColumns.usePreference(listId, NONE);
  return [hidden, (keys) => set(keys.length === 0 ? undefined : [...keys])];
}
