import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, DEMO_PASSWORD, type TestServer } from '../support/server';
import { api, login, tokenFor } from '../support/client';

interface User {
  id: number;
  userAccount: string;
  orgId: number;
  passwordFlag: number;
  roles: string[];
  roleIds: number[];
}

let server: TestServer;
let admin: ReturnType<typeof api>;
beforeAll(async () => {
  server = await startServer();
  admin = api(server.url, await tokenFor(server.url, 'admin', DEMO_PASSWORD));
});
afterAll(() => server?.dispose());

async function userId(account: string): Promise<number> {
  const res = await admin.get<{ records: User[] }>(`/api/user/getUser?userAccount=${account}&orgId=`);
  const user = res.body.resultObject.records.find((u) => u.userAccount === account);
  if (!user) throw new Error(`no user ${account}`);
  return user.id;
}

describe('page-entry information', () => {
  it('GET /api/user/login gives organisation, roles, permissions and the lab settings', async () => {
    const res = await admin.get<Record<string, unknown>>('/api/user/login');
    expect(res.status).toBe(200);
    const info = res.body.resultObject as {
      organization: { id: number; isMainLab: number };
      roleList: { code: string; menuIds: string }[];
      permissionList: number[];
      user: User;
      usePlace: boolean;
      definitionBarcodeRule: number;
      passwordFlag: number;
    };
    expect(info.organization).toMatchObject({ id: 1, isMainLab: 1 });
    expect(info.roleList.map((r) => r.code)).toEqual(['admin']);
    expect(info.roleList[0]!.menuIds).toMatch(/^\d+(,\d+)+$/);
    expect(info.permissionList.length).toBeGreaterThan(50);
    expect(info.user.userAccount).toBe('admin');
    expect(info.usePlace).toBe(true);
    expect(info.definitionBarcodeRule).toBe(2);
    expect(info.passwordFlag).toBe(0);
  });

  it('tells the lab type of each kind of organisation as 0/1 flags', async () => {
    const type = async (account: string) =>
      (
        await api(server.url, await tokenFor(server.url, account, DEMO_PASSWORD)).get(
          '/api/organization/getUserLabType',
        )
      ).body.resultObject;
    expect(await type('admin')).toEqual({ isOnlyLab: 0, isMainLab: 1 });
    expect(await type('lab2admin')).toEqual({ isOnlyLab: 0, isMainLab: 0 });
    expect(await type('onlyadmin')).toEqual({ isOnlyLab: 1, isMainLab: 0 });
    expect((await admin.get('/api/user/getOrgId')).body.resultObject).toBe(1);
  });
});

describe('authorisation', () => {
  it('refuses an editor on an admin call', async () => {
    const editor = api(server.url, await tokenFor(server.url, 'editor', DEMO_PASSWORD));
    const res = await editor.get('/api/user/getUser');
    expect(res.status).toBe(403);
    expect(res.body.resultMessage).toBe('没有权限执行此操作');
    const create = await editor.post('/api/user', { userAccount: 'sneaky', userName: 'x', password: 'Abc@12345' });
    expect(create.status).toBe(403);
  });

  it("refuses a lab's user on another organisation's rows", async () => {
    const lab2 = api(server.url, await tokenFor(server.url, 'lab2admin', DEMO_PASSWORD));
    const adminId = await userId('admin');
    expect((await lab2.get(`/api/user/${adminId}`)).status).toBe(403);
    expect((await lab2.put('/api/user', { id: adminId, userName: 'hijacked' })).status).toBe(403);
    expect((await lab2.delete(`/api/user/${adminId}`)).status).toBe(403);
    expect((await lab2.get(`/api/user/unlockUser?id=${adminId}`)).status).toBe(403);
    // The list only ever shows their own organisation.
    const list = await lab2.get<{ records: User[] }>('/api/user/getUser');
    expect(list.body.resultObject.records.every((u) => u.orgId === 2)).toBe(true);
    expect((await admin.get<User>(`/api/user/${adminId}`)).body.resultObject.userAccount).toBe('admin');
  });

  it('lets the main lab manage its sub labs but not a sibling only-lab', async () => {
    expect((await admin.get(`/api/user/${await userId('lab2admin')}`)).status).toBe(200);
    const base = api(server.url, await tokenFor(server.url, 'baseadmin', DEMO_PASSWORD));
    const onlyAdmin = (await base.get<{ records: User[] }>('/api/user/getUser?userAccount=onlyadmin')).body.resultObject
      .records[0]!;
    expect((await admin.get(`/api/user/${onlyAdmin.id}`)).status).toBe(403);
  });
});

