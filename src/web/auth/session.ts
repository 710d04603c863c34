import Cookies from 'js-cookie';
import { proxy } from 'valtio';

/**
 * Spec 4: the token is kept in a cookie keyed by the signed-in user's id; a second cookie says which
 * user is signed in on this browser.
 */
const CURRENT_USER = 'lims-uid';
const tokenCookie = (userId: string) => `lims-token-${userId}`;

function storedUserId(): string | undefined {
  return Cookies.get(CURRENT_USER);
}

export const session = proxy<{ token: string | undefined; userId: string | undefined }>({
  userId: storedUserId(),
  token: (() => {
    const id = storedUserId();
    return id ? Cookies.get(tokenCookie(id)) : undefined;
  })(),
});

export function saveToken(userId: number | string, token: string) {
  const id = String(userId);
  Cookies.set(CURRENT_USER, id, { sameSite: 'strict' });
  Cookies.set(tokenCookie(id), token, { sameSite: 'strict' });
  session.userId = id;
  session.token = token;
}

/**
 * Removes the stored token without telling the running app: for a full page load that follows at
 * once. (Telling it would let the route guard start a client-side redirect that races the load.)
 */
export function forgetStoredToken() {
  const id = storedUserId();
  if (id) Cookies.remove(tokenCookie(id));
  Cookies.remove(CURRENT_USER);
}

export function clearToken() {
  forgetStoredToken();
  if (session.userId) Cookies.remove(tokenCookie(session.userId));
  session.userId = undefined;
  session.token = undefined;
}
