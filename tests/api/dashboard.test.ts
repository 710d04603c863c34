import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, login } from '../support/client';
import { DEMO_PASSWORD, startServer, type TestServer } from '../support/server';
import { openTab, type Tab } from '../support/pushSocket';
import { enterSpecimens } from '../support/specimens';
import { grantAuthority, idByName } from '../support/results';
import { createUser, STAFF_PASSWORD } from '../support/workflow';
import type { Dashboard, DashboardTile } from '../../src/shared/dashboard/types';

/**
 * The dashboard (issue 24): today's specimens by state, the user's open tasks, unacknowledged critical
 * values and today's QC, each counted from the database for the user's own lab, each a link to the
 * list it counts; a change to what it counts is news on the push channel.
 */
let server: TestServer;
const signedIn = new Map<string, { id: number; token: string }>();

async function signIn(account: string) {
  if (!signedIn.has(account)) {
    const password = account in STAFF ? STAFF_PASSWORD : DEMO_PASSWORD;
    const { status, body } = await login(server.url, account, password);
    const principal = body.principal as { id?: number } | undefined;
    if (status !== 200 || !body.access_token || !principal?.id) throw new Error(`login ${account} failed`);
    signedIn.set(account, { id: principal.id, token: body.access_token });
  }
  return signedIn.get(account)!;
}
const as = async (account: string) => api(server.url, (await signIn(account)).token, 'zh-CN');

async function dashboard(account: string): Promise<Dashboard> {
  const res = await (await as(account)).get<Dashboard>('/api/dashboard');
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.resultObject;
}
const tile = (d: Dashboard, key: string): DashboardTile | undefined =>
  d.sections.flatMap((s) => s.tiles).find((t) => t.key === key);
const count = async (account: string, key: string) => tile(await dashboard(account), key)?.count;

/** Staff made for these tests: a biochemistry tester (生化组) and a front-desk clerk holding no authority. */
const STAFF = { shenghua: '生化组', qiantai: undefined } as const;

/** A specimen entered on the everyday intake screen by the editor (histopathology unless a purpose is named). */
async function enterSpecimen(purposeName?: string): Promise<string> {
  const editor = await as('editor');
  const first = async (resource: string, query = '') =>
    (
      await editor.get<{ records: { id: number; name: string; category?: string }[] }>(
        `/api/resources/${resource}?size=100${query}`,
      )
    ).body.resultObject.records;
  const purposes = await first('inspectionPurpose');
  const purpose = purposes.find((p) => (purposeName ? p.name === purposeName : p.category === '3'))!;
  const res = await editor.post<{ barcode: string }>('/api/resources/specimen', {
    patientName: '看板测试',
    sex: 'male',
    age: 50,
    hospital: (await first('referralHospital'))[0]!.id,
    purposes: [purpose.id],
    specimenType: (await first('specimenType'))[0]!.id,
    collectedAt: '2026-11-24 08:00:00',
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.resultObject.barcode;
}

/** The next dashboard news a tab hears (alerts on the same channel passed over); a failure after 10 s of silence. */
async function nextNews(tab: Tab): Promise<Record<string, unknown>> {
  for (;;) {
    const silence = new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error('no dashboard news within 10 s')), 10_000).unref(),
    );
    const news = JSON.parse(await Promise.race([tab.nextMessage(), silence])) as Record<string, unknown>;
    if ('topic' in news) return news;
  }
}

/**
 * The rows a count's link lists, as the browser asks for them: a period `from,to` is the list's
 * keyFrom / keyTo, its last day whole.
 */
