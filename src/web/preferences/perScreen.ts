import { proxy, subscribe, useSnapshot } from 'valtio';
import { userState } from '../auth/user';

/** A user's choices on a screen, by `${userId}:${screenId}`. */
type Stored<T> = Record<string, T>;

function load<T>(storageKey: string): Stored<T> {
  try {
    const stored = JSON.parse(localStorage.getItem(storageKey) ?? '{}') as unknown;
    return stored && typeof stored === 'object' && !Array.isArray(stored) ? (stored as Stored<T>) : {};
  } catch {
    return {};
  }
}

const slot = (userId: number | undefined, screenId: string) => `${userId ?? 0}:${screenId}`;

/**
 * A preference each user keeps per screen (a list's hidden columns, a desk's scan-to-act switch), in
 * this browser's localStorage: what one person set on one screen is theirs on that screen alone.
 */
export function perScreenPreference<T>(storageKey: string) {
  const state = proxy<{ chosen: Stored<T> }>({ chosen: load<T>(storageKey) });
  subscribe(state, () => localStorage.setItem(storageKey, JSON.stringify(state.chosen)));

  /** Sets a user's choice on a screen; `undefined` forgets it (the screen's default again). */
  const set = (userId: number | undefined, screenId: string, value: T | undefined) => {
    const id = slot(userId, screenId);
    if (value === undefined) delete state.chosen[id];
    else state.chosen[id] = value;
  };

  /** The signed-in user's choice on a screen (else the fallback), and its setter. */
  const usePreference = <F extends T>(screenId: string, fallback: F): [T, (value: T | undefined) => void] => {
    const { info } = useSnapshot(userState);
    const { chosen } = useSnapshot(state);
    const userId = info?.user.id;
    return [(chosen[slot(userId, screenId)] as T | undefined) ?? fallback, (value) => set(userId, screenId, value)];
  };

  return { state, set, usePreference };
}
