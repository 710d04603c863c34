import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, DEMO_PASSWORD, type TestServer } from '../support/server';
import { api, tokenFor } from '../support/client';
import { nextAlert, openTab, type Tab } from '../support/pushSocket';
import { enterSpecimens } from '../support/specimens';
import { localDateTime } from '../../src/shared/time';

/**
 * QC runs itself (issue 18): a QC result is judged as it is saved or edited (z-score, rules, status,
 * never taken from input), later runs are judged again when an earlier one changes, a rejection alerts
 * the item's testers and holds its patient results, and a lot establishes its own target from its
 * first in-control runs, then keeps it; a new lot starts again.
 */
type Rec = Record<string, unknown> & { id: number; version: number; status: string };
type Page = { records: Rec[]; total: number };

let server: TestServer;
let admin: ReturnType<typeof api>;
let editor: ReturnType<typeof api>;
let adminToken: string;

beforeAll(async () => {
  server = await startServer();
  adminToken = await tokenFor(server.url, 'admin', DEMO_PASSWORD);
  admin = api(server.url, adminToken);
  editor = api(server.url, await tokenFor(server.url, 'editor', DEMO_PASSWORD));
});
afterAll(() => server?.dispose());

const byName = async (resource: string, name: string) =>
  (await admin.get<Page>(`/api/resources/${resource}?name=${encodeURIComponent(name)}&size=1`)).body.resultObject
    .records[0]!;
