import { useEffect, useState, type FormEvent } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { errorMessage } from '../api/http';
import { PRODUCT_TITLE } from '../i18n/productTitle';
import { EntryError, enterPages, resetSession } from '../session/pageEntry';
import { setLocale, i18n, useT } from '../i18n';
import { resetTags } from '../shell/tags/tagsStore';
import { clearLoginNotice, peekLoginNotice } from './loginNotice';
import { session } from './session';
import { signIn } from './signIn';
import { readDashboardEarly } from '../dashboard/readEarly';
import './login.css';

const DASHBOARD = '/dashboard';

/** Where to go after sign-in: the page that sent the user here, if it is one of ours. */
function safeRedirect(target: string | null): string {
  return target && target.startsWith('/') && !target.startsWith('//') && !target.startsWith('/login')
    ? target
    : DASHBOARD;
}

/**
 * The sign-in page (spec 5: the username is trimmed). Plain HTML and CSS rather than antd: it is the
 * first thing every user downloads, so it stays small; the shell brings antd after sign-in. `preload`
 * fetches the signed-in pages' code, asked for as the user types (routes.tsx gives it).
 */
export function LoginPage({ preload = () => undefined }: { preload?: () => Promise<unknown> | void }) {
  const t = useT();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  // A notice left by the page that sent the user here (e.g. 密码修改成功), shown once.
  const [notice] = useState(peekLoginNotice);
  useEffect(clearLoginNotice, []);
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [missing, setMissing] = useState({ username: false, password: false });
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const gaps = { username: username.trim() === '', password: password === '' };
    setMissing(gaps);
    if (gaps.username || gaps.password) return;
    setBusy(true);
    setError(undefined);
    try {
      const previousUser = session.userId;
      // Whatever the last user left behind (roles, routes) must not leak into this session.
      resetSession();
      const { principal } = await signIn(username, password);
      if (previousUser && previousUser !== String(principal.id)) resetTags();
      // The page-entry calls (spec 4) go out at once, beside the shell's code, instead of after it has
      // loaded: the shell then opens on data already there, with its code, rendered at once rather than
      // after a blank page. A refusal is shown here, on the login page.
      const entered = enterPages();
      // The dashboard's own reads follow them out (the server answers them after the entry calls).
      const target = safeRedirect(params.get('redirect'));
      if (target === DASHBOARD) readDashboardEarly();
      await Promise.all([entered, preload()]);
      navigate(target, { replace: true });
    } catch (e) {
      setError(e instanceof EntryError ? e.message : errorMessage(e, t('login.failed')));
      setBusy(false);
    }
  };

  return (
    <div className="login-page">
      <form className="login-card" onSubmit={submit} noValidate>
        <h1 className="login-product">{PRODUCT_TITLE}</h1>
        <p className="login-subtitle">{t('login.title')}</p>
        {notice && !error && (
          <div className="login-notice" role="status">
            {notice}
          </div>
        )}
        {error && (
          <div className="login-error" role="alert">
            {error}
          </div>
        )}
        <input
          className={missing.username ? 'login-input invalid' : 'login-input'}
          placeholder={t('login.username')}
          aria-label={t('login.username')}
          autoComplete="username"
          autoFocus
          value={username}
          onChange={(e) => {
            setUsername(e.target.value);
            preload();
          }}
        />
        {missing.username && <div className="login-field-error">{t('login.username.required')}</div>}
        <input
          className={missing.password ? 'login-input invalid' : 'login-input'}
          type="password"
          placeholder={t('login.password')}
          aria-label={t('login.password')}
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
        {missing.password && <div className="login-field-error">{t('login.password.required')}</div>}
        <button className="login-submit" type="submit" disabled={busy}>
          {t('login.submit')}
        </button>
        <button
          className="login-language"
          type="button"
          onClick={() => setLocale(i18n.locale === 'zh-CN' ? 'en-US' : 'zh-CN')}
        >
          {t('common.language')}
        </button>
      </form>
    </div>
  );
}
