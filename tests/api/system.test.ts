import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, DEMO_PASSWORD, type TestServer } from '../support/server';
import { api, login, tokenFor } from '../support/client';

/** System maintenance: roles and their menus, users and their lock, departments, global config, the operation log. */
interface MenuNode {
  path: string;
  meta: { id?: number };
  children?: MenuNode[];
}
type Page<T> = { records: T[]; total: number };
interface RoleRow {
  id: number;
  name: string;
  menuIds: number[];
}
interface UserRow {
  id: number;
  version: number;
  userAccount: string;
  locked: boolean;
}
interface LogRow {
  at: string;
  userAccount: string;
  resource: string;
  recordId: string | null;
  action: string;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}
interface Saved {
  id: number;
  version: number;
}

let server: TestServer;
const as = async (account: string) => api(server.url, await tokenFor(server.url, account, DEMO_PASSWORD));
const ids = (nodes: MenuNode[]): number[] =>
  nodes.flatMap((n) => [...(n.meta.id ? [n.meta.id] : []), ...ids(n.children ?? [])]);

beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server?.dispose());

describe('roles and menu assignment', () => {
  it('gives a new role the ticked menus with their sections, and its users see exactly those', async () => {
    const admin = await as('admin');
    const role = (await admin.post<RoleRow>('/api/resources/role', { name: '前台录入员', code: 'editor' })).body
      .resultObject;
    expect((await admin.post('/api/resources/role', { name: '前台录入员', code: 'editor' })).status).toBe(400);
    const user = await admin.post<UserRow>('/api/resources/user', {
      userAccount: 'qiantai01',
      userName: '王晓燕',
      password: 'Front@2026x',
      roleIds: [role.id],
    });
    expect(user.status).toBe(200);
    const token = await tokenFor(server.url, 'qiantai01', 'Front@2026x');
    const menuOf = async () =>
      ids((await api(server.url, token).get<{ routes: MenuNode[] }>('/api/ui/menu')).body.resultObject.routes);
    expect(await menuOf()).toEqual([]);

    const assigned = await admin.put<RoleRow>(`/api/resources/roleMenu/${role.id}`, {
      menuIds: [20901, 20902],
      version: 0,
    });
    expect(assigned.body.resultObject.menuIds).toEqual([2, 209, 20901, 20902]);
    expect(await menuOf()).toEqual([2, 209, 20901, 20902]);
    await admin.put(`/api/resources/roleMenu/${role.id}`, { menuIds: [20902], version: 0 });
    expect(await menuOf()).toEqual([2, 209, 20902]);
  });

  it('keeps roles to administrators of their own laboratory', async () => {
    expect((await (await as('editor')).get('/api/resources/role')).status).toBe(403);
    const lab2 = await as('lab2admin');
    const names = (await lab2.get<Page<RoleRow>>('/api/resources/role')).body.resultObject.records.map((r) => r.name);
    expect(names).not.toContain('前台录入员');
  });
});

describe('users', () => {
  it('lets an administrator unlock an account that five wrong passwords locked', async () => {
    const admin = await as('admin');
    const roles = (await admin.get<Page<RoleRow & { code: string }>>('/api/resources/role?code=editor')).body
      .resultObject.records;
    const created = await admin.post('/api/resources/user', {
      userAccount: 'suoding01',
      userName: '李明',
      password: 'Lock@2026x',
      roleIds: [roles[0]!.id],
    });
    expect(created.body.resultMessage).toBe('success');
    for (let i = 0; i < 5; i++) await login(server.url, 'suoding01', 'wrong-Pass1');
    expect((await login(server.url, 'suoding01', 'Lock@2026x')).status).not.toBe(200);
    const row = (await admin.get<Page<UserRow>>('/api/resources/user?userAccount=suoding01')).body.resultObject
      .records[0]!;
    expect(row.locked).toBe(true);
    const saved = await admin.put<UserRow>(`/api/resources/user/${row.id}`, { ...row, locked: false });
    expect(saved.body.resultMessage).toBe('success');
    expect(saved.body.resultObject.locked).toBe(false);
    expect((await login(server.url, 'suoding01', 'Lock@2026x')).status).toBe(200);
  });

  it('refuses a weak first password and creates nothing', async () => {
    const admin = await as('admin');
    const res = await admin.post('/api/resources/user', {
      userAccount: 'ruomima',
      userName: '赵六',
      password: 'abcdefgh',
      roleIds: [1],
    });
    expect(res.status).toBe(400);
    expect((await admin.get<Page<UserRow>>('/api/resources/user?userAccount=ruomima')).body.resultObject.total).toBe(0);
  });
});

/** The log entries of one record, oldest first, as the operation log screen lists them (spec 7.7). */
async function logOf(resource: string, id: number): Promise<LogRow[]> {
  const log = (await (await as('admin')).get<Page<LogRow>>(`/api/log/getLogList?resource=${resource}`)).body
    .resultObject.records;
  return log.filter((r) => r.recordId === String(id)).reverse();
}

/** The editor may neither read nor write a screen the schema keeps to administrators. */
async function refusedToEditor(resource: string, id: number, record: object) {
  const editor = await as('editor');
  expect((await editor.get(`/api/resources/${resource}`)).status).toBe(403);
  expect((await editor.post(`/api/resources/${resource}`, record)).status).toBe(403);
  expect((await editor.put(`/api/resources/${resource}/${id}`, { ...record, version: 1 })).status).toBe(403);
}

