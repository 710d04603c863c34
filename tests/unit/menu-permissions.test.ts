import { describe, expect, it } from 'vitest';
import { parseIds, permittedMenuIds } from '../../src/server/kernel/identity/roles';
import { flattenMenus } from '../../src/shared/menu/types';
import { menuIdsFor } from '../../src/shared/menu/types';

describe('menu permissions (spec 6)', () => {
  it('opens the union of the roles menuIds minus the disabled ones', () => {
    const roles = [{ menuIds: '1,101,10101' }, { menuIds: '2, 201,20101,' }];
    expect(permittedMenuIds(roles, '101,201')).toEqual([1, 2, 10101, 20101]);
    expect(parseIds('a,3,,4.5,7')).toEqual([3, 7]);
  });

  it('joins nested paths and gives editors only what is not admin-only', () => {
    const tree = [
      {
        path: '/lab',
        meta: { id: 2, title: { 'zh-CN': '实验室', 'en-US': 'Lab' } },
        children: [
          {
            path: 'system',
            meta: { id: 201, roles: ['admin' as const], title: { 'zh-CN': '系统', 'en-US': 'System' } },
          },
          { path: 'basic', meta: { id: 202, title: { 'zh-CN': '基础', 'en-US': 'Basic' } } },
        ],
      },
    ];
    expect(flattenMenus(tree).map((m) => m.fullPath)).toEqual(['/lab', '/lab/system', '/lab/basic']);
    expect(menuIdsFor(tree, 'editor')).toEqual([2, 202]);
    expect(menuIdsFor(tree, 'admin')).toEqual([2, 201, 202]);
  });
});
