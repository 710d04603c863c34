import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, DEMO_PASSWORD, type TestServer } from '../support/server';
import { api, tokenFor } from '../support/client';

interface Row {
  id: number;
  version: number;
  code: string;
  name: string;
  syncFlag: number;
  formId?: number;
}

/**
 * Public data (spec 1, 7.4, 7.6). Every lab starts with the demo's specimen types, so these tests use
 * codes of their own (TST…) and look only at those.
 */
let server: TestServer;
const as = async (account: string) => api(server.url, await tokenFor(server.url, account, DEMO_PASSWORD));
const base = '/api/resources/specimenType';
const sourceIds: number[] = [];

beforeAll(async () => {
  server = await startServer();
  const group = await as('baseadmin');
  for (const row of [
    { code: 'TST1', name: '测试全血', category: 'blood' },
    { code: 'TST2', name: '测试尿液', category: 'urine' },
  ]) {
    sourceIds.push((await group.post<Row>(base, row)).body.resultObject.id);
  }
});
afterAll(() => server?.dispose());

/** The test's own rows of a lab (codes TST…), by code. */
const listOf = async (account: string) =>
  (await (await as(account)).get<{ records: Row[] }>(`${base}?code=TST&sort=code,asc`)).body.resultObject.records;

describe('public data of the demo', () => {
  it('gives the main and sub labs synchronised copies of the base rows, and the only-lab rows of its own', async () => {
    const baseRows = (await (await as('baseadmin')).get<{ records: Row[] }>(`${base}?size=200`)).body.resultObject
      .records;
    const demoBase = baseRows.filter((r) => !r.code.startsWith('TST'));
    expect(demoBase.length).toBeGreaterThan(0);
    for (const account of ['admin', 'lab2admin', 'lab3admin']) {
      const rows = (await (await as(account)).get<{ records: Row[] }>(`${base}?size=200`)).body.resultObject.records;
      expect(rows.map((r) => [r.code, r.syncFlag]).sort(), account).toEqual(demoBase.map((r) => [r.code, 1]).sort());
    }
    const only = (await (await as('onlyadmin')).get<{ records: Row[] }>(`${base}?size=200`)).body.resultObject.records;
    expect(only.length).toBeGreaterThan(0);
    expect(only.every((r) => r.syncFlag === 0)).toBe(true);
  });

  it("points a copy's references at the lab's own copies: elements belong to the lab's form pages", async () => {
    const lab = await as('admin');
    const forms = (await lab.get<{ records: Row[] }>('/api/resources/form?size=200')).body.resultObject.records;
    const elements = (await lab.get<{ records: Row[] }>('/api/resources/formElement?size=500')).body.resultObject
      .records;
    expect(elements.length).toBeGreaterThan(0);
    const own = new Set(forms.map((f) => f.id));
    expect(elements.filter((e) => typeof e.formId === 'number').every((e) => own.has(e.formId!))).toBe(true);
  });
});

describe('public data: distribute, sync, import, confirm updates', () => {
  it('lets the base organisation distribute chosen records to chosen labs', async () => {
    const group = await as('baseadmin');
    const none = await group.post(`${base}/distribute`, { ids: sourceIds.join(','), orgIds: '' });
    expect(none.status).toBe(400);
    expect(none.body.resultMessage).toBe('请先选择要下发的实验室');
    const res = await group.post<{ copied: number }>(`${base}/distribute`, { ids: String(sourceIds[0]), orgIds: '2' });
    expect(res.body.resultObject.copied).toBe(1);
    expect((await listOf('lab2admin')).map((r) => [r.code, r.syncFlag])).toEqual([['TST1', 1]]);
    expect(await listOf('lab3admin')).toEqual([]);
  });

  it('refuses, naming the lab and the code, a record whose code the lab already keeps, and copies nothing', async () => {
    const lab3 = await as('lab3admin');
    expect((await lab3.post(base, { code: 'TST3', name: '分实验室自建', category: 'other' })).status).toBe(200);
    const group = await as('baseadmin');
    const source = (await group.post<Row>(base, { code: 'TST3', name: '测试痰液', category: 'other' })).body
      .resultObject;
    const res = await group.post(`${base}/distribute`, { ids: `${source.id},${sourceIds[1]}`, orgIds: '3' });
    expect(res.status).toBe(400);
    expect(res.body.resultMessage).toContain('华康宁波分实验室');
    expect(res.body.resultMessage).toContain('TST3');
    expect((await listOf('lab3admin')).map((r) => [r.code, r.name, r.syncFlag])).toEqual([['TST3', '分实验室自建', 0]]);
    await group.delete(`${base}/${source.id}`);
  });

  it('lets the main lab synchronise every public record, and a sub lab import the ones it picks', async () => {
    const main = await as('admin');
    expect((await main.post<{ copied: number }>(`${base}/sync`)).body.resultObject.copied).toBeGreaterThanOrEqual(2);
    expect((await listOf('admin')).map((r) => [r.code, r.syncFlag])).toEqual([
      ['TST1', 1],
      ['TST2', 1],
    ]);
    const lab3 = await as('lab3admin');
    const offered = await lab3.get<{ records: Row[] }>(`${base}/public?code=TST`);
    expect(offered.body.resultObject.records.map((r) => r.code).sort()).toEqual(['TST1', 'TST2']);
    expect((await lab3.post(`${base}/importPublic`, { ids: [sourceIds[1]] })).status).toBe(200);
    expect((await listOf('lab3admin')).map((r) => r.code)).toEqual(['TST2', 'TST3']);
    expect((await lab3.post(`${base}/sync`)).status).toBe(403);
  });

  it('flags copies when the source changes, until the lab confirms the update', async () => {
    const group = await as('baseadmin');
    const source = (await group.get<Row>(`${base}/${sourceIds[0]}`)).body.resultObject;
    await group.put(`${base}/${source.id}`, { ...source, name: '测试全血(EDTA抗凝)' });
    const copy = (await listOf('lab2admin'))[0]!;
    expect(copy).toMatchObject({ name: '测试全血', syncFlag: 2 });
    const lab2 = await as('lab2admin');
    expect((await lab2.post(`${base}/confirmUpdate`, { ids: [copy.id] })).status).toBe(200);
    expect((await listOf('lab2admin'))[0]).toMatchObject({ name: '测试全血(EDTA抗凝)', syncFlag: 1 });
  });

  it('never offers public data to an only-lab or to editors', async () => {
    const only = await as('onlyadmin');
    expect((await only.get(`${base}/public`)).status).toBe(403);
    expect((await only.post(`${base}/importPublic`, { ids: sourceIds })).status).toBe(403);
    const editor = await as('editor');
    expect((await editor.post(`${base}/sync`)).status).toBe(403);
    const lab2 = await as('lab2admin');
    expect((await lab2.post(`${base}/distribute`, { ids: sourceIds, orgIds: [3] })).status).toBe(403);
  });
});