describe('departments', () => {
  it('saves a department under its parent, reads it back, edits it with its version, keeps it from the editor and logs each write', async () => {
    const admin = await as('admin');
    const top = (await admin.get<Page<Saved & { code: string }>>('/api/resources/department?code=LAB')).body
      .resultObject.records[0]!;
    const department = { code: 'MICRO', name: '微生物室', parentId: top.id, head: '黄敏', phone: '8401', sort: 6 };
    const created = await admin.post<Saved>('/api/resources/department', department);
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const { id, version } = created.body.resultObject;

    const listed = (await admin.get<Page<Saved & typeof department>>('/api/resources/department?code=MICRO')).body
      .resultObject.records;
    expect(listed).toEqual([expect.objectContaining({ id, ...department, enabled: true })]);

    const edited = await admin.put<Saved & typeof department>(`/api/resources/department/${id}`, {
      ...department,
      head: '黄敏华',
      version,
    });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(edited.body.resultObject).toMatchObject({ head: '黄敏华', version: version + 1 });
    // The version edited must still be the stored one: a second save of the old version is refused.
    expect((await admin.put(`/api/resources/department/${id}`, { ...department, head: '旧值', version })).status).toBe(
      409,
    );
    expect((await admin.get<typeof department>(`/api/resources/department/${id}`)).body.resultObject.head).toBe(
      '黄敏华',
    );

    await refusedToEditor('department', id, { ...department, code: 'MICRO2', name: '微生物二室' });
    expect((await admin.get<Page<Saved>>('/api/resources/department?code=MICRO2')).body.resultObject.total).toBe(0);

    const log = await logOf('department', id);
    expect(log.map((r) => [r.userAccount, r.action])).toEqual([
      ['admin', 'create'],
      ['admin', 'update'],
    ]);
    expect(log[0]!.after).toMatchObject({ name: '微生物室', head: '黄敏' });
    expect(log[1]!.before).toMatchObject({ head: '黄敏' });
    expect(log[1]!.after).toMatchObject({ head: '黄敏华' });
    for (const entry of log) expect(Number.isNaN(Date.parse(entry.at))).toBe(false);
  });
});

describe('global config', () => {
  it('saves a setting, reads it back, changes its value with its version, keeps it from the editor and logs each write', async () => {
    const admin = await as('admin');
    const setting = {
      configKey: 'report.printCopies',
      name: '报告默认打印份数',
      valueType: 'number',
      value: '1',
      groupName: 'report',
    };
    const created = await admin.post<Saved>('/api/resources/globalConfig', setting);
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const { id, version } = created.body.resultObject;

    const listed = (
      await admin.get<Page<Saved & typeof setting>>('/api/resources/globalConfig?configKey=report.printCopies')
    ).body.resultObject.records;
    expect(listed).toEqual([expect.objectContaining({ id, ...setting })]);
    // The key is the name the product reads the setting by: a second one of the same key is refused.
    expect((await admin.post('/api/resources/globalConfig', { ...setting, name: '重复' })).status).toBe(400);

    const edited = await admin.put<Saved & typeof setting>(`/api/resources/globalConfig/${id}`, {
      ...setting,
      value: '2',
      version,
    });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(edited.body.resultObject).toMatchObject({ value: '2', version: version + 1 });
    expect((await admin.put(`/api/resources/globalConfig/${id}`, { ...setting, value: '3', version })).status).toBe(
      409,
    );
    expect((await admin.get<typeof setting>(`/api/resources/globalConfig/${id}`)).body.resultObject.value).toBe('2');

    await refusedToEditor('globalConfig', id, { ...setting, configKey: 'report.editorKey' });
    expect(
      (await admin.get<Page<Saved>>('/api/resources/globalConfig?configKey=report.editorKey')).body.resultObject.total,
    ).toBe(0);

    const log = await logOf('globalConfig', id);
    expect(log.map((r) => [r.userAccount, r.action])).toEqual([
      ['admin', 'create'],
      ['admin', 'update'],
    ]);
    expect(log[1]!.before).toMatchObject({ value: '1' });
    expect(log[1]!.after).toMatchObject({ value: '2' });
    for (const entry of log) expect(Number.isNaN(Date.parse(entry.at))).toBe(false);
  });
});

describe('operation log', () => {
  it('shows writes with who and what, exports them to Excel, and logs its own emptying', async () => {
    const admin = await as('admin');
    const log = (await admin.get<Page<LogRow>>('/api/resources/operationLog?resource=role')).body.resultObject.records;
    expect(log.some((r) => r.userAccount === 'admin' && r.action === 'assignMenus')).toBe(true);

    const res = await fetch(`${server.url}/api/log/exportExcel`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${await tokenFor(server.url, 'admin', DEMO_PASSWORD)}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ resource: 'user' }),
    });
    expect(res.status).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(await res.arrayBuffer());
    const sheet = book.worksheets[0]!;
    expect(sheet.getRow(1).values).toContain('操作账号');
    expect(sheet.rowCount).toBeGreaterThan(1);

    expect((await (await as('editor')).delete('/api/log/deleteAll')).status).toBe(403);
    expect((await admin.delete<{ deleted: number }>('/api/log/deleteAll')).body.resultObject.deleted).toBeGreaterThan(
      0,
    );
    const after = (await admin.get<Page<LogRow>>('/api/resources/operationLog')).body.resultObject.records;
    expect(after.map((r) => [r.userAccount, r.action])).toEqual([['admin', 'deleteAll']]);
    // Another laboratory's log is untouched.
    expect((await (await as('baseadmin')).get<Page<LogRow>>('/api/log/getLogList')).status).toBe(200);
  });
});
