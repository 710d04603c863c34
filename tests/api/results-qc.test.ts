import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, DEMO_PASSWORD, type TestServer } from '../support/server';
import { api, tokenFor } from '../support/client';
import { enterSpecimens } from '../support/specimens';
import { localDateTime } from '../../src/shared/time';

/**
 * QC gates patient results: while the latest QC run of an item is rejected by a Westgard rule, results
 * of the item entered after it cannot be approved; a conclusion that releases results lifts the hold.
 */
type Rec = Record<string, unknown> & { id: number; version: number; status: string };
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

const byName = async (resource: string, name: string) =>
  (await admin.get<Page>(`/api/resources/${resource}?name=${encodeURIComponent(name)}&size=1`)).body.resultObject
    .records[0]!;
async function create(resource: string, body: Record<string, unknown>) {
  const res = await admin.post<Rec>(`/api/resources/${resource}`, body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.resultObject;
}

/** A received 血常规 specimen with its white count entered (high, so a person must review it): that result. */
async function enteredWhiteCount(): Promise<Rec> {
  const purpose = (await byName('inspectionPurpose', '血常规')).id;
  const [barcode] = await enterSpecimens(editor, 1, { purposes: [purpose], sex: 'male', age: 40 });
  const specimen = (await admin.get<Page>(`/api/resources/specimen?barcode=${barcode}`)).body.resultObject.records[0]!;
  await editor.post(`/api/resources/specimen/${specimen.id}/transitions/receive`, {});
  const results = (await admin.get<Page>(`/api/resources/inspectionResult?barcode=${barcode}`)).body.resultObject
    .records;
  const wbc = results.find((r) => (r.labels as { item: string }).item === '白细胞计数')!;
  const saved = await editor.post('/api/results/worksheet', { rows: [{ id: wbc.id, result: '12' }] });
  expect(saved.body.resultCode, saved.body.resultMessage).toBe(200);
  return wbc;
}
const firstReview = (id: number) =>
  admin.post('/api/results/approve/firstReview', { ids: [id], password: DEMO_PASSWORD });

describe('a rejected QC run', () => {
  it('holds the item’s later results until a conclusion releases them', async () => {
    const material = await create('qcMaterial', {
      name: '测试 WBC 质控 水平1',
      manufacturer: '测试',
      lotNo: 'T-WBC-1',
      itemCode: 'WBC',
      level: 'L1',
      receivedDate: '2026-01-01',
      expiryDate: '2099-12-31',
      unit: '10^9/L',
      targetMean: 7,
      targetSd: 0.3,
      enabled: true,
    });
    const plan = await create('qcPlan', {
      name: 'XN-1000 WBC 水平1',
      material: material.id,
      ruleCombination: (await byName('qcRuleCombination', '单规则 1-3s')).id,
      instrument: 'XN-1000',
      frequency: 'daily',
      startDate: '2026-01-01',
      enabled: true,
    });
    // Run a minute ago, far outside 3 SD: rejected by 1-3s.
    const run = await create('qcResult', {
      plan: plan.id,
      runAt: localDateTime(new Date(Date.now() - 60_000)),
      runNo: 'T-RUN-1',
      value: 9.5,
    });
    // Judged as it is saved: no one presses an evaluate button.
    expect(run).toMatchObject({ status: 'reject', violations: '1-3s' });

    const wbc = await enteredWhiteCount();
    const held = await firstReview(wbc.id);
    expect(held.body.resultMessage).toContain('该项目最近一次质控失控（1-3s），结果暂停审核');
    const setConclusion = async (name: string) => {
      const current = (await admin.get<Rec>(`/api/resources/qcResult/${run.id}`)).body.resultObject;
      const conclusion = (await byName('qcConclusion', name)).id;
      const res = await admin.put(`/api/resources/qcResult/${run.id}`, { ...current, conclusion });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    };
    await setConclusion('失控-暂停报告');
    expect((await firstReview(wbc.id)).body.resultMessage).toContain('结果暂停审核');
    expect((await admin.get<Rec>(`/api/resources/inspectionResult/${wbc.id}`)).body.resultObject.status).toBe('tested');
    await setConclusion('失控-重测质控品后在控');
    expect((await firstReview(wbc.id)).body.resultCode).toBe(200);
    expect((await admin.get<Rec>(`/api/resources/inspectionResult/${wbc.id}`)).body.resultObject.status).toBe(
      'firstReviewed',
    );
  });

  it('of one level is not released by an accepted run of another level', async () => {
    const planOf = async (level: 'L1' | 'L2', mean: number) => {
      const material = await create('qcMaterial', {
        name: `测试 WBC 质控 ${level} 二`,
        manufacturer: '测试',
        lotNo: `T-WBC-${level}-2`,
        itemCode: 'WBC',
        level,
        receivedDate: '2026-01-01',
        expiryDate: '2099-12-31',
        unit: '10^9/L',
        targetMean: mean,
        targetSd: 0.3,
        enabled: true,
      });
      return create('qcPlan', {
        name: `XN-2000 WBC ${level}`,
        material: material.id,
        ruleCombination: (await byName('qcRuleCombination', '单规则 1-3s')).id,
        instrument: 'XN-2000',
        frequency: 'daily',
        startDate: '2026-01-01',
        enabled: true,
      });
    };
    const [low, high] = [await planOf('L1', 7), await planOf('L2', 15)];
    const at = (secondsAgo: number) => localDateTime(new Date(Date.now() - secondsAgo * 1000));
    const failed = await create('qcResult', {
      plan: low.id,
      runAt: at(50),
      runNo: 'T-RUN-2',
      value: 9.5,
    });
    expect(failed.status).toBe('reject');
    const passed = await create('qcResult', {
      plan: high.id,
      runAt: at(40),
      runNo: 'T-RUN-3',
      value: 15,
    });
    expect(passed.status).toBe('accept');
    const wbc = await enteredWhiteCount();
    expect((await firstReview(wbc.id)).body.resultMessage).toContain('结果暂停审核');
  });
});
