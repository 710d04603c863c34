import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routeTable, type RouteEntry } from '../../src/server/app';
import { screenAllows, type ScreenAction } from '../../src/shared/screens/access';
import type { ScreenSchema } from '../../src/shared/screens/fields';
import { startInProcess, type InProcessApp } from '../support/in-process';

/**
 * Issue 20: every HTTP route refuses a caller who may not use it. The calls are generated from the
 * server's own route table and the screen files, so a route or screen added later is tried by itself:
 * - without a token, every route not declared public answers 401;
 * - an editor gets 403 on every call of a screen whose schema keeps the action to administrators;
 * - another organisation's administrator reaches none of a lab's records by id (403 or 404).
 * Each refusal comes in the spec's envelope with a message, and the figures are printed.
 */
const schemaDir = path.resolve(import.meta.dirname, '../../schemas/screens');
const SCREENS = readdirSync(schemaDir)
  .filter((f) => f.endsWith('.json'))
  .map((f) => JSON.parse(readFileSync(path.join(schemaDir, f), 'utf8')) as ScreenSchema);
const RESOURCES = [...new Set(SCREENS.map((s) => s.resource.name))].sort();

let lims: InProcessApp;
let routes: RouteEntry[];
const tokens: Record<string, string> = {};
const refused = { anonymous: 0, lowerRole: 0, otherOrg: 0 };

beforeAll(async () => {
  lims = await startInProcess();
  routes = routeTable(lims.app);
  for (const account of ['admin', 'editor', 'onlyadmin', 'lab2admin'])
    tokens[account] = (await lims.signIn(account)).token;
}, 120_000);
afterAll(async () => {
  console.log(
    `route access: ${routes.length} routes, ${RESOURCES.length} screen resources; refused ` +
      `${refused.anonymous} calls without a token, ${refused.lowerRole} of an editor, ` +
      `${refused.otherOrg} of another organisation (${refused.anonymous + refused.lowerRole + refused.otherOrg} in all)`,
  );
  await lims?.close();
});

interface Call {
  method: string;
  url: string;
  body?: unknown;
}

/** A route's path with its parameters filled: every screen resource for :resource, a plain id elsewhere. */
function callsOf(route: RouteEntry): Call[] {
  const fill = (resource: string) =>
    route.url.replace(':resource', resource).replace(/:(\w+)/g, (_, name: string) => (/id$/i.test(name) ? '1' : 'x'));
  const urls = route.url.includes(':resource') ? RESOURCES.map(fill) : [fill('')];
  const body = route.method === 'POST' || route.method === 'PUT' ? {} : undefined;
  return urls.map((url) => ({ method: route.method, url, body }));
}

async function send(call: Call, token?: string) {
  const res = await lims.app.inject({
    method: call.method as 'GET',
    url: call.url,
    headers: token ? { authorization: `Bearer ${token}` } : {},
    ...(call.body !== undefined && { payload: call.body as object }),
  });
  let body: { resultCode?: number; resultMessage?: unknown; resultObject?: unknown } = {};
  try {
    body = res.json();
  } catch {
    // Not JSON: the check below names the call.
  }
  return { status: res.statusCode, body };
}

/** Runs the calls and answers those not refused with one of `statuses` in the envelope with a message. */
async function unrefused(calls: Call[], statuses: number[], token?: string): Promise<string[]> {
  const wrong: string[] = [];
  for (const call of calls) {
    const { status, body } = await send(call, token);
    const enveloped =
      body.resultCode === status && typeof body.resultMessage === 'string' && body.resultMessage.length > 0;
    if (!statuses.includes(status) || !enveloped) wrong.push(`${call.method} ${call.url}: ${status}`);
  }
  return wrong;
}

describe('without a token', () => {
  it('answers 401 on every route not declared public', async () => {
    const calls = routes.filter((r) => !r.public).flatMap(callsOf);
    expect(calls.length).toBeGreaterThan(1000);
    const wrong = await unrefused(calls, [401]);
    expect(wrong).toEqual([]);
    refused.anonymous += calls.length;
  }, 120_000);

  it('declares public only the sign-in, the health check and the calls that check a key of their own', () => {
    // The push socket checks the token it is opened with; the backup call its key (backup.test.ts).
    const OWN_CHECK = ['/api/websocket/:userId', '/api/system/backup'];
    // The API's own description (OpenAPI document and its page) is public, as the source it is made from.
    const described = (url: string) => url === '/api/openapi.json' || url.startsWith('/api/docs');
    const open = routes.filter(
      (r) => r.public && r.url.startsWith('/api') && !OWN_CHECK.includes(r.url) && !described(r.url),
    );
    expect(open.map((r) => `${r.method} ${r.url}`)).toEqual([]);
  });
});

/** The calls of a screen's resource that need `action`, at the screen's own endpoints where it names them. */
function screenCalls(screen: ScreenSchema, action: ScreenAction): Call[] {
  const base = `/api/resources/${screen.resource.name}`;
  const own = screen.endpoints;
  const calls: Record<ScreenAction, Call[]> = {
    read: [
      { method: 'GET', url: own?.list ?? base },
      { method: 'GET', url: own?.get?.replace('{id}', '1') ?? `${base}/1` },
      { method: 'GET', url: `${base}/1/events` },
    ],
    export: [{ method: 'GET', url: `${base}/export.xlsx` }],
    create: [{ method: 'POST', url: own?.create ?? base, body: {} }],
    update: [{ method: 'PUT', url: own?.update?.replace('{id}', '1') ?? `${base}/1`, body: {} }],
    delete: [
      { method: 'DELETE', url: own?.delete?.replace('{id}', '1') ?? `${base}/1` },
      { method: 'POST', url: `${base}/batchDelete`, body: { ids: [1] } },
    ],
    import: [{ method: 'POST', url: `${base}/import`, body: {} }],
  };
  return calls[action];
}