async function create(resource: string, body: Record<string, unknown>, who = admin) {
  const res = await who.post<Rec>(`/api/resources/${resource}`, body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.resultObject;
}
const read = async (resource: string, id: number) =>
  (await admin.get<Rec>(`/api/resources/${resource}/${id}`)).body.resultObject;
/** Edits a record as a form does: what was read, with the changes. */
async function edit(resource: string, id: number, changes: Record<string, unknown>, who = admin) {
  const res = await who.put<Rec>(`/api/resources/${resource}/${id}`, { ...(await read(resource, id)), ...changes });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.resultObject;
}
const judged = (r: Rec) => ({ zScore: r.zScore, violations: r.violations, status: r.status });

async function material(name: string, itemCode: string, lotNo: string, extra: Record<string, unknown> = {}) {
  return create('qcMaterial', {
    name,
    manufacturer: '测试',
    lotNo,
    itemCode,
    level: 'L1',
    receivedDate: '2026-01-01',
    expiryDate: '2099-12-31',
    enabled: true,
    ...extra,
  });
}
async function plan(
  name: string,
  materialId: number,
  instrument: string,
  combination = 'Westgard 多规则 (1-3s/2-2s/R-4s/4-1s/10x)',
) {
  return create('qcPlan', {
    name,
    material: materialId,
    ruleCombination: (await byName('qcRuleCombination', combination)).id,
    instrument,
    frequency: 'daily',
    startDate: '2026-01-01',
    enabled: true,
  });
}
const minutesAgo = (m: number) => localDateTime(new Date(Date.now() - m * 60_000));

describe('a QC result judged as it is saved and edited', () => {
  it('rewrites z-score and status on every edit (accept → reject → accept), alerts the group, holds later results', async () => {
    const lot = await material('测试 WBC 质控 水平1', 'WBC', 'E-WBC-1', { targetMean: 7, targetSd: 0.3 });
    const xn = await plan('XN-E WBC 水平1', lot.id, 'XN-E');
    // Derived fields in the input are not taken: the server judges 7.1 (z 0.3333) in control, and the
    // operator is whoever entered the run.
    const run = await create(
      'qcResult',
      {
        plan: xn.id,
        runAt: minutesAgo(30),
        runNo: 'E-RUN-1',
        value: 7.1,
        operator: '何静',
        zScore: -9,
        status: 'reject',
        violations: '1-3s',
      },
      editor,
    );
    expect(judged(run)).toEqual({ zScore: 0.3333, violations: '', status: 'accept' });
    expect(run).toMatchObject({ targetMean: 7, targetSd: 0.3, material: lot.id, operator: '王检验' });

    // The white count's testers (the demo admin among them) hear of the rejection at once.
    const me = (await admin.get<{ id: number }>('/api/user/me')).body.resultObject;
    const tab: Tab = await openTab(server.url, me.id, adminToken);
    const rejected = await edit('qcResult', run.id, { value: 8.05, status: 'accept', zScore: 0 }, editor);
    expect(judged(rejected)).toEqual({ zScore: 3.5, violations: '1-2s, 1-3s', status: 'reject' });
    const alert = await nextAlert(tab);
    tab.socket.close();
    expect(alert.title).toBe('质控失控');
    expect(alert.message).toContain('XN-E WBC 水平1 E-RUN-1');
    expect(alert.message).toContain('违背 1-2s, 1-3s');
    expect(alert.message).toContain('白细胞计数 的患者结果暂停审核');

    // A white count entered after the run cannot be approved while the run stands rejected.
    const purpose = (await byName('inspectionPurpose', '血常规')).id;
    const [barcode] = await enterSpecimens(editor, 1, { purposes: [purpose], sex: 'male', age: 40 });
    const specimen = (await admin.get<Page>(`/api/resources/specimen?barcode=${barcode}`)).body.resultObject
      .records[0]!;
    await editor.post(`/api/resources/specimen/${specimen.id}/transitions/receive`, {});
    const wbc = (
      await admin.get<Page>(`/api/resources/inspectionResult?barcode=${barcode}`)
    ).body.resultObject.records.find((r) => (r.labels as { item: string }).item === '白细胞计数')!;
    expect(
      (await editor.post('/api/results/worksheet', { rows: [{ id: wbc.id, result: '12' }] })).body.resultCode,
    ).toBe(200);
    const approve = () => admin.post('/api/results/approve/firstReview', { ids: [wbc.id], password: DEMO_PASSWORD });
    expect((await approve()).body.resultMessage).toContain('该项目最近一次质控失控（1-2s, 1-3s），结果暂停审核');

    // The value corrected (a typing error): judged again, in control, and the hold is gone.
    const corrected = await edit('qcResult', run.id, { value: 7.05 }, editor);
    expect(judged(corrected)).toEqual({ zScore: 0.1667, violations: '', status: 'accept' });
    expect((await approve()).body.resultCode).toBe(200);
    expect((await read('inspectionResult', wbc.id)).status).toBe('firstReviewed');
  });

  it('judges the later runs again when an earlier run is edited (2-2s across runs)', async () => {
    const lot = await material('测试 GLU 质控 水平1', 'GLU', 'E-GLU-1', { targetMean: 5.2, targetSd: 0.12 });
    const au = await plan('AU-E GLU 水平1', lot.id, 'AU-E');
    const day = (d: string, value: number) =>
      create('qcResult', {
        plan: au.id,
        runAt: `2026-02-${d} 08:00:00`,
        runNo: `202602${d}-1`,
        value,
      });
    const first = await day('01', 5.47); // +2.25 SD
    const second = await day('02', 5.49); // +2.4167 SD: two in a row beyond +2 SD
    expect(judged(second)).toEqual({ zScore: 2.4167, violations: '1-2s, 2-2s', status: 'reject' });
    await edit('qcResult', first.id, { value: 5.25 });
    expect(judged(await read('qcResult', second.id))).toEqual({
      zScore: 2.4167,
      violations: '1-2s',
      status: 'warning',
    });
    // And back: the later run is rejected again.
    await edit('qcResult', first.id, { value: 5.5 });
    expect((await read('qcResult', second.id)).status).toBe('reject');
    // A run deleted (entered under the wrong plan) no longer counts for the run after it.
    expect((await admin.delete(`/api/resources/qcResult/${first.id}`)).status).toBe(200);
    await expect
      .poll(async () => judged(await read('qcResult', second.id)))
      .toEqual({
        zScore: 2.4167,
        violations: '1-2s',
        status: 'warning',
      });
  });

  it('judges a run with the other levels of its run: R-4s when the second level is saved', async () => {
    const low = await material('测试 K 质控 水平1', 'K', 'E-K-1', { targetMean: 3.1, targetSd: 0.06 });
    const high = await material('测试 K 质控 水平2', 'K', 'E-K-2', { targetMean: 6, targetSd: 0.1, level: 'L2' });
    const l1 = await plan('AU-R K 水平1', low.id, 'AU-R');
    const l2 = await plan('AU-R K 水平2', high.id, 'AU-R');
    const run = { runAt: '2026-03-01 08:00:00', runNo: '20260301-1' };
    const first = await create('qcResult', { ...run, plan: l1.id, value: 3.23 }); // +2.1667 SD
    expect(first.status).toBe('warning');
    const second = await create('qcResult', { ...run, plan: l2.id, value: 5.78 }); // −2.2 SD
    expect(judged(second)).toEqual({ zScore: -2.2, violations: '1-2s, R-4s', status: 'reject' });
    expect(judged(await read('qcResult', first.id))).toEqual({
      zScore: 2.1667,
      violations: '1-2s, R-4s',
      status: 'reject',
    });
  });
});

describe('a lot’s own target', () => {
  it('is established from its first N in-control runs, then fixed; a new lot starts again', async () => {
    // No typed target; five runs establish it (the lot says how many).
    const lot = await material('测试 ALT 质控 水平1', 'ALT', 'E-ALT-1', { runsForTarget: 5 });
    const au = await plan('AU-T ALT 水平1', lot.id, 'AU-T');
    const run = (p: number, d: string, value: number) =>
      create('qcResult', { plan: p, runAt: `2026-04-${d} 08:00:00`, runNo: `202604${d}-1`, value });
    const establishing = [40, 42, 38, 41, 39];
    const firstFour = [];
    for (const [i, value] of establishing.slice(0, 4).entries()) firstFour.push(await run(au.id, `0${i + 1}`, value));
    expect(firstFour.map((r) => r.status)).toEqual(['pending', 'pending', 'pending', 'pending']);
    expect((await read('qcMaterial', lot.id)).establishedMean ?? null).toBeNull();

    const fifth = await run(au.id, '05', 39);
    // Mean 40, sample SD √(10/4) = 1.5811, from the first to the fifth run.
    expect(await read('qcMaterial', lot.id)).toMatchObject({
      establishedMean: 40,
      establishedSd: 1.5811,
      establishedFrom: '2026-04-01 08:00:00',
      establishedTo: '2026-04-05 08:00:00',
    });
    // The establishing runs are judged against it once it exists.
    expect(judged(await read('qcResult', firstFour[1]!.id))).toEqual({
      zScore: 1.2649,
      violations: '',
      status: 'accept',
    });
    expect((await read('qcResult', fifth.id)).targetMean).toBe(40);

    // A later run beyond 3 SD of the established target is rejected; the target does not move.
    const later = await run(au.id, '06', 45);
    expect(judged(later)).toEqual({ zScore: 3.1624, violations: '1-2s, 1-3s', status: 'reject' });
    await run(au.id, '07', 41);
    await edit('qcResult', firstFour[0]!.id, { value: 43 });
    expect(await read('qcMaterial', lot.id)).toMatchObject({ establishedMean: 40, establishedSd: 1.5811 });

    // A new lot on the same plan starts its own establishment, judged by its typed target meanwhile.
    const next = await material('测试 ALT 质控 水平1 新批', 'ALT', 'E-ALT-2', {
      runsForTarget: 3,
      targetMean: 60,
      targetSd: 2,
    });
    await edit('qcPlan', au.id, { material: next.id });
    const typedJudged = await run(au.id, '10', 66.2); // +3.1 SD of the typed target: not in control
    expect(judged(typedJudged)).toMatchObject({ zScore: 3.1, status: 'reject' });
    expect(typedJudged.material).toBe(next.id);
    for (const [d, value] of [
      ['11', 61],
      ['12', 63],
    ] as const)
      await run(au.id, d, value);
    expect((await read('qcMaterial', next.id)).establishedMean ?? null).toBeNull();
    await run(au.id, '13', 62);
    // The rejected run is not one of the three in-control runs the new lot's target comes from.
    expect(await read('qcMaterial', next.id)).toMatchObject({
      establishedMean: 62,
      establishedSd: 1,
      establishedFrom: '2026-04-11 08:00:00',
      establishedTo: '2026-04-13 08:00:00',
    });
    // The old lot's runs keep their lot and target; the chart shows both lots and each establishing period.
    expect(await read('qcResult', later.id)).toMatchObject({ material: lot.id, targetMean: 40 });
    const chart = await editor.get<Page>(`/api/qc/chart?plan=${au.id}&size=100`);
    const points = chart.body.resultObject.records.map((p) => [p.runAt, p.lotNo, p.establishing, p.mean]);
    expect(points).toEqual([
      ['2026-04-01 08:00:00', 'E-ALT-1', true, 40],
      ['2026-04-02 08:00:00', 'E-ALT-1', true, 40],
      ['2026-04-03 08:00:00', 'E-ALT-1', true, 40],
      ['2026-04-04 08:00:00', 'E-ALT-1', true, 40],
      ['2026-04-05 08:00:00', 'E-ALT-1', true, 40],
      ['2026-04-06 08:00:00', 'E-ALT-1', false, 40],
      ['2026-04-07 08:00:00', 'E-ALT-1', false, 40],
      ['2026-04-10 08:00:00', 'E-ALT-2', false, 60],
      ['2026-04-11 08:00:00', 'E-ALT-2', true, 60],
      ['2026-04-12 08:00:00', 'E-ALT-2', true, 60],
      ['2026-04-13 08:00:00', 'E-ALT-2', true, 60],
    ]);
  });
});
