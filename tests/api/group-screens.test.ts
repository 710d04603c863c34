import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, DEMO_PASSWORD, type TestServer } from '../support/server';
import { api, tokenFor } from '../support/client';

/**
 * The screens of group management and system maintenance that sit on their own tables: organisation
 * structure, administrators, business and system dictionaries, menu maintenance; the public-platform
 * (basic) reads and group data analysis.
 */
type Rec = Record<string, unknown> & { id: number; version: number; labels?: Record<string, unknown> };
type Page = { records: Rec[]; total: number };
type Client = ReturnType<typeof api>;

let server: TestServer;
const clients = new Map<string, Client>();
async function as(account: string): Promise<Client> {
  if (!clients.has(account)) clients.set(account, api(server.url, await tokenFor(server.url, account, DEMO_PASSWORD)));
  return clients.get(account)!;
}
const list = async (account: string, path: string) => {
  const res = await (await as(account)).get<Page>(path);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.resultObject.records;
};
const logOf = async (resource: string) =>
  (await (await as('admin')).get<Page>(`/api/log/getLogList?resource=${resource}&size=200`)).body.resultObject.records;

beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server?.dispose());

describe('organisation structure (10101)', () => {
  it('shows the organisations the caller manages as a tree', async () => {
    const mine = await list('admin', '/api/resources/organization');
    expect(mine.map((o) => [o.id, o.parentId ?? null]).sort()).toEqual([
      [1, 0],
      [2, 1],
      [3, 1],
    ]);
    expect(mine.find((o) => o.id === 2)?.labels).toEqual({ parentId: '华康医学检验中心实验室' });
    expect((await list('baseadmin', '/api/resources/organization')).map((o) => o.id).sort()).toEqual([0, 1, 2, 3, 4]);
  });

  it('lets a main lab add a sub lab under it, but nothing else, and logs the change', async () => {
    const admin = await as('admin');
    const wrong = await admin.post('/api/resources/organization', {
      name: '测试中心',
      code: 'T-MAIN',
      labType: 'main',
      parentId: 1,
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.resultMessage).toBe('分实验室须设在中心实验室之下，中心实验室和独立实验室须设在基础机构之下');
    const created = await admin.post<Rec>('/api/resources/organization', {
      name: '华康温州分实验室',
      code: 'T-WZ',
      labType: 'sub',
      parentId: 1,
      usePlace: false,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const id = created.body.resultObject.id;
    expect((await list('admin', '/api/resources/organization')).map((o) => o.id)).toContain(id);
    const edited = await admin.put<Rec>(`/api/resources/organization/${id}`, {
      ...created.body.resultObject,
      address: '温州市鹿城区',
    });
    expect(edited.status).toBe(200);
    expect(edited.body.resultObject.address).toBe('温州市鹿城区');
    const stale = await admin.put(`/api/resources/organization/${id}`, {
      ...created.body.resultObject,
      address: '旧地址',
    });
    expect(stale.status).toBe(409);
    const sub = await as('lab2admin');
    expect(
      (await sub.post('/api/resources/organization', { name: '测试', code: 'T-X', labType: 'sub', parentId: 2 }))
        .status,
    ).toBe(403);
    expect((await logOf('organization')).map((e) => [e.action, e.userAccount, e.recordId])).toEqual(
      expect.arrayContaining([
        ['create', 'admin', String(id)],
        ['update', 'admin', String(id)],
      ]),
    );
  });
});

describe('administrator maintenance (10102)', () => {
  it('lists the administrators of the managed organisations and adds one to a sub lab', async () => {
    const accounts = (await list('admin', '/api/resources/administrator')).map((a) => a.userAccount);
    expect(accounts).toEqual(expect.arrayContaining(['admin', 'lab2admin', 'lab3admin']));
    expect(accounts).not.toContain('baseadmin');
    expect(accounts).not.toContain('onlyadmin');
    const admin = await as('admin');
    const weak = await admin.post('/api/resources/administrator', {
      organizationId: 3,
      userAccount: 'nb-admin2',
      userName: '宁波副管理员',
      password: 'short',
    });
    expect(weak.status).toBe(400);
    const made = await admin.post<Rec>('/api/resources/administrator', {
      organizationId: 3,
      userAccount: 'nb-admin2',
      userName: '宁波副管理员',
      password: 'Nb@2026pass',
    });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    expect(made.body.resultObject).toMatchObject({
      organizationId: 3,
      userAccount: 'nb-admin2',
      labels: { organizationId: '华康宁波分实验室' },
    });
    const lab3 = (await (await as('lab3admin')).get<{ userAccount: string }[]>('/api/user/getAdmin')).body.resultObject;
    expect(lab3.map((u) => u.userAccount)).toContain('nb-admin2');
    // A sub lab's administrator sees its own lab's administrators only.
    expect((await list('lab2admin', '/api/resources/administrator')).map((a) => a.organizationId)).toEqual([2]);
    const own = (await list('admin', '/api/resources/administrator?userAccount=admin')).find(
      (a) => a.userAccount === 'admin',
    )!;
    expect((await (await as('lab2admin')).get(`/api/resources/administrator/${own.id}`)).status).toBe(404);
    // The account's creation is in the log, without its password.
    const entry = (await logOf('user')).find(
      (e) => e.action === 'create' && e.recordId === String(made.body.resultObject.id),
    );
    expect(entry).toMatchObject({ userAccount: 'admin', after: { userAccount: 'nb-admin2' } });
    expect(JSON.stringify(entry)).not.toContain('Nb@2026pass');
  });
});

describe('dictionaries with their entries (dictionary/{bus}, dictionary/{sys})', () => {
  it('keeps a business dictionary and its entries in one dialog, refusing a label twice', async () => {
    const demo = (await list('editor', '/api/resources/businessDictionary')).find((d) => d.name === '标本拒收原因');
    expect((demo?.details as Rec[]).map((d) => d.value)).toContain('HEMOLYSIS');
    const admin = await as('admin');
    const twice = await admin.post('/api/resources/businessDictionary', {
      name: '测试-采血管',
      details: [
        { label: '红头管', value: 'RED' },
        { label: '红头管', value: 'RED2' },
      ],
    });
    expect(twice.status).toBe(400);
    expect(twice.body.resultMessage).toBe('名称“红头管”已存在');
    expect((await list('admin', '/api/resources/businessDictionary?name=测试-采血管')).length).toBe(0);
    const made = (
      await admin.post<Rec>('/api/resources/businessDictionary', {
        name: '测试-采血管',
        description: '采血管颜色',
        details: [
          { label: '红头管', value: 'RED', sort: 1 },
          { label: '紫头管', value: 'PURPLE', sort: 2 },
        ],
      })
    ).body.resultObject;
    const edited = await admin.put<Rec>(`/api/resources/businessDictionary/${made.id}`, {
      ...made,
      details: [
        { label: '紫头管(EDTA)', value: 'PURPLE', sort: 1 },
        { label: '蓝头管', value: 'BLUE', sort: 2 },
      ],
    });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    const all = (
      await admin.get<{ name: string; details: { label: string; value: string }[] }[]>('/api/dictionary/all')
    ).body.resultObject;
    expect(all.find((d) => d.name === '测试-采血管')?.details.map((d) => [d.label, d.value])).toEqual([
      ['紫头管(EDTA)', 'PURPLE'],
      ['蓝头管', 'BLUE'],
    ]);
    expect((await logOf('dictionary')).filter((e) => e.recordId === String(made.id)).map((e) => e.action)).toEqual([
      'update',
      'create',
    ]);
  });

  it("reads the base organisation's business dictionaries on the public platform", async () => {
    const group = await as('baseadmin');
    expect(
      (
        await group.post('/api/resources/businessDictionary', {
          name: '测试-集团字典',
          details: [{ label: '甲', value: 'A' }],
        })
      ).status,
    ).toBe(200);
    expect(
      (await list('admin', '/api/resources/businessDictionary?basic=1&name=测试-集团')).map((d) => d.name),
    ).toEqual(['测试-集团字典']);
    expect(await list('admin', '/api/resources/businessDictionary?name=测试-集团')).toEqual([]);
  });

  it('lets every lab read the system dictionaries and only the base organisation change them', async () => {
    const pages = (await list('admin', '/api/resources/systemDictionary')).find((d) => d.name === '分页')!;
    expect((pages.details as Rec[]).map((d) => d.value)).toEqual(['50', '100', '200', '500']);
    const admin = await as('admin');
    expect((await admin.put(`/api/resources/systemDictionary/${pages.id}`, pages)).status).toBe(403);
    expect((await admin.post('/api/resources/systemDictionary', { name: '测试-系统', details: [] })).status).toBe(403);
    const group = await as('baseadmin');
    const changed = await group.put<Rec>(`/api/resources/systemDictionary/${pages.id}`, {
      ...pages,
      details: [...(pages.details as Rec[]), { label: '1000', value: '1000', sort: 4 }],
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    const all = (await admin.get<{ name: string; details: { value: string }[] }[]>('/api/dictionary/all')).body
      .resultObject;
    expect(all.find((d) => d.name === '分页')?.details.map((d) => d.value)).toEqual([
      '50',
      '100',
      '200',
      '500',
      '1000',
    ]);
    // Entries may share a value (several screens look back 7 days): an edit keeps each of them.
    const ranges = (await list('baseadmin', '/api/resources/systemDictionary')).find((d) => d.name === '查询时间范围')!;
    const before = (ranges.details as Rec[]).map((d) => [d.label, d.value]);
    expect(before.filter(([, v]) => v === '7').length).toBeGreaterThan(1);
    const saved = await group.put<Rec>(`/api/resources/systemDictionary/${ranges.id}`, {
      ...ranges,
      description: '各查询页面默认回看的天数',
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect((saved.body.resultObject.details as Rec[]).map((d) => [d.label, d.value])).toEqual(before);
  });
});

describe('menu maintenance (20101)', () => {
  it("edits a route's title and flags in the database; the menu tree follows; labs only read it", async () => {
    const rows = await list('admin', '/api/resources/menu');
    const route = rows.find((r) => r.path === '/laboratoryManager/basic/specimenType')!;
    expect(route).toMatchObject({ titleZh: '标本类型', metaId: 20208, roles: 'any' });
    expect(rows.find((r) => r.id === route.parentId)?.path).toBe('/laboratoryManager/basic');
    const admin = await as('admin');
    expect((await admin.put(`/api/resources/menu/${route.id}`, { ...route, titleZh: '偷改' })).status).toBe(403);
    const group = await as('baseadmin');
    const edited = await group.put<Rec>(`/api/resources/menu/${route.id}`, {
      ...route,
      titleZh: '标本类型维护',
      icon: 'ExperimentOutlined',
      keepAlive: false,
    });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect((await group.put(`/api/resources/menu/${route.id}`, { ...route, titleZh: '过期的编辑' })).status).toBe(409);
    const tree = JSON.stringify((await admin.get('/api/ui/menu')).body.resultObject);
    expect(tree).toContain('"标本类型维护"');
    expect(tree).toContain('"ExperimentOutlined"');
    const bad = await group.put(`/api/resources/menu/${route.id}`, {
      ...edited.body.resultObject,
      icon: 'not-an-icon',
    });
    expect(bad.status).toBe(400);
  });
});

describe('public platform basic maintenance (10201-10205)', () => {
  it("reads the base organisation's public rows with the basic flag, and writes stay the caller's own", async () => {
    const group = await as('baseadmin');
    expect(
      (await group.post('/api/resources/specimenType', { code: 'TSTB', name: '测试公共标本', category: 'other' }))
        .status,
    ).toBe(200);
    expect((await list('editor', '/api/resources/specimenType?basic=1&code=TSTB')).map((r) => r.code)).toEqual([
      'TSTB',
    ]);
    expect(await list('editor', '/api/resources/specimenType?code=TSTB')).toEqual([]);
  });
});

describe('group data analysis (104)', () => {
  it("puts each managed lab's figures side by side, for administrators", async () => {
    const all = await list('baseadmin', '/api/statistics/groupAnalysis');
    expect(all.map((r) => r.group)).toEqual(
      expect.arrayContaining(['华康医学检验中心实验室', '华康宁波分实验室', '华康杭州分实验室', '明安病理诊断中心']),
    );
    expect(all.map((r) => r.group)).not.toContain('华康医学检验集团（基础机构）');
    const main = await list('admin', '/api/statistics/groupAnalysis');
    expect(main.map((r) => r.group)).not.toContain('明安病理诊断中心');
    const row = main.find((r) => r.group === '华康医学检验中心实验室')!;
    expect(row).toMatchObject({ labType: 'main' });
    // Each lab's own figures (from its lifecycle facts), whoever asks: the base organisation sees the same.
    const { id: _id, ...figures } = row;
    expect(all.find((r) => r.group === '华康医学检验中心实验室')).toMatchObject(figures);
    expect(typeof row.specimens).toBe('number');
    expect((await (await as('editor')).get('/api/statistics/groupAnalysis')).status).toBe(403);
  });
});
