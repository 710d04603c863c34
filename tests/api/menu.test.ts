import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, DEMO_PASSWORD, type TestServer } from '../support/server';
import { api, tokenFor } from '../support/client';
import { leafPaths } from '../../src/shared/menu/filter';
import type { MenuNode } from '../../src/shared/menu/types';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server?.dispose());

async function menuOf(account: string) {
  const client = api(server.url, await tokenFor(server.url, account, DEMO_PASSWORD));
  const res = await client.get<{ routes: MenuNode[]; denied: string[] }>('/api/ui/menu');
  expect(res.status).toBe(200);
  return { ...res.body.resultObject, paths: leafPaths(res.body.resultObject.routes), client };
}

describe('GET /api/ui/menu', () => {
  it('gives the admin every page, the system maintenance ones included', async () => {
    const { paths, denied } = await menuOf('admin');
    expect(paths).toContain('/dashboard');
    expect(paths).toContain('/laboratoryManager/system/menu');
    expect(paths).toContain('/laboratoryManager/basic/inspectionPlace');
    expect(denied).toEqual([]);
  });

  it('hides admin-only pages from the editor and names them as denied', async () => {
    const { paths, denied } = await menuOf('editor');
    expect(paths.some((p) => p.startsWith('/laboratoryManager/system/'))).toBe(false);
    expect(paths.some((p) => p.startsWith('/laboratoryManager/financialProcessing/'))).toBe(false);
    expect(denied).toContain('/laboratoryManager/system/menu');
    expect(paths).toContain('/laboratoryManager/basic/inspectionItem');
  });

  it('drops inspection places for a lab that does not use them', async () => {
    const { paths, denied } = await menuOf('lab3admin');
    expect(paths).not.toContain('/laboratoryManager/basic/inspectionPlace');
    expect(denied).toContain('/laboratoryManager/basic/inspectionPlace');
  });

  it("follows the user's disabled menu ids", async () => {
    const admin = api(server.url, await tokenFor(server.url, 'admin', DEMO_PASSWORD));
    const users = await admin.get<{ records: { id: number }[] }>('/api/user/getUser?userAccount=editor');
    const editorId = users.body.resultObject.records[0]!.id;
    // 202 is basic maintenance: the whole section and its pages go.
    expect((await admin.put('/api/user', { id: editorId, disabledMenuIds: '202' })).status).toBe(200);
    const { paths } = await menuOf('editor');
    expect(paths.some((p) => p.startsWith('/laboratoryManager/basic/'))).toBe(false);
    expect(paths).toContain('/dashboard');
  });
});

describe('GET /api/dictionary/all', () => {
  it('hands out the system dictionaries of the page-entry flow', async () => {
    const client = api(server.url, await tokenFor(server.url, 'editor', DEMO_PASSWORD));
    const res = await client.get<{ name: string; details: { value: string }[] }[]>('/api/dictionary/all');
    const byName = new Map(res.body.resultObject.map((d) => [d.name, d]));
    expect(byName.get('分页')!.details.map((d) => d.value)).toEqual(['50', '100', '200', '500']);
    expect(byName.has('查询时间范围')).toBe(true);
    expect(byName.has('财务时间范围')).toBe(true);
  });
});