/** Commands a screen keeps to roles without the editor: their endpoints, called as the screen calls them. */
function adminCommands(screen: ScreenSchema): Call[] {
  const actions = [
    ...(screen.actions?.toolbar ?? []),
    ...(screen.actions?.row ?? []),
    ...(screen.actions?.batch ?? []),
  ];
  return actions
    .filter((a) => a.endpoint && a.roles && !a.roles.includes('editor'))
    .map((a) => ({
      method: a.method ?? 'POST',
      url: a.endpoint!.replace(/\{\w+\}/g, '1'),
      body: (a.method ?? 'POST') === 'POST' || a.method === 'PUT' ? { ids: [1] } : undefined,
    }));
}

describe('an editor', () => {
  it('is refused (403) every call of a screen whose schema keeps the action to administrators', async () => {
    const ACTIONS: ScreenAction[] = ['read', 'export', 'create', 'update', 'delete', 'import'];
    const key = (c: Call) => `${c.method} ${c.url}`;
    const denied = new Map<string, Call>();
    const allowed = new Set<string>();
    for (const screen of SCREENS) {
      for (const action of ACTIONS)
        for (const call of screenCalls(screen, action))
          if (screenAllows(screen, action, ['editor'])) allowed.add(key(call));
          else denied.set(key(call), call);
      for (const call of adminCommands(screen)) denied.set(key(call), call);
    }
    // A screen kept to administrators may list through a call another screen opens to editors (an
    // administrators' view of the specimens): that call is the other screen's, and open.
    const calls = [...denied.values()].filter((c) => !allowed.has(key(c)));
    expect(calls.length).toBeGreaterThan(300);
    const wrong = await unrefused(calls, [403], tokens.editor);
    expect(wrong).toEqual([]);
    refused.lowerRole += calls.length;
  }, 120_000);

  it("is refused the administrators' own calls: users, roles, administrators, push alerts, log clearing", async () => {
    // Bodies an administrator's call would take, so that the refusal is for the role, not the body.
    const newUser = { userAccount: 'intruder', userName: 'x', password: 'Intruder@2026' };
    const calls: Call[] = [
      { method: 'GET', url: '/api/user/getUser' },
      { method: 'GET', url: '/api/user/getAdmin' },
      { method: 'GET', url: '/api/user/1000' },
      { method: 'POST', url: '/api/user', body: newUser },
      { method: 'PUT', url: '/api/user', body: { id: 1000, userName: 'x' } },
      { method: 'DELETE', url: '/api/user/1000' },
      { method: 'GET', url: '/api/user/unlockUser?id=1000' },
      { method: 'POST', url: '/api/user/createAdmin', body: { ...newUser, orgId: 1 } },
      { method: 'POST', url: '/api/user/updateAdmin', body: { id: 1000, userName: 'x' } },
      { method: 'POST', url: '/api/push/send', body: { userIds: [1000], type: 'info', title: 'x', message: 'x' } },
      { method: 'DELETE', url: '/api/log/deleteAll' },
    ];
    const wrong = await unrefused(calls, [403], tokens.editor);
    expect(wrong).toEqual([]);
    refused.lowerRole += calls.length;
  });
});

describe("another organisation's administrator", () => {
  it("reaches none of the main lab's records by id: read, change, delete, history and transitions", async () => {
    const calls: Call[] = [];
    for (const screen of SCREENS.filter((s) => s.resource.scope === 'org' && !s.endpoints)) {
      const base = `/api/resources/${screen.resource.name}`;
      const ids = async (account: string) => {
        const list = await send({ method: 'GET', url: `${base}?size=50` }, tokens[account]);
        return ((list.body.resultObject as { records?: { id: number }[] } | null)?.records ?? []).map((r) => r.id);
      };
      // The lab's own record, not shared data every lab lists (the base organisation's system dictionaries).
      const others = new Set([...(await ids('onlyadmin')), ...(await ids('lab2admin'))]);
      const id = (await ids('admin')).find((i) => !others.has(i));
      if (id === undefined) continue;
      const first = { id };
      const at = `${base}/${first.id}`;
      // A transition only the server runs is refused by its name to everyone, before any record is read.
      const transitions = (screen.resource.lifecycle?.transitions ?? []).filter((t) => !t.system).map((t) => t.name);
      calls.push(
        { method: 'GET', url: at },
        { method: 'PUT', url: at, body: {} },
        { method: 'DELETE', url: at },
        { method: 'GET', url: `${at}/events` },
        { method: 'POST', url: `${base}/batchDelete`, body: { ids: [first.id] } },
        ...transitions.map((name) => ({ method: 'POST', url: `${at}/transitions/${name}`, body: {} })),
      );
    }
    expect(calls.length).toBeGreaterThan(200);
    const count = 'select count(*)::text as n from operation_log';
    const before = await lims.db.query<{ n: string }>(count);
    for (const account of ['onlyadmin', 'lab2admin']) {
      const wrong = await unrefused(calls, [403, 404], tokens[account]);
      expect(wrong, account).toEqual([]);
      refused.otherOrg += calls.length;
    }
    // Nothing was changed: no write reached the operation log.
    expect(await lims.db.query<{ n: string }>(count)).toEqual(before);
  }, 180_000);
});