describe('users', () => {
  it('creates an account that must change its password at first sign-in', async () => {
    const roles = (await admin.get<{ id: number; code: string }[]>('/api/user/getRoleByOrgId?orgId=1')).body
      .resultObject;
    const editorRole = roles.find((r) => r.code === 'editor')!;
    const created = await admin.post<User>('/api/user', {
      userAccount: ' zhangsan ',
      userName: '张三',
      phone: '13912345678',
      password: 'Start@2026',
      roleIds: [editorRole.id],
    });
    expect(created.status).toBe(200);
    expect(created.body.resultObject).toMatchObject({
      userAccount: 'zhangsan',
      orgId: 1,
      passwordFlag: 1,
      roles: ['editor'],
    });
    const signIn = await login(server.url, 'zhangsan', 'Start@2026');
    expect((signIn.body.principal as { passwordFlag: number }).passwordFlag).toBe(1);

    const again = await admin.post('/api/user', { userAccount: 'zhangsan', userName: '张三', password: 'Start@2026' });
    expect(again.status).toBe(409);
    expect(again.body.resultMessage).toBe('账号已存在');
  });

  it('refuses a bad phone number and a weak password, creating nothing', async () => {
    const phone = await admin.post('/api/user', {
      userAccount: 'lisi',
      userName: '李四',
      phone: '12345678901',
      password: 'Start@2026',
    });
    expect(phone.status).toBe(400);
    expect(phone.body.resultMessage).toBe('请输入正确的手机号码');
    const weak = await admin.post('/api/user', { userAccount: 'lisi', userName: '李四', password: 'short' });
    expect(weak.status).toBe(400);
    expect(weak.body.resultMessage).toBe('密码是数字、大小写字母、特殊字符三种及以上组合,且长度8-15位');
    const list = await admin.get<{ total: number }>('/api/user/getUser?userAccount=lisi');
    expect(list.body.resultObject.total).toBe(0);
  });

  it('refuses a stale version instead of overwriting', async () => {
    const id = await userId('editor');
    const current = (await admin.get<User & { version: number }>(`/api/user/${id}`)).body.resultObject;
    expect((await admin.put('/api/user', { id, userName: '王检验（改）', version: current.version })).status).toBe(200);
    const stale = await admin.put('/api/user', { id, userName: '旧版本', version: current.version });
    expect(stale.status).toBe(409);
    expect((await admin.get<{ userName: string }>(`/api/user/${id}`)).body.resultObject.userName).toBe('王检验（改）');
  });

  it('resets a password: the account must change it again and its sessions end', async () => {
    const id = await userId('lab2admin');
    const lab2Token = await tokenFor(server.url, 'lab2admin', DEMO_PASSWORD);
    expect((await admin.put('/api/user', { id, password: 'Reset@2026' })).status).toBe(200);
    expect((await api(server.url, lab2Token).get('/api/user/me')).status).toBe(401);
    const signIn = await login(server.url, 'lab2admin', 'Reset@2026');
    expect((signIn.body.principal as { passwordFlag: number }).passwordFlag).toBe(1);
  });

  it('keeps administrators per organisation (createAdmin / getAdmin / updateAdmin)', async () => {
    const base = api(server.url, await tokenFor(server.url, 'baseadmin', DEMO_PASSWORD));
    const created = await base.post<User>('/api/user/createAdmin', {
      orgId: 3,
      userAccount: 'nbadmin2',
      userName: '宁波第二管理员',
      password: 'Admin@2026',
    });
    expect(created.status).toBe(200);
    expect(created.body.resultObject).toMatchObject({ orgId: 3, roles: ['admin'], passwordFlag: 1 });
    const admins = (await base.get<User[]>('/api/user/getAdmin?orgId=3')).body.resultObject;
    expect(admins.map((u) => u.userAccount).sort()).toEqual(['lab3admin', 'nbadmin2']);
    const updated = await base.post<{ userName: string }>('/api/user/updateAdmin', {
      id: created.body.resultObject.id,
      userName: '宁波管理员乙',
    });
    expect(updated.body.resultObject.userName).toBe('宁波管理员乙');
    const lab2 = api(server.url, await tokenFor(server.url, 'onlyadmin', DEMO_PASSWORD));
    expect((await lab2.get('/api/user/getAdmin?orgId=3')).status).toBe(403);
  });

  it('deletes a user, but never the one signed in', async () => {
    const self = await admin.delete(`/api/user/${await userId('admin')}`);
    expect(self.status).toBe(400);
    expect(self.body.resultMessage).toBe('不能删除当前登录的账号');
    const id = await userId('zhangsan');
    expect((await admin.delete(`/api/user/${id}`)).status).toBe(200);
    expect((await admin.get(`/api/user/${id}`)).status).toBe(404);
  });
});

describe('organisations', () => {
  it('lets the base organisation add a lab and the main lab add a sub lab, with a unique code', async () => {
    const base = api(server.url, await tokenFor(server.url, 'baseadmin', DEMO_PASSWORD));
    const lab = await base.post<{ id: number; labType: string }>('/api/organization', {
      name: '华康温州实验室',
      code: 'HK-WZ',
      parentId: 0,
      labType: 'main',
    });
    expect(lab.status).toBe(200);
    expect(lab.body.resultObject.id).toBeGreaterThanOrEqual(100);
    const sub = await admin.post('/api/organization', {
      name: '华康绍兴分实验室',
      code: 'HK-SX',
      parentId: 1,
      labType: 'sub',
    });
    expect(sub.status).toBe(200);
    const dup = await admin.post('/api/organization', { name: '重复', code: 'HK-SX', parentId: 1, labType: 'sub' });
    expect(dup.status).toBe(409);
    expect(dup.body.resultMessage).toBe('机构编码已存在');
    const stranger = await admin.post('/api/organization', {
      name: '越权',
      code: 'HK-X',
      parentId: 0,
      labType: 'main',
    });
    expect(stranger.status).toBe(403);
    const all = (await admin.get<{ id: number }[]>('/api/organization/all')).body.resultObject.map((o) => o.id);
    expect(all).toEqual(expect.arrayContaining([1, 2, 3]));
    expect(all).not.toContain(4);
    const subs = (await admin.get<{ labType: string }[]>('/api/organization/allSubLaboratory')).body.resultObject;
    expect(subs.every((o) => o.labType === 'sub')).toBe(true);
    const renamed = await admin.put<{ name: string }>('/api/organization', { id: 2, name: '华康杭州分实验室（滨江）' });
    expect(renamed.body.resultObject.name).toBe('华康杭州分实验室（滨江）');
    const lab2 = api(server.url, await tokenFor(server.url, 'lab3admin', DEMO_PASSWORD));
    expect((await lab2.put('/api/organization', { id: 1, name: '越权' })).status).toBe(403);
  });
});
