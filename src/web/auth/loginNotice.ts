/**
 * A one-time notice for the login page (e.g. 密码修改成功 after a password change). The shell, and
 * antd's message holder with it, unmounts on the way to /login, and the route guard may be the one
 * that gets there; so the notice waits in sessionStorage rather than in router state.
 */
const KEY = 'lims-login-notice';

export function leaveLoginNotice(text: string): void {
  sessionStorage.setItem(KEY, text);
}

export function peekLoginNotice(): string | undefined {
  return sessionStorage.getItem(KEY) ?? undefined;
}

export function clearLoginNotice(): void {
  sessionStorage.removeItem(KEY);
}
