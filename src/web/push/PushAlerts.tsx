import { useEffect, useRef } from 'react';
import { useSnapshot } from 'valtio';
import { feedback, notify } from '../feedback/feedback';
import { session } from '../auth/session';
import { routeState, findRoute } from '../permissions/routes';
import { translate, i18n } from '../i18n';
import { openPushChannel, PUSH_ALERT_EVENT } from './pushChannel';

/** Spec 9: a pushed alert stays 30 s and rings the alert sound. */
const ALERT_SECONDS = 30;

/** Opens the push channel once the user id is known; shows each alert as a notification with sound. */
export function PushAlerts() {
  const { userId, token } = useSnapshot(session);
  const audio = useRef<HTMLAudioElement>(null);

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
        const type = ['info', 'success', 'warning', 'error'].includes(alert.type) ? alert.type : 'info';
        feedback.notification[type]({
          title: alert.title,
          description: alert.message,
          duration: ALERT_SECONDS,
          className: 'push-alert',
        });
        void audio.current?.play().catch(() => undefined);
        window.dispatchEvent(new CustomEvent(PUSH_ALERT_EVENT, { detail: alert }));
      },
      mayReconnect: () => !findRoute(routeState.routes, window.location.pathname)?.meta.noWebsocket,
    });
  }, [userId, token]);

  return <audio ref={audio} src="/alert.wav" preload="auto" hidden className="alert-sound" />;
}
