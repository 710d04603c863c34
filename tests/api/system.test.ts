import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, DEMO_PASSWORD, type TestServer } from '../support/server';
import { api, login, tokenFor } from '../support/client';

/** System maintenance: roles and their menus, users and their lock, the operation log. */
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
  userAccount: string;
  resource: string;
  action: string;
  after: string | null;
}

let server: TestServer;
const as = async (account: string) => api(server.url, await tokenFor(server.url, account, DEMO_PASSWORD));
const ids = (nodes: MenuNode[]): number[] => nodes.flatMap((n) => [...(n.meta.id ? [n.meta.id] : []), ...ids(n.children ?? [])]);

beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server?.dispose());

describe('roles and menu assignment', () => {
  it('gives a new role the ticked menus with their sections, and its users see exactly those', async () => {
    const admin = await as('admin');
    const role = (await admin.post<RoleRow>('/api/resources/role', { name: '前台录入员', code: 'editor' })).body.resultObject;
    expect((await admin.post('/api/resources/role', { name: '前台录入员', code: 'editor' })).status).toBe(400);
    const user = await admin.post<UserRow>('/api/resources/user', {
      userAccount: 'qiantai01',
      userName: '王晓燕',
      password: 'Front@2026x',
      roleIds: [role.id],
    });
    expect(user.status).toBe(200);
    const token = await tokenFor(server.url, 'qiantai01', 'Front@2026x');
    const menuOf = async () => ids((await api(server.url, token).get<{ routes: MenuNode[] }>('/api/ui/menu')).body.resultObject.routes);
    expect(await menuOf()).toEqual([]);

    const assigned = await admin.put<RoleRow>(`/api/resources/roleMenu/${role.id}`, { menuIds: [20901, 20902], version: 0 });
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
    const roles = (await admin.get<Page<RoleRow & { code: string }>>('/api/resources/role?code=editor')).body.resultObject.records;
    const created = await admin.post('/api/resources/user', { userAccount: 'suoding01', userName: '李明', password: 'Lock@2026x', roleIds: [roles[0]!.id] });
    expect(created.body.resultMessage).toBe('success');
    for (let i = 0; i < 5; i++) await login(server.url, 'suoding01', 'wrong-Pass1');
    expect((await login(server.url, 'suoding01', 'Lock@2026x')).status).not.toBe(200);
    const row = (await admin.get<Page<UserRow>>('/api/resources/user?userAccount=suoding01')).body.resultObject.records[0]!;
    expect(row.locked).toBe(true);
    const saved = await admin.put<UserRow>(`/api/resources/user/${row.id}`, { ...row, locked: false });
    expect(saved.body.resultMessage).toBe('success');
    expect(saved.body.resultObject.locked).toBe(false);
    expect((await login(server.url, 'suoding01', 'Lock@2026x')).status).toBe(200);
  });

  it('refuses a weak first password and creates nothing', async () => {
    const admin = await as('admin');
    const res = await admin.post('/api/resources/user', { userAccount: 'ruomima', userName: '赵六', password: 'abcdefgh', roleIds: [1] });
    expect(res.status).toBe(400);
    expect((await admin.get<Page<UserRow>>('/api/resources/user?userAccount=ruomima')).body.resultObject.total).toBe(0);
  });
});

describe('operation log', () => {
  it('shows writes with who and what, exports them to Excel, and logs its own emptying', async () => {
    const admin = await as('admin');
    const log = (await admin.get<Page<LogRow>>('/api/resources/operationLog?resource=role')).body.resultObject.records;
    expect(log.some((r) => r.userAccount === 'admin' && r.action === 'assignMenus')).toBe(true);

    const res = await fetch(`${server.url}/api/log/exportExcel`, {
      method: 'POST',
      headers: { authorization: `Bearer ${await tokenFor(server.url, 'admin', DEMO_PASSWORD)}`, 'content-type': 'application/json' },
      body: JSON.stringify({ resource: 'user' }),
    });
    expect(res.status).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(await res.arrayBuffer());
    const sheet = book.worksheets[0]!;
    expect(sheet.getRow(1).values).toContain('操作账号');
    expect(sheet.rowCount).toBeGreaterThan(1);

    expect((await (await as('editor')).delete('/api/log/deleteAll')).status).toBe(403);
    expect((await admin.delete<{ deleted: number }>('/api/log/deleteAll')).body.resultObject.deleted).toBeGreaterThan(0);
    const after = (await admin.get<Page<LogRow>>('/api/resources/operationLog')).body.resultObject.records;
    expect(after.map((r) => [r.userAccount, r.action])).toEqual([['admin', 'deleteAll']]);
    // Another laboratory's log is untouched.
    expect((await (await as('baseadmin')).get<Page<LogRow>>('/api/log/getLogList')).status).toBe(200);
  });
});
