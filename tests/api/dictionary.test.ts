import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, DEMO_PASSWORD, type TestServer } from '../support/server';
import { api, tokenFor } from '../support/client';

interface Dictionary {
  id: number;
  name: string;
  type: string;
  orgId: number | null;
  details: { id: number; label: string; value: string }[];
}

let server: TestServer;
let admin: ReturnType<typeof api>;
beforeAll(async () => {
  server = await startServer();
  admin = api(server.url, await tokenFor(server.url, 'admin', DEMO_PASSWORD));
});
afterAll(() => server?.dispose());

describe('dictionaries (spec 7.4)', () => {
  it('keeps a lab business dictionary with its details', async () => {
    const created = await admin.post<Dictionary>('/api/dictionary', {
      name: '标本状态',
      type: 'bus',
      description: '标本流转状态',
    });
    expect(created.status).toBe(200);
    const id = created.body.resultObject.id;
    expect(created.body.resultObject.orgId).toBe(1);
    await admin.post(`/api/dictionary/${id}/detail/creating`, { label: '已接收', value: 'received', sort: 1 });
    const second = await admin.post<Dictionary & { detailId: number }>(`/api/dictionary/${id}/detail/creating`, {
      label: '已拒收',
      value: 'rejected',
      sort: 2,
    });
    await admin.post(`/api/dictionary/${id}/detail/updating`, {
      id: second.body.resultObject.detailId,
      label: '拒收',
      value: 'rejected',
      sort: 2,
    });
    const byName = await admin.get<Dictionary>(`/api/dictionary/${encodeURIComponent('标本状态')}/name`);
    expect(byName.body.resultObject.details.map((d) => d.label)).toEqual(['已接收', '拒收']);
    expect((await admin.delete(`/api/dictionary/detail/${second.body.resultObject.detailId}`)).status).toBe(200);
    expect((await admin.get<Dictionary>(`/api/dictionary/${id}`)).body.resultObject.details).toHaveLength(1);
    // The demo gives every lab business dictionaries of its own; this one is found by its name.
    const page = await admin.get<{ records: Dictionary[]; total: number }>(
      `/api/dictionary/getDiationary?type=bus&name=${encodeURIComponent('标本状态')}`,
    );
    expect(page.body.resultObject.records.map((d) => d.name)).toEqual(['标本状态']);
    const log = await admin.get<{ records: { resource: string; action: string; recordId: string }[] }>(
      '/api/log/getLogList?resource=dictionary',
    );
    expect(log.body.resultObject.records.filter((r) => r.recordId === String(id)).length).toBe(5);
    expect((await admin.delete(`/api/dictionary/${id}`)).status).toBe(200);
    expect((await admin.get(`/api/dictionary/${id}`)).status).toBe(404);
  });

  it("leaves system dictionaries to the base organisation and a lab's own to that lab", async () => {
    const paging = (await admin.get<Dictionary>(`/api/dictionary/${encodeURIComponent('分页')}/name`)).body
      .resultObject;
    expect((await admin.put('/api/dictionary', { id: paging.id, description: '改' })).status).toBe(403);
    expect((await admin.post('/api/dictionary', { name: '系统项', type: 'sys' })).status).toBe(403);
    const base = api(server.url, await tokenFor(server.url, 'baseadmin', DEMO_PASSWORD));
    expect(
      (await base.post(`/api/dictionary/${paging.id}/detail/creating`, { label: '1000', value: '1000', sort: 9 }))
        .status,
    ).toBe(200);
    const sizes = (await admin.get<Dictionary[]>('/api/dictionary/all')).body.resultObject.find(
      (d) => d.name === '分页',
    )!;
    expect(sizes.details.map((d) => d.value)).toEqual(['50', '100', '200', '500', '1000']);
    const mine = await admin.post<Dictionary>('/api/dictionary', { name: '本室字典', type: 'bus' });
    const lab2 = api(server.url, await tokenFor(server.url, 'lab2admin', DEMO_PASSWORD));
    expect((await lab2.get(`/api/dictionary/${mine.body.resultObject.id}`)).status).toBe(404);
    expect((await lab2.delete(`/api/dictionary/${mine.body.resultObject.id}`)).status).toBe(403);
    const editor = api(server.url, await tokenFor(server.url, 'editor', DEMO_PASSWORD));
    expect((await editor.post('/api/dictionary', { name: '编辑者', type: 'bus' })).status).toBe(403);
    expect((await admin.post('/api/dictionary', { name: '本室字典', type: 'bus' })).body.resultMessage).toBe(
      '字典名称已存在',
    );
  });
});
