import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import ExcelJS from 'exceljs';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copySchemas, startServer, DEMO_PASSWORD, type TestServer } from '../support/server';
import { api, login, tokenFor } from '../support/client';
import { validateRecord } from '../../src/shared/screens/validate';
import { migrateScreen } from '../../src/shared/screens/migrate';
import type { ScreenSchema } from '../../src/shared/screens/fields';

interface Row {
  id: number;
  version: number;
  code: string;
  name: string;
  category: string;
  enabled?: boolean;
  volumeMl?: number;
}
interface Page {
  records: Row[];
  total: number;
  more?: boolean;
}
interface Invalid {
  errors: { field: string; message: string }[];
}

let server: TestServer;
let schemaDir: string;
let admin: ReturnType<typeof api>;
const base = '/api/resources/specimenType';

beforeAll(async () => {
  schemaDir = copySchemas();
  // These tests count specimen types from none: the demo rows of the screens stay out.
  rmSync(path.join(schemaDir, 'demo'), { recursive: true, force: true });
  // Lists count up to 4 rows here, so that a test can pass the cap (LIMS_LIST_COUNT_CAP, README).
  server = await startServer({ LIMS_SCHEMA_DIR: schemaDir, LIMS_LIST_COUNT_CAP: '4' });
  admin = api(server.url, await tokenFor(server.url, 'admin', DEMO_PASSWORD));
});
afterAll(() => server?.dispose());

const blood = {
  code: 'XY',
  name: '全血',
  pinyin: 'QX',
  category: 'blood',
  volumeMl: 2,
  storage: 'cold',
  stableHours: 24,
};

describe('generic resource: writes and validation', () => {
  it('creates a record with its defaults and answers id and version', async () => {
    const res = await admin.post<Row>(base, blood);
    expect(res.status).toBe(200);
    expect(res.body.resultObject).toMatchObject({ ...blood, enabled: true, version: 1 });
    expect(res.body.resultObject.id).toBeGreaterThan(0);
  });

  it("refuses a bad record with a message per field, in the caller's language, creating nothing", async () => {
    const bad = { code: 'X Y!', pinyin: '全', category: 'plasma', volumeMl: 2.55, stableHours: 1.5 };
    const zh = await admin.post<Invalid>(base, bad);
    expect(zh.status).toBe(400);
    const messages = Object.fromEntries(zh.body.resultObject.errors.map((e) => [e.field, e.message]));
    expect(messages).toEqual({
      code: '编码只能包含字母、数字、下划线和短横线',
      pinyin: '拼音码只能包含字母',
      category: '类别的值不在可选范围内',
      stableHours: '稳定时间(小时)必须是整数',
      name: '名称不能为空',
      volumeMl: '采集量(ml)最多保留1位小数',
    });
    const en = await api(server.url, await tokenFor(server.url, 'admin', DEMO_PASSWORD), 'en-US').post<Invalid>(base, {
      code: 'U1',
    });
    expect(en.body.resultObject.errors.map((e) => e.message)).toEqual(['Name is required', 'Category is required']);
    expect((await admin.get<Page>(base)).body.resultObject.total).toBe(1);
  });

  it.each(['zh-CN', 'en-US'] as const)(
    'answers in %s exactly what the browser says for the same record',
    async (locale) => {
      const screen = migrateScreen(
        JSON.parse(readFileSync(path.join(schemaDir, 'screens/specimen-type.json'), 'utf8')),
      ) as unknown as ScreenSchema;
      const bad = { code: '', name: 'x'.repeat(51), category: 'blood', volumeMl: -1, stableHours: 9999 };
      const browserSays = validateRecord(screen, bad, locale);
      const client = api(server.url, await tokenFor(server.url, 'admin', DEMO_PASSWORD), locale);
      const serverSays = (await client.post<Invalid>(base, bad)).body.resultObject.errors;
      expect(serverSays.map((e) => [e.field, e.message])).toEqual(browserSays.map((e) => [e.field, e.message]));
      expect(serverSays.length).toBe(4);
    },
  );

  it('refuses a second record with the same code in the organisation', async () => {
    const res = await admin.post(base, { ...blood, name: '另一个' });
    expect(res.status).toBe(400);
    expect(res.body.resultMessage).toBe('编码“XY”已存在');
  });

  it('refuses a stale version and keeps the newer data', async () => {
    const list = await admin.get<Page>(`${base}?code=XY`);
    const row = list.body.resultObject.records[0]!;
    const first = await admin.put<Row>(`${base}/${row.id}`, { ...row, name: '全血(EDTA)' });
    expect(first.status).toBe(200);
    expect(first.body.resultObject.version).toBe(2);
    const stale = await admin.put(`${base}/${row.id}`, { ...row, name: '旧的' });
    expect(stale.status).toBe(409);
    expect((await admin.get<Row>(`${base}/${row.id}`)).body.resultObject.name).toBe('全血(EDTA)');
  });

  it('keeps a code fixed once created (readOnlyOnEdit)', async () => {
    const row = (await admin.get<Page>(`${base}?code=XY`)).body.resultObject.records[0]!;
    const res = await admin.put<Row>(`${base}/${row.id}`, { ...row, code: 'CHANGED' });
    expect(res.body.resultObject.code).toBe('XY');
  });
});

