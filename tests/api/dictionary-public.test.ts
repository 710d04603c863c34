import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, DEMO_PASSWORD, type TestServer } from '../support/server';
import { api, tokenFor } from '../support/client';

interface Row {
  id: number;
  version: number;
  name: string;
  description?: string;
  syncFlag: number;
  details: { label: string; value: string; sort?: number }[];
}
interface Dictionary {
  id: number;
  name: string;
  type: string;
  details: { id: number; label: string; value: string }[];
}

/**
 * Business dictionaries are public data (spec 1, 7.4): the base organisation distributes them, the main
 * lab synchronises them, a sub lab imports the ones it picks, copies are flagged when their source
 * changes; only-labs never take part. The tests use names of their own (测试…) besides the demo's.
 */
let server: TestServer;
const as = async (account: string) => api(server.url, await tokenFor(server.url, account, DEMO_PASSWORD));
const screen = '/api/resources/businessDictionary';
const sources: Row[] = [];

beforeAll(async () => {
  server = await startServer();
  const group = await as('baseadmin');
  for (const [name, details] of [
    [
      '测试标本状态',
      [
        ['已接收', 'received'],
        ['已拒收', 'rejected'],
      ],
    ],
    [
      '测试报告类型',
      [
        ['常规', 'routine'],
        ['加急', 'urgent'],
      ],
    ],
  ] as const) {
    const created = await group.post<Row>(screen, {
      name,
      sort: 90,
      details: details.map(([label, value]) => ({ label, value })),
    });
    expect(created.status).toBe(200);
    sources.push(created.body.resultObject);
  }
});
afterAll(() => server?.dispose());

/** The test's own dictionaries of a lab (names 测试…), by name. */
const testRows = async (account: string) =>
  (
    await (await as(account)).get<{ records: Row[] }>(`${screen}?name=${encodeURIComponent('测试')}&size=100`)
  ).body.resultObject.records.sort((a, b) => a.name.localeCompare(b.name, 'zh-CN'));

describe('business dictionaries of the demo', () => {
  it('gives the main and sub labs synchronised copies of the base set, and the only-lab a set of its own', async () => {
    const base = (
      await (await as('baseadmin')).get<{ records: Row[] }>(`${screen}?size=100`)
    ).body.resultObject.records.filter((r) => !r.name.startsWith('测试'));
    expect(base.length).toBeGreaterThan(0);
    for (const account of ['admin', 'lab2admin', 'lab3admin']) {
      const rows = (await (await as(account)).get<{ records: Row[] }>(`${screen}?size=100`)).body.resultObject.records;
      expect(rows.map((r) => [r.name, r.syncFlag, r.details.length]).sort(), account).toEqual(
        base.map((r) => [r.name, 1, r.details.length]).sort(),
      );
    }
    const only = (await (await as('onlyadmin')).get<{ records: Row[] }>(`${screen}?size=100`)).body.resultObject
      .records;
    expect(only.length).toBe(base.length);
    expect(only.every((r) => r.syncFlag === 0)).toBe(true);
  });

  it('finds dictionaries with their details by exact names (getDiationary)', async () => {
    const admin = await as('admin');
    const names = encodeURIComponent('分页,查询时间范围');
    const found = (
      await admin.get<{ records: Dictionary[]; total: number }>(`/api/dictionary/getDiationary?names=${names}`)
    ).body.resultObject;
    expect(found.records.map((d) => d.name).sort()).toEqual(['分页', '查询时间范围'].sort());
    expect(found.records.find((d) => d.name === '分页')!.details.map((d) => d.value)).toEqual([
      '50',
      '100',
      '200',
      '500',
    ]);
  });
});

