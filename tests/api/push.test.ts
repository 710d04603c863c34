import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import pg from 'pg';
import { startServer, startSecondProcess, databaseUrlOf, DEMO_PASSWORD, type TestServer } from '../support/server';
import { startInProcess, type InProcessApp } from '../support/in-process';
import { opened, openTab, pushUrl, watch, type Tab } from '../support/pushSocket';
import { api, login } from '../support/client';
import { enterSpecimens } from '../support/specimens';
import {
  NOTIFY_LIMIT_BYTES,
  byteLength,
  fitAlert,
  readDelivery,
  splitForNotify,
  stamp,
} from '../../src/server/kernel/push/alert';

async function signIn(url: string, account: string): Promise<{ id: number; token: string }> {
  const { status, body } = await login(url, account, DEMO_PASSWORD);
  const principal = body.principal as { id?: number } | undefined;
  if (status !== 200 || !body.access_token || !principal?.id) throw new Error(`login ${account} failed`);
  return { id: principal.id, token: body.access_token };
}

interface Sent {
  delivered: number;
}

describe('push channel (spec 4, 7.7)', () => {
  let server: TestServer;
  let admin: { id: number; token: string };
  let editor: { id: number; token: string };
  let lab2admin: { id: number; token: string };
  const tabs: Tab[] = [];
  const tab = async (userId: number, token: string) => {
    const opened = await openTab(server.url, userId, token);
    tabs.push(opened);
    return opened;
  };

  beforeAll(async () => {
    server = await startServer();
    [admin, editor, lab2admin] = await Promise.all([
      signIn(server.url, 'admin'),
      signIn(server.url, 'editor'),
      signIn(server.url, 'lab2admin'),
    ]);
  });
  afterAll(async () => {
    for (const t of tabs) t.socket.close();
    await server?.dispose();
  });

  it('brings an alert sent by an administrator to every open socket of the user', async () => {
    const first = await tab(editor.id, editor.token);
    const second = await tab(editor.id, editor.token);
    const sent = await api(server.url, admin.token).post<Sent>('/api/push/send', {
      userIds: [editor.id],
      type: 'warning',
      title: '标本超时',
      message: '标本 S-2026-0001 已超过交接时限',
    });
    expect(sent.status).toBe(200);
    expect(sent.body).toMatchObject({ resultCode: 200, resultObject: { delivered: 1 } });

    for (const socket of [first, second]) {
      const alert = JSON.parse(await socket.nextMessage()) as Record<string, string>;
      expect(Object.keys(alert)).toEqual(['type', 'title', 'message', 'time']);
      expect(alert).toMatchObject({
        type: 'warning',
        title: '标本超时',
        message: '标本 S-2026-0001 已超过交接时限',
      });
      expect(Number.isNaN(Date.parse(alert.time!))).toBe(false);
    }
  });

  it('delivers only to the users named', async () => {
    const editorTab = await tab(editor.id, editor.token);
    const adminTab = await tab(admin.id, admin.token);
    const asAdmin = api(server.url, admin.token);
    await asAdmin.post('/api/push/send', {
      userIds: [admin.id],
      type: 'info',
      title: 'for admin',
      message: '',
    });
    await asAdmin.post('/api/push/send', {
      userIds: [editor.id],
      type: 'info',
      title: 'for editor',
      message: '',
    });
    // Alerts to one user arrive in the order sent, so the editor's first message proves it got none before.
    expect(JSON.parse(await editorTab.nextMessage())).toMatchObject({ title: 'for editor' });
    expect(JSON.parse(await adminTab.nextMessage())).toMatchObject({ title: 'for admin' });
  });

  it('answers the heartbeat in the form it was sent', async () => {
    const t = await tab(editor.id, editor.token);
    t.socket.send('ping');
    expect(await t.nextMessage()).toBe('pong');
    t.socket.send(JSON.stringify({ type: 'ping' }));
    expect(JSON.parse(await t.nextMessage())).toEqual({ type: 'pong' });
  });

  it('also takes the token as the sub-protocol bearer.<token>', async () => {
    const t = watch(new WebSocket(pushUrl(server.url, editor.id), [`bearer.${editor.token}`]));
    tabs.push(t);
    await opened(t);
    t.socket.send('ping');
    expect(await t.nextMessage()).toBe('pong');
  });

  it('closes with 4401 for a missing or unknown token', async () => {
    const forged = watch(new WebSocket(pushUrl(server.url, editor.id, 'x'.repeat(43))));
    expect((await forged.closed).code).toBe(4401);
    const none = watch(new WebSocket(pushUrl(server.url, editor.id)));
    expect((await none.closed).code).toBe(4401);
  });

  it("closes with 4403 when the token is another user's", async () => {
    const other = watch(new WebSocket(pushUrl(server.url, editor.id, admin.token)));
    expect((await other.closed).code).toBe(4403);
    const junk = watch(new WebSocket(pushUrl(server.url, 'abc', editor.token)));
    expect((await junk.closed).code).toBe(4403);
  });

  it('lets only administrators send', async () => {
    const res = await api(server.url, editor.token).post('/api/push/send', {
      userIds: [editor.id],
      type: 'info',
      title: 't',
      message: 'm',
    });
    expect(res.status).toBe(403);
    expect(res.body.resultCode).toBe(403);
    expect(
      (
        await api(server.url).post('/api/push/send', {
          userIds: [editor.id],
          type: 'info',
          title: 't',
          message: 'm',
        })
      ).status,
    ).toBe(401);
  });

  it('keeps an administrator to the users of the organisations they manage', async () => {
    const sub = api(server.url, lab2admin.token);
    const intoMainLab = await sub.post('/api/push/send', {
      userIds: [editor.id],
      type: 'error',
      title: 't',
      message: 'm',
    });
    expect(intoMainLab.status).toBe(403);
    const mixed = await sub.post('/api/push/send', {
      userIds: [lab2admin.id, editor.id],
      type: 'error',
      title: 't',
      message: 'm',
    });
    expect(mixed.status).toBe(403);
    const own = await sub.post<Sent>('/api/push/send', {
      userIds: [lab2admin.id, lab2admin.id],
      type: 'info',
      title: 't',
      message: 'm',
    });
    expect(own.status).toBe(200);
    expect(own.body.resultObject.delivered).toBe(1);
    // The main lab manages its sub labs.
    const down = await api(server.url, admin.token).post<Sent>('/api/push/send', {
      userIds: [lab2admin.id, editor.id],
      type: 'success',
      title: 't',
      message: 'm',
    });
    expect(down.body.resultObject.delivered).toBe(2);
  });

  it('refuses a malformed alert and an unknown user', async () => {
    const asAdmin = api(server.url, admin.token);
    const base = { userIds: [editor.id], type: 'info', title: 't', message: 'm' };
    for (const body of [
      { ...base, title: 'x'.repeat(101) },
      { ...base, message: 'x'.repeat(1001) },
      { ...base, userIds: [] },
      { ...base, userIds: Array.from({ length: 501 }, () => editor.id) },
      { ...base, userIds: ['abc'] },
      { ...base, type: 'shout' },
      { userIds: [editor.id], type: 'info', message: 'm' },
    ]) {
      const res = await asAdmin.post('/api/push/send', body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
    }
    expect((await asAdmin.post('/api/push/send', { ...base, userIds: [987654] })).status).toBe(404);
  });
});

describe('push channel timing (clock and silence limit in process)', () => {
  let lims: InProcessApp;
  let url: string;
  beforeAll(async () => {
    lims = await startInProcess({ LIMS_IDLE_TIMEOUT_SECONDS: '600', LIMS_WS_IDLE_SECONDS: '0.5' });
    url = await lims.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(() => lims?.close());

  it('closes with 4511 when the token has been idle past the limit', async () => {
    const { id, token } = await lims.signIn('editor');
    lims.clock.advance(601);
    const stale = watch(new WebSocket(pushUrl(url, id, token)));
    expect((await stale.closed).code).toBe(4511);
  });

  it('refuses an upgrade to any other route and drops its connection, so nothing holds up a stop', async () => {
    for (const path of ['/api/user/me', '/healthz', '/no-such-page']) {
      const socket = new WebSocket(url.replace(/^http/, 'ws') + path);
      const dropped = await new Promise<boolean>((resolve) => {
        socket.once('open', () => socket.once('close', () => resolve(true)));
        socket.once('unexpected-response', (request) => request.socket?.once('close', () => resolve(true)));
        socket.once('error', () => resolve(true));
      });
      expect(dropped, path).toBe(true);
    }
  });

  it('closes a socket that has said nothing for longer than LIMS_WS_IDLE_SECONDS', async () => {
    const { id, token } = await lims.signIn('editor');
    const silent = watch(new WebSocket(pushUrl(url, id, token)));
    expect((await silent.closed).code).toBe(4408);
  });
});

// Skipped on PGlite (plain `npm test`): a second server process needs a database both can reach, and
// PGlite serves one process. Runs where TEST_DATABASE_URL names a PostgreSQL server (.ci/run's second pass).
describe.runIf(process.env.TEST_DATABASE_URL)('push channel across server processes (PostgreSQL)', () => {
  let first: TestServer;
  let second: TestServer;
  beforeAll(async () => {
    first = await startServer();
    second = await startSecondProcess(first);
  });
  afterAll(async () => {
    await second?.dispose();
    await first?.dispose();
  });

  /** The LISTEN connections of this test's database, found by the application name the hub gives them. */
  async function listeners(): Promise<number[]> {
    const url = new URL(databaseUrlOf(first)!);
    const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await client.connect();
    try {
      const { rows } = await client.query<{ pid: number }>(
        `select pid from pg_stat_activity where datname = $1 and application_name = 'lims_push' and query ilike 'listen%'`,
        [url.pathname.slice(1)],
      );
      return rows.map((r) => r.pid);
    } finally {
      await client.end();
    }
  }

  async function terminate(pids: number[]): Promise<void> {
    const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await client.connect();
    await client.query('select pg_terminate_backend(pid) from unnest($1::int[]) as pid', [pids]);
    await client.end();
  }

  /** Polls the database's own view until every process listens again on a new connection. */
  async function relistened(old: number[], processes: number): Promise<void> {
    for (;;) {
      const now = (await listeners()).filter((pid) => !old.includes(pid));
      if (now.length >= processes) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  it('reaches a socket held by another process', async () => {
    const admin = await signIn(first.url, 'admin');
    const editor = await signIn(first.url, 'editor');
    const onSecond = await openTab(second.url, editor.id, editor.token);
    const onFirst = await openTab(first.url, editor.id, editor.token);
    try {
      const sent = await api(first.url, admin.token).post<Sent>('/api/push/send', {
        userIds: [editor.id],
        type: 'info',
        title: 'across',
        message: 'm',
      });
      expect(sent.status).toBe(200);
      expect(JSON.parse(await onSecond.nextMessage())).toMatchObject({ title: 'across' });
      expect(JSON.parse(await onFirst.nextMessage())).toMatchObject({ title: 'across' });
    } finally {
      onSecond.socket.close();
      onFirst.socket.close();
    }
  });

  /** The next message of a tab that is news (a topic, not an alert). */
  async function nextNews(tab: Tab): Promise<Record<string, unknown>> {
    for (;;) {
      const message = JSON.parse(await tab.nextMessage()) as Record<string, unknown>;
      if ('topic' in message) return message;
    }
  }

  it("tells a lab's dashboards on another process that counts changed, and no other lab's", async () => {
    const editor = await signIn(first.url, 'editor');
    const otherLab = await signIn(first.url, 'lab2admin');
    const editorTab = await openTab(second.url, editor.id, editor.token);
    const otherLabTab = await openTab(second.url, otherLab.id, otherLab.token);
    try {
      await enterSpecimens(api(first.url, editor.token), 1);
      expect(await nextNews(editorTab)).toEqual({ topic: 'dashboard', orgId: 1 });
      // The other lab's first news is of its own specimen: lab 1's never reached it.
      await enterSpecimens(api(first.url, otherLab.token), 1);
      expect(await nextNews(otherLabTab)).toEqual({ topic: 'dashboard', orgId: 2 });
    } finally {
      editorTab.socket.close();
      otherLabTab.socket.close();
    }
  });

  it('listens again after the LISTEN connection is lost', async () => {
    const admin = await signIn(second.url, 'admin');
    const editor = await signIn(second.url, 'editor');
    const before = await listeners();
    expect(before).toHaveLength(2);
    await terminate(before);
    await relistened(before, 2);
    const onFirst = await openTab(first.url, editor.id, editor.token);
    try {
      await api(second.url, admin.token).post('/api/push/send', {
        userIds: [editor.id],
        type: 'info',
        title: 'after reconnect',
        message: '',
      });
      expect(JSON.parse(await onFirst.nextMessage())).toMatchObject({ title: 'after reconnect' });
    } finally {
      onFirst.socket.close();
    }
  });

  it('keeps serving when PostgreSQL ends its idle connections (a restart, an administrator)', async () => {
    const admin = await signIn(first.url, 'admin');
    const url = new URL(databaseUrlOf(first)!);
    const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await client.connect();
    const { rows } = await client.query<{ pid: number }>(
      `select pid from pg_stat_activity where datname = $1 and application_name <> 'lims_push' and state = 'idle'`,
      [url.pathname.slice(1)],
    );
    await client.end();
    expect(rows.length).toBeGreaterThan(0);
    await terminate(rows.map((r) => r.pid));
    // Asked at once, before either process may have read that its connections are gone: each passes
    // over the dead ones and answers on a new connection.
    const answers = await Promise.all(
      [first, second, first, second].map((server) => api(server.url, admin.token).get('/api/user/me')),
    );
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200]);
    // A process hears of its lost connections and says so (the idle ones taken may all have been the
    // other process's: which process held them is the pool's timing, not the test's).
    const heard = () => [first, second].some((server) => server.output().includes('an idle connection was lost'));
    await expect.poll(heard, { timeout: 10_000 }).toBe(true);
    for (const server of [first, second])
      expect((await api(server.url, admin.token).get('/api/user/me')).status).toBe(200);
  });

  it('carries the longest alert the send call accepts', async () => {
    const admin = await signIn(first.url, 'admin');
    const editor = await signIn(first.url, 'editor');
    const onSecond = await openTab(second.url, editor.id, editor.token);
    try {
      const message = '病理'.repeat(500);
      const title = '检'.repeat(100);
      const sent = await api(first.url, admin.token).post<Sent>('/api/push/send', {
        userIds: [admin.id, editor.id],
        type: 'info',
        title,
        message,
      });
      expect(sent.status).toBe(200);
      expect(JSON.parse(await onSecond.nextMessage())).toMatchObject({ title, message });
    } finally {
      onSecond.socket.close();
    }
  });
});

describe('alert payloads under the NOTIFY limit', () => {
  const alert = stamp({ type: 'info', title: '质控', message: '失控' }, new Date('2026-01-02T03:04:05Z'));

  it('spreads many recipients over several notifications, each one small enough', () => {
    const ids = Array.from({ length: 5000 }, (_, i) => 1_000_000 + i);
    const payloads = splitForNotify(ids, alert);
    expect(payloads.length).toBeGreaterThan(1);
    for (const payload of payloads) expect(byteLength(payload)).toBeLessThan(NOTIFY_LIMIT_BYTES);
    expect(payloads.flatMap((p) => readDelivery(p)!.userIds)).toEqual(ids);
    expect(readDelivery(payloads[0]!)!.alert).toEqual(alert);
  });

  it('cuts an over-long message at a character, leaving what fits', () => {
    const long = { ...alert, message: '\u0001标本'.repeat(5000) };
    const fitted = fitAlert(long);
    expect(byteLength(JSON.stringify(fitted))).toBeLessThanOrEqual(4000);
    expect(fitted.message.endsWith('…')).toBe(true);
    expect(long.message.startsWith(fitted.message.slice(0, -1))).toBe(true);
    expect(fitAlert(alert)).toEqual(alert);
  });

  it('ignores a notification it cannot read', () => {
    expect(readDelivery('not json')).toBeUndefined();
    expect(readDelivery(JSON.stringify({ userIds: ['1'], alert }))).toBeUndefined();
  });
});
