/**
 * The push channel of spec 4 / 9: one WebSocket per signed-in user. After 59 s of silence it sends a
 * heartbeat; no reply within 59 s closes it; a closed socket reconnects after 10 s unless the current
 * route says noWebsocket. Alerts arrive as JSON { type, title, message }.
 */
export const HEARTBEAT_MS = 59_000;
export const REPLY_TIMEOUT_MS = 59_000;
export const RECONNECT_MS = 10_000;
/** Window event carrying a pushed message with a `topic` (detail: the message). */
export const PUSH_TOPIC_EVENT = 'lims-push-topic';
/** Window event after an alert was shown (detail: the alert), for pages whose data it announces (a new task). */
export const PUSH_ALERT_EVENT = 'lims-push-alert';

export interface Alert {
  type: 'info' | 'success' | 'warning' | 'error';
  title: string;
  message: string;
}

export interface PushChannelOptions {
  userId: string;
  token: string;
  onAlert: (alert: Alert) => void;
  /** Asked before each reconnect: false while the user is on a noWebsocket route. */
  mayReconnect: () => boolean;
}

export function pushUrl(userId: string, token: string, location: Location = window.location): string {
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  return `${scheme}://${location.host}/api/websocket/${encodeURIComponent(userId)}?token=${encodeURIComponent(token)}`;
}

export function openPushChannel(options: PushChannelOptions): () => void {
  let socket: WebSocket | undefined;
  let heartbeat: ReturnType<typeof setTimeout> | undefined;
  let replyWait: ReturnType<typeof setTimeout> | undefined;
  let reconnect: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;

  const clearTimers = () => {
    clearTimeout(heartbeat);
    clearTimeout(replyWait);
  };
  // Any traffic proves the line is alive: wait another 59 s before the next heartbeat.
  const armHeartbeat = () => {
    clearTimers();
    heartbeat = setTimeout(() => {
      socket?.send('ping');
      replyWait = setTimeout(() => socket?.close(), REPLY_TIMEOUT_MS);
    }, HEARTBEAT_MS);
  };

  const connect = () => {
    socket = new WebSocket(pushUrl(options.userId, options.token));
    socket.onopen = armHeartbeat;
    socket.onmessage = (event: MessageEvent<string>) => {
      armHeartbeat();
      if (event.data === 'pong') return;
      try {
        const alert = JSON.parse(event.data) as Partial<Alert> & { topic?: unknown };
        // Not an alert but news for a part of the page (e.g. a screen file changed): told, never shown.
        if (typeof alert.topic === 'string')
          return void window.dispatchEvent(new CustomEvent(PUSH_TOPIC_EVENT, { detail: alert }));
        if (alert.title || alert.message) options.onAlert(alert as Alert);
      } catch {
        // Not an alert: nothing to show.
      }
    };
    socket.onclose = () => {
      clearTimers();
      if (!stopped && options.mayReconnect()) reconnect = setTimeout(connect, RECONNECT_MS);
    };
  };

  connect();
  return () => {
    stopped = true;
    clearTimers();
    clearTimeout(reconnect);
    socket?.close();
  };
}