describe('generic resource: lists', () => {
  beforeAll(async () => {
    const rows = [
      { code: 'NY', name: '尿液', category: 'urine', volumeMl: 10 },
      { code: 'BLZZ', name: '病理组织', category: 'tissue', volumeMl: 0.5, enabled: false },
      { code: 'XQ', name: '血清', category: 'blood', volumeMl: 3 },
      { code: 'XJ', name: '血浆', category: 'blood', volumeMl: 1 },
    ];
    for (const row of rows) expect((await admin.post(base, row)).status).toBe(200);
  });

  it('filters by contains and equals, sorts server-side and pages', async () => {
    const contains = (await admin.get<Page>(`${base}?name=${encodeURIComponent('血')}`)).body.resultObject;
    expect(contains.records.map((r) => r.code).sort()).toEqual(['XJ', 'XQ', 'XY']);
    const equals = (await admin.get<Page>(`${base}?category=blood&sort=volumeMl,desc`)).body.resultObject;
    expect(equals.records.map((r) => r.code)).toEqual(['XQ', 'XY', 'XJ']);
    const disabled = (await admin.get<Page>(`${base}?enabled=false`)).body.resultObject;
    expect(disabled.records.map((r) => r.code)).toEqual(['BLZZ']);
    const page2 = (await admin.get<Page>(`${base}?category=blood&sort=code,asc&page=2&size=2`)).body.resultObject;
    expect(page2).toMatchObject({ total: 3, records: [{ code: 'XY' }] });
    expect(page2.more).toBeUndefined();
  });

  it('stops counting past LIMS_LIST_COUNT_CAP rows and says there are more, paging on as before', async () => {
    const first = (await admin.get<Page>(`${base}?sort=code,asc&page=1&size=2`)).body.resultObject;
    expect(first).toMatchObject({ total: 4, more: true });
    expect(first.records.map((r) => r.code)).toEqual(['BLZZ', 'NY']);
    const second = (await admin.get<Page>(`${base}?sort=code,asc&page=2&size=2`)).body.resultObject;
    expect(second).toMatchObject({ total: 5, more: true });
    const last = (await admin.get<Page>(`${base}?sort=code,asc&page=3&size=2`)).body.resultObject;
    expect(last.records.map((r) => r.code)).toEqual(['XY']);
    expect(last).toMatchObject({ total: 5 });
    expect(last.more).toBeUndefined();
  });

  it('keeps each organisation to its own rows', async () => {
    const lab2 = api(server.url, await tokenFor(server.url, 'lab2admin', DEMO_PASSWORD));
    expect((await lab2.get<Page>(base)).body.resultObject.total).toBe(0);
    const id = (await admin.get<Page>(`${base}?code=NY`)).body.resultObject.records[0]!.id;
    expect((await lab2.get(`${base}/${id}`)).status).toBe(404);
    expect((await lab2.delete(`${base}/${id}`)).status).toBe(404);
    // The same code may exist in another organisation.
    expect((await lab2.post(base, { code: 'NY', name: '尿液', category: 'urine' })).status).toBe(200);
  });

  it('lets an editor read and export but not write', async () => {
    const editor = api(server.url, await tokenFor(server.url, 'editor', DEMO_PASSWORD));
    expect((await editor.get<Page>(base)).body.resultObject.total).toBe(5);
    expect((await editor.post(base, { code: 'E1', name: 'x', category: 'other' })).status).toBe(403);
    const id = (await admin.get<Page>(`${base}?code=NY`)).body.resultObject.records[0]!.id;
    expect((await editor.delete(`${base}/${id}`)).status).toBe(403);
  });

  it('deletes in batches, all or nothing', async () => {
    const ids = (await admin.get<Page>(`${base}?category=blood`)).body.resultObject.records.map((r) => r.id);
    const missing = await admin.post(`${base}/batchDelete`, { ids: [...ids, 999999] });
    expect(missing.status).toBe(404);
    expect((await admin.get<Page>(`${base}?category=blood`)).body.resultObject.total).toBe(3);
    const done = await admin.post(`${base}/batchDelete`, { ids: ids.slice(0, 2) });
    expect(done.status).toBe(200);
    expect((await admin.get<Page>(`${base}?category=blood`)).body.resultObject.total).toBe(1);
  });

  it('logs every write with who, what, before and after', async () => {
    const log = await admin.get<{
      records: { action: string; userAccount: string; resource: string; before: unknown; after: unknown }[];
    }>('/api/log/getLogList?resource=specimenType&size=100');
    const actions = log.body.resultObject.records.map((r) => r.action);
    expect(actions.filter((a) => a === 'create').length).toBe(5);
    expect(actions).toContain('update');
    expect(actions.filter((a) => a === 'delete').length).toBe(2);
    const update = log.body.resultObject.records.find(
      (r) => r.action === 'update' && (r.before as { name: string }).name === '全血',
    )!;
    expect(update.userAccount).toBe('admin');
    expect(update.before).toMatchObject({ name: '全血' });
    expect(update.after).toMatchObject({ name: '全血(EDTA)' });
  });
});

