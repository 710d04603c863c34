import { useCallback, useEffect, useRef, useState } from 'react';
import { arrivedForScreen, readForScreen } from '../api/earlyReads';
import { PUSH_TOPIC_EVENT } from '../push/pushChannel';
import { DASHBOARD_TOPIC, type Dashboard } from '../../shared/dashboard/types';

export const DASHBOARD_URL = '/api/dashboard';
export const fetchDashboard = () => readForScreen<Dashboard>(DASHBOARD_URL);
const arrivedDashboard = () => arrivedForScreen<Dashboard>(DASHBOARD_URL);

/** News arriving together (a specimen entered starts its process: two writes) are read with one request. */
export const NEWS_SETTLE_MS = 300;

/**
 * The dashboard's counts (issue 24): read when the page is built, and again whenever the push channel
 * says the counts of the user's organisation changed. A failed read keeps the last counts and says so.
 * Counts read at sign-in that have already come are shown from the first render.
 */
export function useDashboard(
  orgId: number | undefined,
  load: () => Promise<Dashboard> = fetchDashboard,
  arrived: () => Dashboard | undefined = arrivedDashboard,
) {
  const [dashboard, setDashboard] = useState(arrived);
  const [error, setError] = useState<unknown>();
  const [loading, setLoading] = useState(dashboard === undefined);
  const latest = useRef(0);

  /** Only the newest request's answer is shown: an older one arriving late never overwrites it. */
  const settle = useCallback(async (ticket: number, answer: Promise<Dashboard>) => {
    try {
      const next = await answer;
      if (ticket !== latest.current) return;
      setDashboard(next);
      setError(undefined);
    } catch (e) {
      if (ticket === latest.current) setError(e);
    } finally {
      if (ticket === latest.current) setLoading(false);
    }
  }, []);

  const reload = useCallback(() => {
    setLoading(true);
    return settle(++latest.current, load());
  }, [load, settle]);

  useEffect(() => {
    void settle(++latest.current, load());
  }, [load, settle]);

  useEffect(() => {
    let settle: ReturnType<typeof setTimeout> | undefined;
    const onNews = (event: Event) => {
      const news = (event as CustomEvent<{ topic?: string; orgId?: number }>).detail;
      if (news?.topic !== DASHBOARD_TOPIC || (orgId !== undefined && news.orgId !== orgId)) return;
      clearTimeout(settle);
      settle = setTimeout(() => void reload(), NEWS_SETTLE_MS);
    };
    window.addEventListener(PUSH_TOPIC_EVENT, onNews);
    return () => {
      clearTimeout(settle);
      window.removeEventListener(PUSH_TOPIC_EVENT, onNews);
    };
  }, [orgId, reload]);

  return { dashboard, error, loading, reload };
}
