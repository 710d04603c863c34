import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routeTable, type RouteEntry } from '../../src/server/app';
import { screenAllows, type ScreenAction } from '../../src/shared/screens/access';
import type { ScreenSchema } from '../../src/shared/screens/fields';
import { startInProcess, type InProcessApp } from '../support/in-process';
import { modelXml } from '../support/workflow';

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
    for (const screen of SCREENS.filter((s) => s.resource.scope === 'org')) {
      const base = `/api/resources/${screen.resource.name}`;
      // A screen listing through its capability's own call still keeps its records at the generic
      // address: the lab's own record read from the store.
      const stored = async () =>
        (
          await lims.db.query<{ id: number }>(
            'select id from resource_record where resource = $1 and org_id = 1 order by id limit 1',
            [screen.resource.name],
          )
        ).map((r) => r.id);
      const ids = async (account: string) => {
        if (screen.endpoints) return account === 'admin' ? stored() : [];
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

/**
 * Where the main lab's record comes from for each capability route whose path names a record, and a
 * body its owner's call would take, so that a refusal is for the organisation and not for the body.
 * A route with a path parameter that is in neither this table nor NOT_A_RECORD fails the test below:
 * whoever adds one says here which record it reaches.
 */
const record = (resource: string) =>
  `select id::text as id from resource_record where resource = '${resource}' and org_id = 1 order by id limit 1`;
const RECORD_OF: Record<string, { id: string; body?: unknown }> = {
  'GET /api/user/:id': { id: `select id::text as id from app_user where org_id = 1 and user_account = 'editor'` },
  'DELETE /api/user/:id': { id: `select id::text as id from app_user where org_id = 1 and user_account = 'editor'` },
  'GET /api/dictionary/:id': { id: `select id::text as id from dictionary where org_id = 1 order by id limit 1` },
  'DELETE /api/dictionary/:id': { id: `select id::text as id from dictionary where org_id = 1 order by id limit 1` },
  'POST /api/dictionary/:id/detail/creating': {
    id: `select id::text as id from dictionary where org_id = 1 order by id limit 1`,
    body: { label: '越权', value: 'intrude' },
  },
  'POST /api/dictionary/:id/detail/updating': {
    id: `select d.id::text as id from dictionary d join dictionary_detail x on x.dictionary_id = d.id where d.org_id = 1 order by d.id limit 1`,
    body: { id: 0, label: '越权', value: 'intrude' },
  },
  'DELETE /api/dictionary/detail/:id': {
    id: `select x.id::text as id from dictionary_detail x join dictionary d on d.id = x.dictionary_id where d.org_id = 1 order by x.id limit 1`,
  },
  'POST /api/form/insertFormDataList/:id': { id: record('form'), body: [{ intrude: 'x' }] },
  'GET /api/workflow/model/:id/xml': {
    id: `select id::text as id from process_model where org_id = 1 order by id limit 1`,
  },
  'POST /api/workflow/model/:id/xml/save': {
    id: `select id::text as id from process_model where org_id = 1 order by id limit 1`,
    body: { xml: '<definitions/>' },
  },
  'POST /api/workflow/task/:taskId/claim': { id: `active task` },
  'POST /api/workflow/task/:taskId/unclaim': { id: `active task` },
  'POST /api/workflow/task/:taskId/delegate': { id: `active task`, body: { userAccount: 'lab2admin' } },
  'POST /api/workflow/task/:taskId/reassign': { id: `active task`, body: { userAccount: 'lab2admin' } },
  'POST /api/workflow/task/:taskId/complete': { id: `active task`, body: { variables: {} } },
  'GET /api/workflow/task/:taskId': { id: `active task` },
  'GET /api/workflow/process/:id': { id: `running instance` },
  'GET /api/workflow/process/:id/trace': { id: `running instance` },
  'POST /api/workflow/process/:id/suspend': { id: `running instance`, body: {} },
  'POST /api/workflow/process/:id/resume': { id: `running instance`, body: {} },
  'DELETE /api/workflow/process/:id': { id: `running instance` },
  'POST /api/workflow/specimen/:id/start': { id: record('specimen'), body: {} },
  'GET /api/specimens/:id/barcode.png': { id: record('specimen') },
  'POST /api/barcodes/rules/:id/issue': { id: record('barcodeRule'), body: { count: 1 } },
  'POST /api/qc/results/:id/evaluate': { id: record('qcResult'), body: {} },
  'GET /api/reports/:id/pdf': { id: record('reportRecord') },
  'POST /api/reports/:id/reissue': { id: record('reportRecord'), body: {} },
  'POST /api/finance/settlementAudit/:id/approve': { id: record('settlementAudit'), body: { opinion: 'x' } },
  'POST /api/finance/settlementAudit/:id/reject': { id: record('settlementAudit'), body: { opinion: 'x' } },
  'POST /api/finance/priceRecalculation/:id/run': { id: record('priceRecalculation'), body: {} },
  'POST /api/microbiology/susceptibility/:id/interpret': { id: record('susceptibilityResult'), body: {} },
};
const ACTIVE_TASK = `select id::text as id from workflow_task where org_id = 1 and status = 'active' order by created_at limit 1`;
const RUNNING_INSTANCE = `select id::text as id from process_instance where org_id = 1 and status = 'running' order by started_at limit 1`;

/** Path parameters that name no record of a lab, with the reason another organisation's caller cannot apply. */
const NOT_A_RECORD: Record<string, string> = {
  'GET /api/ui/screens/:id': 'a screen definition, the same for every lab (its id is the screen name)',
  'GET /api/websocket/:userId':
    "the push socket opens only for the user its own token names (push-socket tests); not an HTTP call on a lab's record",
  'GET /api/dictionary/:name/name': "a dictionary's name, looked up in the caller's own organisation only",
  'GET /api/statistics/:name': "a statistic's name; the figures are the caller's own organisation's",
  'GET /api/statistics/:name/export.xlsx': "a statistic's name; the figures are the caller's own organisation's",
};

/** What a refused call must not touch: every table a lab's records, tasks, files and log live in. */
const WATCHED = [
  'resource_record',
  'app_user',
  'dictionary',
  'dictionary_detail',
  'process_model',
  'process_deployment',
  'process_instance',
  'workflow_task',
  'workflow_history',
  'form_data',
  'issued_barcode',
  'record_event',
  'record_file',
  'record_file_pending',
  'charge_line',
  'operation_log',
];
async function fingerprint(): Promise<Record<string, string>> {
  const prints: Record<string, string> = {};
  for (const table of WATCHED) {
    const [row] = await lims.db.query<{ h: string }>(
      `select count(*)::text || ':' || md5(coalesce(string_agg(t::text, '|' order by t::text), '')) as h from ${table} t`,
    );
    prints[table] = row!.h;
  }
  return prints;
}

describe("another organisation's administrator, on the capabilities' own calls", () => {
  const idRoutes = () =>
    routes.filter((r) => /:\w+/.test(r.url) && !r.url.includes(':resource')).map((r) => `${r.method} ${r.url}`);

  it('has every route whose path names something listed: a record of the lab to try, or why none applies', () => {
    const unlisted = idRoutes().filter((key) => !(key in RECORD_OF) && !(key in NOT_A_RECORD));
    expect(unlisted).toEqual([]);
    // A route removed leaves no stale line behind.
    expect(Object.keys({ ...RECORD_OF, ...NOT_A_RECORD }).filter((k) => !idRoutes().includes(k))).toEqual([]);
  });

  /** The demo lab runs no process: one is deployed and started as its administrator would. */
  async function startProcessInMainLab() {
    const as = (method: string, url: string, payload?: object | string, type = 'application/json') =>
      lims.app.inject({
        method: method as 'GET',
        url,
        headers: { authorization: `Bearer ${tokens.admin}`, 'content-type': type },
        ...(payload !== undefined && { payload }),
      });
    const key = 'accessProbe';
    const created = (await as('POST', '/api/workflow/model/insert', { key, name: key, category: 3 })).json() as {
      resultObject: { id: string };
    };
    const id = created.resultObject.id;
    const xml = modelXml(
      key,
      '越权探测',
      [
        { id: 'start', kind: 'startEvent' },
        { id: 'check', kind: 'userTask', name: '核对' },
        { id: 'end', kind: 'endEvent' },
      ],
      [
        { id: 'f1', from: 'start', to: 'check' },
        { id: 'f2', from: 'check', to: 'end' },
      ],
    );
    const form = new URLSearchParams({ bpmn_xml: xml, svg_xml: '' }).toString();
    expect(
      (await as('POST', `/api/workflow/model/${id}/xml/save`, form, 'application/x-www-form-urlencoded')).statusCode,
    ).toBe(200);
    expect((await as('GET', `/api/workflow/model/deploy?modelId=${id}`)).json()).toMatchObject({ resultCode: 200 });
    expect((await as('POST', '/api/workflow/process/start', { modelKey: key })).json()).toMatchObject({
      resultCode: 200,
    });
  }

  it("is refused (403 or 404) every such call on the main lab's own record, and changes nothing", async () => {
    await startProcessInMainLab();
    const calls: Call[] = [];
    for (const key of idRoutes().filter((k) => k in RECORD_OF)) {
      const [method, url] = key.split(' ') as [string, string];
      const source = RECORD_OF[key]!;
      const sql =
        source.id === 'active task' ? ACTIVE_TASK : source.id === 'running instance' ? RUNNING_INSTANCE : source.id;
      const [row] = await lims.db.query<{ id: string }>(sql);
      expect(row, `${key}: the demo lab has no record to try`).toBeDefined();
      calls.push({ method, url: url.replace(/:\w+/, row!.id), body: source.body });
    }
    expect(calls.length).toBeGreaterThanOrEqual(30);
    const before = await fingerprint();
    for (const account of ['onlyadmin', 'lab2admin']) {
      const wrong = await unrefused(calls, [403, 404], tokens[account]);
      expect(wrong, account).toEqual([]);
      refused.otherOrg += calls.length;
    }
    expect(await fingerprint()).toEqual(before);
    // The records were real: the lab's own administrator reaches each of them (the demo's reports
    // were seeded without a file, so their PDF call answers that there is none: 400, not 404).
    const reads = calls.filter((c) => c.method === 'GET');
    const owner = await Promise.all(reads.map(async (c) => ({ c, status: (await send(c, tokens.admin)).status })));
    const expected = (c: Call) => (c.url.endsWith('/pdf') ? 400 : 200);
    expect(owner.map(({ c, status }) => `${c.url}: ${status}`)).toEqual(reads.map((c) => `${c.url}: ${expected(c)}`));
  }, 180_000);
});
