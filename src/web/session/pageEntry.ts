import { errorMessage } from '../api/http';
import { forgetEarlyReads } from '../api/earlyReads';
import { clearToken } from '../auth/session';
import { loadLabType, loadUserInfo, resetUser, userState } from '../auth/user';
import { applyRoutes, fetchMenu, resetRoutes, routeState } from '../permissions/routes';
import { leafPaths } from '../../shared/menu/filter';
import { dictionaryState, loadDictionaries, resetDictionaries } from '../dictionaries/dictionaries';

/** Spec 8's page-entry refusals, verbatim. */
export const ENTRY_ERRORS = {
  dictionary: 'failed to get data dictionary',
  userInfo: 'failed to get user info',
  noRole: 'This account has no role assigned, please assign one before logging in',
  noPages: 'This role type has no pages assigned',
  noLab: 'This account has no laboratory assigned',
} as const;

export class EntryError extends Error {}

/** Forget everything about the signed-in user: token, roles, routes, dictionaries. */
export function resetSession() {
  clearToken();
  resetUser();
  resetRoutes();
  resetDictionaries();
  forgetEarlyReads();
}

type Settled<T> = { ok: true; value: T } | { ok: false; error: unknown };
const settle = <T>(p: Promise<T>): Promise<Settled<T>> =>
  p.then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );

/**
 * Spec 4 page entry: dictionaries if none, user info if no roles, routes from roles, then lab type.
 * The calls go out together (entry is quicker) but are judged in the spec's order. Any refusal resets
 * the session and throws the message the user must see before /login.
 */
export function enterPages(): Promise<void> {
  // One entry at a time: the gate can mount twice while the lazy shell loads (and twice again under
  // StrictMode); a second caller waits for the run already going rather than repeating its calls.
  running ??= runEntry().finally(() => {
    running = undefined;
  });
  return running;
}

let running: Promise<void> | undefined;

async function runEntry(): Promise<void> {
  const needUser = userState.roles.length === 0 || !routeState.built;
  const dictionaries = settle(dictionaryState.loaded ? Promise.resolve() : loadDictionaries());
  const info = needUser ? settle(loadUserInfo()) : undefined;
  const menu = needUser ? settle(fetchMenu()) : undefined;
  const labType = needUser ? settle(loadLabType()) : undefined;

  const dict = await dictionaries;
  if (!dict.ok) fail(errorMessage(dict.error, ENTRY_ERRORS.dictionary));
  if (!info || !menu || !labType) return;
  const user = await info;
  if (!user.ok) fail(errorMessage(user.error, ENTRY_ERRORS.userInfo));
  if (user.value.roleList.length === 0) fail(ENTRY_ERRORS.noRole);
  const tree = await menu;
  if (!tree.ok) fail(errorMessage(tree.error, ENTRY_ERRORS.userInfo));
  const routes = applyRoutes(tree.value, user.value);
  if (leafPaths(routes).filter((p) => p !== '/dashboard').length === 0) fail(ENTRY_ERRORS.noPages);
  const lab = await labType;
  if (!lab.ok) fail(errorMessage(lab.error, ENTRY_ERRORS.userInfo));
  if (userState.isMainLab !== 0 && userState.isMainLab !== 1) fail(ENTRY_ERRORS.noLab);
}

function fail(message: string): never {
  resetSession();
  throw new EntryError(message);
}
