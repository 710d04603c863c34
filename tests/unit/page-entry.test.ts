import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { http as mock, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { enterPages, ENTRY_ERRORS, resetSession } from '../../src/web/session/pageEntry';
import { buildRoutes, routeState } from '../../src/web/permissions/routes';
import { saveToken, session } from '../../src/web/auth/session';
import { userState } from '../../src/web/auth/user';
import { leafPaths } from '../../src/shared/menu/filter';
import type { MenuNode } from '../../src/shared/menu/types';

const title = (zh: string) => ({ 'zh-CN': zh, 'en-US': zh });
const TREE: MenuNode[] = [
  { path: '/dashboard', meta: { title: title('首页'), affix: true } },
  {
    path: '/lab',
    meta: { id: 2, title: title('实验室管理') },
    children: [
      {
        path: 'basic',
        meta: { id: 202, title: title('基础维护') },
        children: [
          { path: 'inspectionItem', meta: { id: 20201, title: title('检验项目') } },
          { path: 'inspectionPlace', meta: { id: 20202, title: title('检验地点') } },
          { path: 'remarks', meta: { id: 20203, title: title('备注字典'), roles: ['admin'] } },
        ],
      },
      {
        path: 'system',
        meta: { id: 201, title: title('系统维护'), roles: ['admin'] },
        children: [{ path: 'menu', meta: { id: 20101, roles: ['admin'], title: title('菜单维护') } }],
      },
    ],
  },
];

interface Info {
  roleList: { id: number; name: string; code: string; menuIds: string }[];
  disabledMenu: string;
  usePlace: boolean;
}
const role = (code: string, menuIds: string) => ({ id: 1, name: code, code, menuIds });
const info = (over: Partial<Info> = {}) => ({
  user: { id: 7, userAccount: 'u', userName: '用户', avatar: null, introduction: null, orgId: 1 },
  organization: { id: 1, name: '中心实验室', isMainLab: 1, isOnlyLab: 0 },
  roleList: [role('admin', '2,202,20201,20202,20203,201,20101')],
  permissionList: [],
  disabledMenu: '',
  usePlace: true,
  definitionBarcodeRule: 2,
  passwordFlag: 0,
  ...over,
});

let userInfo = info();
let labType: { isOnlyLab: number; isMainLab: number } = { isOnlyLab: 0, isMainLab: 1 };
let dictionaryStatus = 200;
const ok = (resultObject: unknown) => HttpResponse.json({ resultCode: 200, resultMessage: 'success', resultObject });

const server = setupServer(
  mock.get('*/api/dictionary/all', () =>
    dictionaryStatus === 200
      ? ok([{ id: 1, name: '分页', type: 'sys', details: [{ id: 1, label: '20', value: '20' }] }])
      : HttpResponse.json({ resultCode: 500, resultMessage: '字典服务不可用' }, { status: 500 }),
  ),
  mock.get('*/api/user/login', () => ok(userInfo)),
  mock.get('*/api/ui/menu', () => ok({ routes: TREE, denied: [] })),
  mock.get('*/api/organization/getUserLabType', () => ok(labType)),
);

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
beforeEach(() => {
  resetSession();
  saveToken(7, 'token-7');
  userInfo = info();
  labType = { isOnlyLab: 0, isMainLab: 1 };
  dictionaryStatus = 200;
});
afterEach(() => resetSession());
afterAll(() => server.close());

describe('route filtering (spec 6)', () => {
  it('keeps pages some role lists, minus the disabled ids', () => {
    const routes = buildRoutes(TREE, info({ roleList: [role('editor', '2,202,20201,20202')], disabledMenu: '20202' }));
    expect(leafPaths(routes)).toEqual(['/dashboard', '/lab/basic/inspectionItem']);
  });

  it('drops pages whose roles the user lacks even when a role lists their id', () => {
    const routes = buildRoutes(TREE, info({ roleList: [role('editor', '2,202,20201,20202,20203,201,20101')] }));
    expect(leafPaths(routes)).toEqual(['/dashboard', '/lab/basic/inspectionItem', '/lab/basic/inspectionPlace']);
  });

  it('drops inspectionPlace routes when the account does not use places', () => {
    const routes = buildRoutes(TREE, info({ usePlace: false }));
    expect(leafPaths(routes)).not.toContain('/lab/basic/inspectionPlace');
    expect(leafPaths(routes)).toContain('/lab/system/menu');
  });

  it('gives a user of several roles the union of their pages', () => {
    const routes = buildRoutes(TREE, info({ roleList: [role('editor', '2,202,20201'), role('admin', '201,20101')] }));
    expect(leafPaths(routes)).toEqual(['/dashboard', '/lab/basic/inspectionItem', '/lab/system/menu']);
  });
});

describe('page entry (spec 4, 8)', () => {
  it('loads dictionaries, user info, routes and lab type', async () => {
    await enterPages();
    expect(routeState.built).toBe(true);
    expect(userState.roles).toEqual(['admin']);
    expect(userState.isMainLab).toBe(1);
    expect(leafPaths(routeState.routes)).toContain('/lab/system/menu');
  });

  it.each([
    ['no role', () => (userInfo = info({ roleList: [] })), ENTRY_ERRORS.noRole],
    ['no pages', () => (userInfo = info({ roleList: [role('editor', '')] })), ENTRY_ERRORS.noPages],
    ['no lab', () => (labType = { isOnlyLab: 0, isMainLab: 7 }), ENTRY_ERRORS.noLab],
    ['dictionary failure', () => (dictionaryStatus = 500), '字典服务不可用'],
  ])('refuses %s with the spec message and resets the token', async (_, arrange, message) => {
    arrange();
    await expect(enterPages()).rejects.toThrow(message);
    expect(session.token).toBeUndefined();
    expect(routeState.built).toBe(false);
  });

  it('falls back to the generic message when user info fails without one', async () => {
    server.use(mock.get('*/api/user/login', () => HttpResponse.error()));
    await expect(enterPages()).rejects.toThrow(ENTRY_ERRORS.userInfo);
  });
});