describe('generic resource: Excel', () => {
  async function sheet(rows: unknown[][]): Promise<Buffer> {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('s');
    for (const r of rows) ws.addRow(r);
    return Buffer.from(await wb.xlsx.writeBuffer());
  }
  const upload = (body: Buffer) =>
    fetch(`${server.url}${base}/import`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tokenPromise}`, 'content-type': 'application/octet-stream' },
      body: new Uint8Array(body),
    });
  let tokenPromise = '';
  beforeAll(async () => {
    tokenPromise = await tokenFor(server.url, 'admin', DEMO_PASSWORD);
  });

  it('exports the filtered list with labels as headers and values as shown', async () => {
    const res = await fetch(`${server.url}${base}/export.xlsx?sort=code,asc`, {
      headers: { authorization: `Bearer ${tokenPromise}` },
    });
    expect(res.status).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(await res.arrayBuffer());
    const ws = wb.worksheets[0]!;
    expect(ws.getRow(1).values).toEqual(expect.arrayContaining(['编码', '名称', '类别', '启用']));
    const codes = [2, 3, 4].map((n) => ws.getRow(n).getCell(1).value);
    expect(codes).toEqual(['BLZZ', 'NY', 'XY']);
    expect(ws.getRow(2).values).toEqual(expect.arrayContaining(['病理组织', '组织', '否']));
  });

  it.each([
    ['an equals filter, sorted', 'enabled=true&sort=code,desc', ['XY', 'NY']],
    ['a contains filter', `name=${encodeURIComponent('液')}`, ['NY']],
    ['filters that no row meets', 'enabled=false&category=blood', []],
  ])('exports only the rows the list shows under %s', async (_, query, codes) => {
    const listed = (await admin.get<Page>(`${base}?${query}`)).body.resultObject.records.map((r) => r.code);
    expect(listed).toEqual(codes);
    const res = await fetch(`${server.url}${base}/export.xlsx?${query}`, {
      headers: { authorization: `Bearer ${tokenPromise}` },
    });
    expect(res.status).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(await res.arrayBuffer());
    const ws = wb.worksheets[0]!;
    // The header and exactly the listed rows, in the list's order.
    expect(ws.rowCount).toBe(1 + codes.length);
    expect(Array.from({ length: codes.length }, (_, i) => ws.getRow(i + 2).getCell(1).value)).toEqual(codes);
  });

  it('refuses a sheet with bad rows, naming each row, and imports none of it', async () => {
    const body = await sheet([
      ['编码', '名称', '类别', '采集量(ml)'],
      ['FB', '粪便', '其他', 5],
      ['', '无编码', '其他', 1],
      ['FB', '重复', 'Other', 'many'],
    ]);
    const res = await upload(body);
    expect(res.status).toBe(400);
    const json = (await res.json()) as { resultObject: Invalid };
    expect(json.resultObject.errors.map((e) => e.message)).toEqual([
      '第3行：编码不能为空',
      '第4行：采集量(ml)必须是数字',
      '第4行：编码“FB”已存在 (2)',
    ]);
    expect((await admin.get<Page>(`${base}?code=FB`)).body.resultObject.total).toBe(0);
  });

  it('imports a good sheet whole', async () => {
    const res = await upload(
      await sheet([
        ['code', 'Name', '类别', '启用'],
        ['FB', '粪便', '其他', '是'],
        ['JY', '精液', 'Body fluid', '否'],
      ]),
    );
    expect(res.status).toBe(200);
    expect(((await res.json()) as { resultObject: { imported: number } }).resultObject.imported).toBe(2);
    const jy = (await admin.get<Page>(`${base}?code=JY`)).body.resultObject.records[0]!;
    expect(jy).toMatchObject({ name: '精液', category: 'fluid', enabled: false });
  });
  it("lists, exports and imports an enum kept in a business dictionary by its entries' labels", async () => {
    const dictionary = (await admin.post<{ id: number }>('/api/dictionary', { name: '测试-运输方式', type: 'bus' }))
      .body.resultObject;
    await admin.post(`/api/dictionary/${dictionary.id}/detail/creating`, { label: '冷链', value: 'COLD', sort: 1 });
    await admin.post(`/api/dictionary/${dictionary.id}/detail/creating`, { label: '常温', value: 'ROOM', sort: 2 });
    const shipment = {
      schemaVersion: 2,
      id: 'shipment',
      title: { 'zh-CN': '标本运输', 'en-US': 'Shipments' },
      resource: { name: 'shipment' },
      fields: [
        { key: 'name', type: 'text', label: { 'zh-CN': '批次', 'en-US': 'Batch' }, required: true },
        { key: 'mode', type: 'enum', label: { 'zh-CN': '运输方式', 'en-US': 'Mode' }, dictionary: '测试-运输方式' },
      ],
      actions: { toolbar: [{ kind: 'create' }, { kind: 'export' }, { kind: 'import' }] },
    };
    writeFileSync(path.join(schemaDir, 'screens', 'shipment.json'), JSON.stringify(shipment));
    await expect.poll(async () => (await admin.get('/api/ui/screens/shipment')).status, { timeout: 10_000 }).toBe(200);
    expect((await admin.post('/api/resources/shipment', { name: 'S1', mode: 'COLD' })).status).toBe(200);

    const listed = (
      await admin.get<{ records: { mode: string; labels: Record<string, string> }[] }>('/api/resources/shipment')
    ).body.resultObject.records;
    expect(listed.map((r) => [r.mode, r.labels.mode])).toEqual([['COLD', '冷链']]);
    const auth = { authorization: `Bearer ${tokenPromise}` };
    const exported = new ExcelJS.Workbook();
    await exported.xlsx.load(
      await (await fetch(`${server.url}/api/resources/shipment/export.xlsx`, { headers: auth })).arrayBuffer(),
    );
    expect(exported.worksheets[0]!.getRow(2).values).toEqual([undefined, 'S1', '冷链']);

    // The sheet a user fills in names the entries as they read them.
    const body = await sheet([
      ['批次', '运输方式'],
      ['S2', '常温'],
    ]);
    const res = await fetch(`${server.url}/api/resources/shipment/import`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/octet-stream' },
      body: new Uint8Array(body),
    });
    expect(res.status).toBe(200);
    const s2 = (await admin.get<{ records: { mode: string }[] }>('/api/resources/shipment?name=S2')).body.resultObject
      .records;
    expect(s2.map((r) => r.mode)).toEqual(['ROOM']);
  });
});

describe('screens from files', () => {
  const file = (name: string) => path.join(schemaDir, 'screens', name);
  const newScreen = {
    schemaVersion: 2,
    id: 'courier',
    menuId: 2020999,
    menu: { parentId: 202, path: 'courier' },
    title: { 'zh-CN': '物流人员', 'en-US': 'Couriers' },
    resource: { name: 'courier' },
    fields: [
      { key: 'name', type: 'text', label: { 'zh-CN': '姓名', 'en-US': 'Name' }, required: true },
      { key: 'phone', type: 'phone', label: { 'zh-CN': '电话', 'en-US': 'Phone' } },
    ],
    permissions: { read: ['admin'] },
  };

  it('serves a screen file added while running, to the roles it names only', async () => {
    writeFileSync(file('courier.json'), JSON.stringify(newScreen));
    await expect.poll(async () => (await admin.get('/api/ui/screens/courier')).status, { timeout: 10_000 }).toBe(200);
    const menu = await admin.get<{ routes: { path: string; children?: unknown[] }[] }>('/api/ui/menu');
    expect(JSON.stringify(menu.body.resultObject.routes)).toContain('"screen":"courier"');
    expect((await admin.post('/api/resources/courier', { name: '张师傅', phone: '13912345678' })).status).toBe(200);
    const bad = await admin.post('/api/resources/courier', { name: '李师傅', phone: '123' });
    expect(bad.body.resultMessage).toBe('请输入正确的手机号码');
    const editor = api(server.url, await tokenFor(server.url, 'editor', DEMO_PASSWORD));
    expect((await editor.get('/api/ui/screens/courier')).status).toBe(403);
    expect((await editor.get('/api/resources/courier')).status).toBe(403);
    const editorMenu = await editor.get('/api/ui/menu');
    expect(JSON.stringify(editorMenu.body.resultObject)).not.toContain('"screen":"courier"');
  });

  it('reports a broken file with its path and keeps serving the last good version', async () => {
    const broken = { ...newScreen, fields: [{ ...newScreen.fields[0], type: 'colour' }] };
    writeFileSync(file('courier.json'), JSON.stringify(broken));
    await expect
      .poll(
        async () => (await admin.get<{ file: string; path: string }[]>('/api/ui/screen-problems')).body.resultObject,
        { timeout: 10_000 },
      )
      .toEqual([
        expect.objectContaining({ file: `${path.basename(schemaDir)}/screens/courier.json`, path: '/fields/0/type' }),
      ]);
    const served = await admin.get<{ fields: { type: string }[] }>('/api/ui/screens/courier');
    expect(served.body.resultObject.fields[0]!.type).toBe('text');
  });

  it('takes a command only when the server implements its endpoint', async () => {
    const command = (endpoint: string) => ({
      ...newScreen,
      id: 'courier-check',
      resource: { name: 'courierCheck' },
      menu: undefined,
      menuId: undefined,
      actions: {
        row: [{ kind: 'command', name: 'evaluate', endpoint, label: { 'zh-CN': '评价', 'en-US': 'Evaluate' } }],
      },
    });
    writeFileSync(file('courier-check.json'), JSON.stringify(command('/api/qc/results/{id}/judge')));
    await expect
      .poll(
        async () =>
          (await admin.get<{ file: string; path: string; message: string }[]>('/api/ui/screen-problems')).body
            .resultObject,
        { timeout: 10_000 },
      )
      .toContainEqual({
        file: `${path.basename(schemaDir)}/screens/courier-check.json`,
        path: '/actions/row/0/endpoint',
        message: 'the server has no POST /api/qc/results/{id}/judge',
      });
    expect((await admin.get('/api/ui/screens/courier-check')).status).toBe(404);
    writeFileSync(file('courier-check.json'), JSON.stringify(command('/api/qc/results/{id}/evaluate')));
    await expect
      .poll(async () => (await admin.get('/api/ui/screens/courier-check')).status, { timeout: 10_000 })
      .toBe(200);
  });

  it('tells connected browsers which screens changed, as a message that is not an alert', async () => {
    const { body } = await login(server.url, 'editor', DEMO_PASSWORD);
    const userId = (body.principal as { id: number }).id;
    const socket = new WebSocket(
      `${server.url.replace(/^http/, 'ws')}/api/websocket/${userId}?token=${body.access_token}`,
    );
    const messages: unknown[] = [];
    socket.on('message', (data: Buffer) => messages.push(JSON.parse(data.toString())));
    await new Promise((resolve) => socket.once('open', resolve));
    try {
      // The socket is taken over once the server has checked the token; keep writing until it is heard.
      await expect
        .poll(
          () => {
            writeFileSync(
              file('courier.json'),
              JSON.stringify({ ...newScreen, description: `v${messages.length}-${Date.now()}` }),
            );
            return messages;
          },
          { timeout: 10_000, interval: 300 },
        )
        .toContainEqual({ topic: 'screens', ids: ['courier'] });
    } finally {
      socket.close();
    }
  });

  it('reads a version 1 file through the migration', async () => {
    const v1 = JSON.parse(readFileSync(file('specimen-type.json'), 'utf8')) as Record<string, unknown>;
    writeFileSync(
      file('legacy.json'),
      JSON.stringify({
        schemaVersion: 1,
        id: 'legacy',
        title: { 'zh-CN': '旧格式', 'en-US': 'Legacy' },
        resource: { name: 'legacyThing' },
        fields: [
          { key: 'name', type: 'text', label: { 'zh-CN': '名称', 'en-US': 'Name' }, filterable: true },
          { key: 'note', type: 'text', label: { 'zh-CN': '备注', 'en-US': 'Note' }, list: false },
        ],
      }),
    );
    expect(v1.schemaVersion).toBe(3);
    await expect.poll(async () => (await admin.get('/api/ui/screens/legacy')).status, { timeout: 10_000 }).toBe(200);
    const legacy = (
      await admin.get<{ filters: string[]; fields: { column?: boolean; filter?: string }[] }>('/api/ui/screens/legacy')
    ).body.resultObject;
    expect(legacy.filters).toEqual(['name']);
    expect(legacy.fields[1]!.column).toBe(false);
  });
});
