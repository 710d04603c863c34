import { AxiosError } from 'axios';
import { http } from '../api/http';
import { translate, i18n } from '../i18n';
import { feedback } from '../feedback/feedback';
import { forgetStoredToken } from '../auth/session';

/**
 * Spec 8: HTTP 511 (idle too long) and 401 (sign-in no longer valid) each ask the user to sign in
 * again, one box at a time however many calls fail together. One box in all, not one per status: the
 * 511 answer ends the session, so calls still in flight answer 401 for the same expired sign-in.
 */
let asking = false;

function ask(status: 511 | 401, onOk: () => void) {
  if (asking || !feedback.modal) return;
  asking = true;
  const t = (key: Parameters<typeof translate>[0]) => translate(key, i18n.locale);
  feedback.modal.confirm({
    title: t('shell.confirm.title'),
    content: t(status === 511 ? 'auth.idle' : 'auth.required'),
    okText: t('shell.relogin'),
    cancelText: t('common.cancel'),
    onOk,
    afterClose: () => {
      asking = false;
    },
  });
}

// Both answers end in a full page load, so the stored token is dropped without re-rendering the app
// first (spec 8: clears stored auth); the load starts the app afresh.
function toLogin() {
  forgetStoredToken();
  window.location.assign(`/login?redirect=${encodeURIComponent(window.location.pathname + window.location.search)}`);
}

export function installSessionGuards() {
  http.interceptors.response.use(undefined, (error: unknown) => {
    if (error instanceof AxiosError) {
      const status = error.response?.status;
      const url = error.config?.url ?? '';
      if (status === 511) ask(511, toLogin);
      else if (status === 401 && !url.startsWith('/oauth')) {
        ask(401, () => {
          forgetStoredToken();
          window.location.reload();
        });
      }
    }
    return Promise.reject(error);
  });
}