async function listedBy(account: string, link: NonNullable<DashboardTile['link']>): Promise<number> {
  const resource = { 'front-entry': 'specimen', 'general-inspection': 'inspectionResult', 'qc-result': 'qcResult' }[
    link.screen
  ];
  const params = new URLSearchParams({ size: '1' });
  for (const [key, value] of Object.entries(link.query)) {
    const period = /^(\d{4}-\d{2}-\d{2}),(\d{4}-\d{2}-\d{2})$/.exec(value);
    if (!period) params.set(key, value);
    else {
      params.set(`${key}From`, period[1]!);
      params.set(`${key}To`, `${period[2]} 23:59:59`);
    }
  }
  const res = await (await as(account)).get<{ total: number }>(`/api/resources/${resource}?${params}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.resultObject.total;
}

beforeAll(async () => {
  server = await startServer();
  const admin = await as('admin');
  const roles = (await admin.get<{ records: { id: number; code: string }[] }>('/api/resources/role?size=100')).body
    .resultObject.records;
  const editorRole = roles.find((r) => r.code === 'editor')!.id;
  for (const [account, group] of Object.entries(STAFF)) {
    await createUser(admin, account, [editorRole]);
    if (group)
      await grantAuthority(admin, account, await idByName(admin, 'professionalGroup', group), { canTest: true });
  }
});
afterAll(() => server?.dispose());

describe('GET /api/dashboard', () => {
  it('answers the sections in order, each count a link to the list it counts, in both languages', async () => {
    const d = await dashboard('editor');
    expect(d.day).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(d.sections.map((s) => s.key)).toEqual(['specimens', 'tasks', 'results', 'qc']);
    const registered = tile(d, 'specimens.registered')!;
    expect(registered.label).toEqual({ 'zh-CN': '已登记', 'en-US': expect.any(String) });
    expect(registered.link).toMatchObject({ screen: 'front-entry', query: { status: 'registered' } });
    expect(registered.link!.menuId).toEqual(expect.any(Number));
    expect(tile(d, 'results.critical')!.link).toMatchObject({
      screen: 'general-inspection',
      query: { critical: 'true' },
    });
    expect(tile(d, 'qc.reject')!.link!.query).toEqual({
      status: 'reject',
      runAt: `${d.day},${d.day}`,
      plan: expect.stringMatching(/^\d+(,\d+)+$/),
    });
  });

  it("counts a specimen entered now in its lab's day and state, and its process's first task, never in another lab", async () => {
    const before = {
      entered: await count('editor', 'specimens.entered'),
      registered: await count('editor', 'specimens.registered'),
      tasks: await count('editor', 'tasks.open'),
      otherLab: await count('lab2admin', 'specimens.entered'),
    };
    await enterSpecimen();
    expect(await count('editor', 'specimens.entered')).toBe(before.entered! + 1);
    expect(await count('editor', 'specimens.registered')).toBe(before.registered! + 1);
    // The process starts once the entry is committed: its first task follows a moment later.
    await expect.poll(() => count('editor', 'tasks.open')).toBe(before.tasks! + 1);
    expect(await count('lab2admin', 'specimens.entered')).toBe(before.otherLab);
  });

  it("counts for a worker the specimens, results and QC of their own groups; the front desk counts the lab's", async () => {
    const before = {
      biochemistry: await count('shenghua', 'specimens.entered'),
      desk: await count('qiantai', 'specimens.entered'),
    };
    await enterSpecimen('肝功能');
    await enterSpecimen();
    expect(await count('shenghua', 'specimens.entered')).toBe(before.biochemistry! + 1);
    expect(await count('qiantai', 'specimens.entered')).toBe(before.desk! + 2);

    const tester = await dashboard('shenghua');
    const groups = (d: Dashboard) => d.sections.map((s) => [s.key, s.groups]);
    expect(groups(tester)).toEqual([
      ['specimens', ['生化组']],
      ['tasks', undefined],
      ['results', ['生化组']],
      ['qc', ['生化组']],
    ]);
    expect(tile(tester, 'results.critical')!.link!.query.professionalGroup).toBe(
      String(await idByName(await as('admin'), 'professionalGroup', '生化组')),
    );
    expect((await dashboard('qiantai')).sections.every((s) => s.groups === undefined)).toBe(true);
  });

  it('lists behind every count exactly the rows it counted', async () => {
    await enterSpecimen('肝功能');
    for (const account of ['shenghua', 'qiantai', 'editor']) {
      const tiles = (await dashboard(account)).sections.flatMap((s) => s.tiles).filter((t) => t.link);
      expect(tiles.length).toBeGreaterThan(5);
      for (const t of tiles) expect(await listedBy(account, t.link!), `${account} ${t.key}`).toBe(t.count);
    }
  });

  it("tells the lab's open dashboards through the push channel that their counts changed", async () => {
    const editor = await signIn('editor');
    const tab = await openTab(server.url, editor.id, editor.token);
    try {
      await enterSpecimen();
      // The new task's alert ("新任务") comes on the same channel; the news is the message with a topic.
      let news: Record<string, unknown> = {};
      while (!('topic' in news)) news = JSON.parse(await tab.nextMessage()) as Record<string, unknown>;
      expect(news).toEqual({ topic: 'dashboard', orgId: 1 });
    } finally {
      tab.socket.close();
    }
  });

  it('tells them too when specimens move by a step of another record: a handover sending them', async () => {
    const admin = await as('admin');
    const [barcode] = await enterSpecimens(admin, 1);
    const { id, token } = await signIn('admin');
    // Opened after the entry answered: the entry's own news was sent before, and is not in this tab.
    const tab = await openTab(server.url, id, token);
    try {
      const sent = await admin.post<{ id: number }>('/api/resources/handoverRecord', {
        fromSite: '前处理组',
        toGroup: 'bio',
        storage: 'cold',
        barcodes: barcode,
      });
      expect(sent.status, JSON.stringify(sent.body)).toBe(200);
      const specimen = await admin.get<{ records: { status: string }[] }>(`/api/resources/specimen?barcode=${barcode}`);
      expect(specimen.body.resultObject.records[0]?.status).toBe('inTransit');
      expect(await nextNews(tab)).toEqual({ topic: 'dashboard', orgId: 1 });
    } finally {
      tab.socket.close();
    }
  });

  it('refuses a caller who is not signed in', async () => {
    expect((await api(server.url).get('/api/dashboard')).status).toBe(401);
  });
});
