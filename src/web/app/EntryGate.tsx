import { useEffect, useState, type ReactNode } from 'react';
import { Spin } from 'antd';
import { useNavigate } from 'react-router';
import { useSnapshot } from 'valtio';
import { useT } from '../i18n';
import { routeState } from '../permissions/routes';
import { notify } from '../feedback/feedback';
import { enterPages } from '../session/pageEntry';

/** Runs the page-entry flow (spec 4) before the shell shows; a refusal goes back to /login with its message. */
export function EntryGate({ children }: { children: ReactNode }) {
  const t = useT();
  const navigate = useNavigate();
  const { built } = useSnapshot(routeState);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    if (built) return;
    let cancelled = false;
    enterPages().catch((error: unknown) => {
      if (cancelled) return;
      setFailed(true);
      notify.error(error instanceof Error ? error.message : String(error));
      navigate('/login', { replace: true });
    });
    return () => {
      cancelled = true;
    };
  }, [built, navigate]);

  if (!built || failed) return <Spin fullscreen description={t('shell.loading')} />;
  return children;
}
