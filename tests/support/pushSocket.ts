import WebSocket from 'ws';

/** How a push socket ended. */
export interface Closed {
  code: number;
  reason: string;
}

/** A browser tab's push socket: every message it receives, in order, and how it ended. */
export interface Tab {
  socket: WebSocket;
  nextMessage(): Promise<string>;
  closed: Promise<Closed>;
}

/** Listeners go on before the socket opens, so no message can slip past the test. */
export function watch(socket: WebSocket): Tab {
  const queued: string[] = [];
  const waiting: ((text: string) => void)[] = [];
  socket.on('message', (data) => {
    const text = data.toString();
    const waiter = waiting.shift();
    if (waiter) waiter(text);
    else queued.push(text);
  });
  const closed = new Promise<Closed>((resolve) =>
    socket.once('close', (code, reason) => resolve({ code, reason: reason.toString() })),
  );
  return {
    socket,
    nextMessage: () =>
      queued.length > 0 ? Promise.resolve(queued.shift()!) : new Promise((resolve) => waiting.push(resolve)),
    closed,
  };
}

/** The next alert a tab shows (a message with a title), passing over the dashboard's news that may come first. */
export async function nextAlert(tab: Tab): Promise<{ title: string; message: string } & Record<string, unknown>> {
  for (;;) {
    const message = JSON.parse(await tab.nextMessage()) as Record<string, unknown>;
    if (typeof message.title === 'string') return message as { title: string; message: string };
  }
}

export const opened = (tab: Tab) =>
  new Promise<void>((resolve, reject) => {
    tab.socket.once('open', () => resolve());
    tab.socket.once('error', reject);
  });

/** The push channel of a user (spec 7.7), with the token as a query parameter when one is given. */
export function pushUrl(baseUrl: string, userId: number | string, token?: string): string {
  const query = token === undefined ? '' : `?token=${encodeURIComponent(token)}`;
  return `${baseUrl.replace(/^http/, 'ws')}/api/websocket/${userId}${query}`;
}

/** Opens a socket and waits until the server has taken it over. */
export async function openTab(baseUrl: string, userId: number, token: string): Promise<Tab> {
  const tab = watch(new WebSocket(pushUrl(baseUrl, userId, token)));
  await opened(tab);
  return tab;
}
