import { useEffect, useRef } from 'react';
import { useSnapshot } from 'valtio';
import { feedback, notify } from '../feedback/feedback';
import { session } from '../auth/session';
import { routeState, findRoute } from '../permissions/routes';
import { translate, i18n } from '../i18n';
import { openPushChannel, PUSH_ALERT_EVENT, type Alert } from './pushChannel';
import { AlertRuns, type AlertRun } from './alertRuns';

/** A run's notice: its title counting the alerts, the latest messages one a line, the rest counted. */
function showRun(run: AlertRun, onClose: () => void) {
  const locale = i18n.locale;
  const more = run.count - run.latest.length;
  feedback.notification[run.type]({
    key: run.key,
    title: run.count > 1 ? translate('push.runTitle', locale, { title: run.title, count: run.count }) : run.title,
    description: (
      <>
        {run.latest.map((message, i) => (
          <div key={i}>{message}</div>
        ))}
        {more > 0 && <div className="push-alert-more">{translate('push.more', locale, { count: more })}</div>}
      </>
    ),
    // The run keeps its own time (alertRuns.ts): antd's would close it 30 s after its first alert.
    duration: 0,
    className: 'push-alert',
    onClose,
  });
}

/**
 * Opens the push channel once the user id is known; shows the alerts as notifications with sound, those
 * of one title that come while its notice shows gathered into it (alertRuns.ts).
 */
export function PushAlerts() {
  const { userId, token } = useSnapshot(session);
  const audio = useRef<HTMLAudioElement>(null);
  const runs = useRef(new AlertRuns((key) => feedback.notification.destroy(key)));

  useEffect(() => {
    if (!userId || !token) return;
    if (typeof WebSocket === 'undefined') {
      notify.warning(translate('push.unsupported', i18n.locale));
      return;
    }
    return openPushChannel({
      userId,
      token,
      onAlert: (alert) => {
        const type: Alert['type'] = ['info', 'success', 'warning', 'error'].includes(alert.type) ? alert.type : 'info';
        const run = runs.current.add({ ...alert, type }, performance.now());
        showRun(run, () => runs.current.closed(run.key));
        if (run.ring) void audio.current?.play().catch(() => undefined);
        window.dispatchEvent(new CustomEvent(PUSH_ALERT_EVENT, { detail: alert }));
      },
      mayReconnect: () => !findRoute(routeState.routes, window.location.pathname)?.meta.noWebsocket,
    });
  }, [userId, token]);

  return <audio ref={audio} src="/alert.wav" preload="auto" hidden className="alert-sound" />;
}