describe('business dictionaries as public data (syncDictionary / issueDictionary)', () => {
  it('lets the base organisation distribute chosen dictionaries, with their entries, to chosen labs', async () => {
    const group = await as('baseadmin');
    const none = await group.post(`/api/dictionary/issueDictionary?ids=${sources[0]!.id}&orgIds=`);
    expect(none.status).toBe(400);
    expect(none.body.resultMessage).toBe('请先选择要下发的实验室');
    const res = await group.post<unknown>(`/api/dictionary/issueDictionary?ids=${sources[0]!.id}&orgIds=2`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ code: 20000, data: { copied: 1 } });
    const copies = await testRows('lab2admin');
    expect(copies.map((r) => [r.name, r.syncFlag, r.details.map((d) => d.label)])).toEqual([
      ['测试标本状态', 1, ['已接收', '已拒收']],
    ]);
    expect(await testRows('lab3admin')).toEqual([]);
    // The copy is the lab's own dictionary: its screens read it by name like any other.
    const byName = await (
      await as('lab2admin')
    ).get<Dictionary>(`/api/dictionary/${encodeURIComponent('测试标本状态')}/name`);
    expect(byName.body.resultObject.details.map((d) => d.value)).toEqual(['received', 'rejected']);
    const log = await group.get<{
      records: { resource: string; action: string; after: { orgId: number } }[];
    }>('/api/log/getLogList?resource=dictionary');
    expect(log.body.resultObject.records.some((r) => r.action === 'publicData' && r.after.orgId === 2)).toBe(true);
  });

  it('refuses, naming the lab and the name, a dictionary the lab already keeps under that name, and copies nothing', async () => {
    const lab3 = await as('lab3admin');
    expect((await lab3.post(screen, { name: '测试自建字典', details: [{ label: '甲', value: 'A' }] })).status).toBe(
      200,
    );
    const group = await as('baseadmin');
    const clash = (await group.post<Row>(screen, { name: '测试自建字典', details: [{ label: '乙', value: 'B' }] })).body
      .resultObject;
    const res = await group.post(`/api/dictionary/issueDictionary?ids=${clash.id},${sources[1]!.id}&orgIds=3`);
    expect(res.status).toBe(400);
    expect(res.body.resultMessage).toContain('华康宁波分实验室');
    expect(res.body.resultMessage).toContain('测试自建字典');
    expect((await testRows('lab3admin')).map((r) => [r.name, r.syncFlag, r.details.map((d) => d.label)])).toEqual([
      ['测试自建字典', 0, ['甲']],
    ]);
    expect((await group.delete(`${screen}/${clash.id}`)).status).toBe(200);
  });

  it('lets the main lab synchronise every public dictionary, and a sub lab import the ones it picks', async () => {
    const main = await as('admin');
    const synced = await main.post<unknown>('/api/dictionary/syncDictionary');
    expect(synced.body).toMatchObject({ code: 20000 });
    expect((await testRows('admin')).map((r) => [r.name, r.syncFlag])).toEqual([
      ['测试报告类型', 1],
      ['测试标本状态', 1],
    ]);
    const lab3 = await as('lab3admin');
    const offered = await lab3.get<{ records: Row[] }>(`${screen}/public?name=${encodeURIComponent('测试')}`);
    expect(offered.body.resultObject.records.map((r) => r.name).sort()).toEqual(
      ['测试报告类型', '测试标本状态'].sort(),
    );
    expect((await lab3.post(`/api/dictionary/syncDictionary?ids=${sources[1]!.id}`)).body).toMatchObject({
      code: 20000,
      data: { copied: 1 },
    });
    expect((await testRows('lab3admin')).map((r) => [r.name, r.syncFlag])).toEqual([
      ['测试报告类型', 1],
      ['测试自建字典', 0],
    ]);
    // Synchronising everything is the main lab's: a sub lab is refused.
    expect((await lab3.post(`${screen}/sync`)).status).toBe(403);
  });

  it('flags the copies when the base dictionary changes, until the lab confirms the update', async () => {
    const group = await as('baseadmin');
    const source = sources[0]!;
    expect(
      (
        await group.post(`/api/dictionary/${source.id}/detail/creating`, {
          label: '已退回',
          value: 'returned',
          sort: 3,
        })
      ).status,
    ).toBe(200);
    const copy = (await testRows('lab2admin'))[0]!;
    expect(copy).toMatchObject({ name: '测试标本状态', syncFlag: 2 });
    expect(copy.details.map((d) => d.label)).toEqual(['已接收', '已拒收']);
    const lab2 = await as('lab2admin');
    // Confirming needs a flagged copy chosen.
    expect((await lab2.post('/api/dictionary/syncDictionary?syncFlag=2&ids=')).status).toBe(400);
    expect((await lab2.post(`/api/dictionary/syncDictionary?syncFlag=2&ids=${copy.id}`)).body).toMatchObject({
      code: 20000,
      data: { copied: 1 },
    });
    const after = (await testRows('lab2admin'))[0]!;
    expect(after).toMatchObject({ id: copy.id, syncFlag: 1 });
    expect(after.details.map((d) => d.label)).toEqual(['已接收', '已拒收', '已退回']);
    // The screen's own edit flags the copies too (the main lab holds one since it synchronised).
    const current = (await group.get<Row>(`${screen}/${source.id}`)).body.resultObject;
    expect((await group.put(`${screen}/${source.id}`, { ...current, description: '标本流转状态' })).status).toBe(200);
    expect((await testRows('admin')).find((r) => r.name === '测试标本状态')!.syncFlag).toBe(2);
  });

  it('never offers public dictionaries to an only-lab, an editor, or a lab distributing', async () => {
    const only = await as('onlyadmin');
    expect((await only.get(`${screen}/public`)).status).toBe(403);
    expect((await only.post(`/api/dictionary/syncDictionary?ids=${sources[0]!.id}`)).status).toBe(403);
    expect(await testRows('onlyadmin')).toEqual([]);
    const editor = await as('editor');
    expect((await editor.post('/api/dictionary/syncDictionary')).status).toBe(403);
    const lab2 = await as('lab2admin');
    expect((await lab2.post(`/api/dictionary/issueDictionary?ids=${sources[0]!.id}&orgIds=3`)).status).toBe(403);
    expect((await testRows('lab3admin')).map((r) => r.name)).not.toContain('测试标本状态');
  });
});
