import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, DEMO_PASSWORD, type TestServer } from '../support/server';
import { api, tokenFor } from '../support/client';

/** Figures of the workload, sample-modification and group-analysis statistics (spec 2.2 statistics, group data analysis). */
type Rec = Record<string, unknown> & { id: number; version: number };
type Page = { records: Rec[]; total: number };

let server: TestServer;
let admin: ReturnType<typeof api>;
let editor: ReturnType<typeof api>;

beforeAll(async () => {
  server = await startServer();
  admin = api(server.url, await tokenFor(server.url, 'admin', DEMO_PASSWORD));
  editor = api(server.url, await tokenFor(server.url, 'editor', DEMO_PASSWORD));
});
afterAll(() => server?.dispose());

const rowOf = (page: Page, group: string) => page.records.find((r) => r.group === group);

/** A record's own values, without what the server adds (id, version, organisation, times, labels). */
const valuesOf = ({
  id: _i,
  version: _v,
  orgId: _o,
  syncFlag: _s,
  createdAt: _c,
  updatedAt: _u,
  labels: _l,
  ...values
}: Rec) => values;

/** A new record like the lab's first one of a resource, with some values changed (the rest already valid). */
async function clone(resource: string, changes: Record<string, unknown>) {
  const first = (await admin.get<Page>(`/api/resources/${resource}?size=1`)).body.resultObject.records[0]!;
  const res = await admin.post<Rec>(`/api/resources/${resource}`, { ...valuesOf(first), ...changes });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.resultObject;
}

describe('workload', () => {
  it('counts the results each person tested and first-reviewed, as the server stamped them', async () => {
    const workload = async () => (await editor.get<Page>('/api/statistics/workload')).body.resultObject;
    const before = await workload();
    const purpose = (await admin.get<Page>(`/api/resources/inspectionPurpose?name=${encodeURIComponent('血常规')}`))
      .body.resultObject.records[0]!.id;
    const specimen = await clone('specimen', { barcode: '', status: undefined, purposes: [purpose] });
    expect((await editor.post(`/api/resources/specimen/${specimen.id}/transitions/receive`, {})).status).toBe(200);
    const results = (await admin.get<Page>(`/api/resources/inspectionResult?barcode=${String(specimen.barcode)}`)).body
      .resultObject.records;
    // A high white count (not auto-verified) and a normal haemoglobin: both wait for a person's review.
    const value = (r: Rec) => ((r.labels as { item?: string }).item === '白细胞计数' ? '12' : '140');
    const rows = results.map((r) => ({ id: r.id, result: value(r) }));
    expect((await editor.post('/api/results/worksheet', { rows })).body.resultCode).toBe(200);
    const ids = results.map((r) => r.id);
    const signed = await admin.post('/api/results/approve/firstReview', { ids, password: DEMO_PASSWORD });
    expect(signed.body.resultCode, signed.body.resultMessage).toBe(200);
    const after = await workload();
    const count = (page: Page, name: string, step: string) => Number(rowOf(page, name)?.[step] ?? 0);
    expect(count(after, '王检验', 'tested')).toBe(count(before, '王检验', 'tested') + results.length);
    expect(count(after, '系统管理员', 'reviewed')).toBe(count(before, '系统管理员', 'reviewed') + results.length);
  });

  it('counts a collection for whoever collected the specimen at the collection bench', async () => {
    const before = rowOf((await editor.get<Page>('/api/statistics/workload')).body.resultObject, '王检验');
    const specimen = await clone('specimen', { barcode: '', status: undefined });
    const res = await editor.post<Rec>(`/api/resources/sampleCollection/${specimen.id}/transitions/collect`, {});
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const after = rowOf((await editor.get<Page>('/api/statistics/workload')).body.resultObject, '王检验');
    expect(after?.collected).toBe(Number(before?.collected ?? 0) + 1);
  });

  it('counts a receipt for whoever received the specimen, as the server stamped it', async () => {
    const before = rowOf((await editor.get<Page>('/api/statistics/workload')).body.resultObject, '王检验');
    // The status and who did what are the server's: a copy leaves them out, the barcode is issued.
    const specimen = await clone('specimen', { barcode: '', status: undefined });
    const res = await editor.post<Rec>(`/api/resources/specimen/${specimen.id}/transitions/receive`, {});
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const after = rowOf((await editor.get<Page>('/api/statistics/workload')).body.resultObject, '王检验');
    expect(after?.received).toBe(Number(before?.received ?? 0) + 1);
  });
});

describe('sample modification', () => {
  it("counts the changes made to a specimen's records, by data kind and account, and nothing else", async () => {
    const before = (await admin.get<Page>('/api/statistics/sampleModification')).body.resultObject;
    // The demo's corrections (an age, a department, a result) are real edits in the log.
    expect(before.records.some((r) => r.group === '前台录入' && r.account === 'editor')).toBe(true);
    const specimen = (await editor.get<Page>('/api/resources/specimen?barcode=2611220003')).body.resultObject
      .records[0]!;
    expect((await admin.put(`/api/resources/specimen/${specimen.id}`, { ...specimen, age: 62 })).status).toBe(200);
    const place = (await admin.get<Page>('/api/resources/inspectionPlace')).body.resultObject.records[0]!;
    expect(
      (await admin.put(`/api/resources/inspectionPlace/${place.id}`, { ...place, address: '测试修改的地址' })).status,
    ).toBe(200);
    const after = (await admin.get<Page>('/api/statistics/sampleModification')).body.resultObject;
    const count = (page: Page, account: string) =>
      Number(page.records.find((r) => r.group === '前台录入' && r.account === account)?.count ?? 0);
    expect(count(after, 'admin')).toBe(count(before, 'admin') + 1);
    expect(after.records.map((r) => r.group)).not.toContain('检验地点');
  });
});
