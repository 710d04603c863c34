import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, DEMO_PASSWORD, type TestServer } from '../support/server';
import { api, tokenFor } from '../support/client';
import { enterSpecimens } from '../support/specimens';
import { nextAlert, openTab, type Tab } from '../support/pushSocket';
import { createUser, STAFF_PASSWORD } from '../support/workflow';
import { clinicalAuditor, grantAuthority, idByName } from '../support/results';

/**
 * Results as the lab produces them: pending results made for what a received specimen ordered; the
 * value entered on the worksheet and interpreted by the server; review and audit signed by other
 * accounts with their password; critical values alerted and acknowledged; the specimen follows.
 */
type Rec = Record<string, unknown> & { id: number; version: number; status: string };
type Page = { records: Rec[]; total: number };
type Client = ReturnType<typeof api>;

let server: TestServer;
let admin: Client;
let editor: Client;
let auditor: Client;
let outsider: Client;
let adminToken = '';

const idOf = (resource: string, name: string) => idByName(admin, resource, name);

beforeAll(async () => {
  server = await startServer();
  adminToken = await tokenFor(server.url, 'admin', DEMO_PASSWORD);
  admin = api(server.url, adminToken);
  editor = api(server.url, await tokenFor(server.url, 'editor', DEMO_PASSWORD));
  const { auditor: signer, role } = await clinicalAuditor(server.url, admin);
  auditor = signer;
  // Same pages, no inspection authority.
  await createUser(admin, 'wairen', [role]);
  outsider = api(server.url, await tokenFor(server.url, 'wairen', STAFF_PASSWORD));
});
afterAll(() => server?.dispose());

/** A specimen ordering 血常规 (白细胞计数, 血红蛋白), received by the editor: its pending results by item code. */
async function receivedBloodCount(values: Record<string, unknown> = {}) {
  const purpose = await idOf('inspectionPurpose', '血常规');
  const [barcode] = await enterSpecimens(editor, 1, { purposes: [purpose], sex: 'male', age: 50, ...values });
  const specimen = (await admin.get<Page>(`/api/resources/specimen?barcode=${barcode}`)).body.resultObject.records[0]!;
  expect((await editor.post(`/api/resources/specimen/${specimen.id}/transitions/receive`, {})).status).toBe(200);
  return { barcode: barcode!, specimenId: specimen.id, results: await resultsOf(barcode!) };
}
async function resultsOf(barcode: string): Promise<Record<string, Rec>> {
  const rows = (await admin.get<Page>(`/api/resources/inspectionResult?barcode=${barcode}&size=50`)).body.resultObject
    .records as (Rec & { labels?: { item?: string } })[];
  const byCode: Record<string, Rec> = {};
  for (const r of rows)
    byCode[r.labels?.item === '白细胞计数' ? 'WBC' : r.labels?.item === '血红蛋白' ? 'HGB' : String(r.item)] = r;
  return byCode;
}
const specimenStatus = async (id: number) =>
  (await admin.get<Rec>(`/api/resources/specimen/${id}`)).body.resultObject.status;
const save = (who: Client, rows: { id: number; result: string }[]) => who.post('/api/results/worksheet', { rows });
const approve = (who: Client, ids: number[], step: string, password: string) =>
  who.post(`/api/results/approve/${step}`, { ids, password });

describe('results from a received specimen', () => {
  it('takes a coded result by its code or word from the item’s result dictionary, flagging one not normal', async () => {
    await grantAuthority(admin, 'admin', await idOf('professionalGroup', '分子诊断组'), { canTest: true });
    const purpose = await idOf('inspectionPurpose', 'HPV分型检测');
    const [positive, negative] = await enterSpecimens(editor, 2, { purposes: [purpose], sex: 'female', age: 41 });
    const resultOf = async (barcode: string) => {
      const specimen = (await admin.get<Page>(`/api/resources/specimen?barcode=${barcode}`)).body.resultObject
        .records[0]!;
      await editor.post(`/api/resources/specimen/${specimen.id}/transitions/receive`, {});
      return (await admin.get<Page>(`/api/resources/inspectionResult?barcode=${barcode}`)).body.resultObject
        .records[0]!;
    };
    const [p, n] = [await resultOf(positive!), await resultOf(negative!)];
    const refused = await save(admin, [{ id: p.id, result: '++' }]);
    expect(refused.body.resultMessage).toContain('高危型HPV核酸检测的结果应为：- 阴性、+ 阳性');
    expect((await admin.get<Rec>(`/api/resources/inspectionResult/${p.id}`)).body.resultObject.status).toBe('pending');
    const saved = await save(admin, [
      { id: p.id, result: '+' },
      { id: n.id, result: '阴性' },
    ]);
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const read = async (id: number) =>
      (await admin.get<Rec>(`/api/resources/inspectionResult/${id}`)).body.resultObject;
    expect(await read(p.id)).toMatchObject({ result: '阳性', flag: 'A', referenceRange: '阴性', status: 'tested' });
    expect(await read(n.id)).toMatchObject({ result: '阴性', flag: 'N' });
  });

  it('makes a pending result, in the item’s group and unit, for every item the purposes order', async () => {
    const { results } = await receivedBloodCount();
    expect(Object.keys(results).sort()).toEqual(['HGB', 'WBC']);
    expect(results.WBC).toMatchObject({ status: 'pending', unit: '10^9/L', sex: 'male', age: 50 });
    expect(results.WBC!.professionalGroup).toBe(await idOf('professionalGroup', '临检组'));
  });

  it('interprets the entered values: rounding, range, H/L and critical flags, without anyone typing them', async () => {
    const { barcode, specimenId, results } = await receivedBloodCount();
    const res = await save(editor, [
      { id: results.WBC!.id, result: '12.345' },
      { id: results.HGB!.id, result: '45' },
    ]);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const after = await resultsOf(barcode);
    expect(after.WBC).toMatchObject({
      status: 'tested',
      result: '12.35',
      flag: 'H',
      referenceRange: '3.5-9.5',
      critical: false,
      tester: '王检验',
      testerAccount: 'editor',
    });
    expect(after.HGB).toMatchObject({ result: '45', flag: 'LL', critical: true, referenceRange: '130-175' });
    expect(await specimenStatus(specimenId)).toBe('inTesting');
  });

  it('refuses text for a numeric item, and saves none of the sheet', async () => {
    const { barcode, results } = await receivedBloodCount();
    const res = await save(editor, [
      { id: results.WBC!.id, result: '6.1' },
      { id: results.HGB!.id, result: '溶血' },
    ]);
    expect(res.body.resultMessage).toContain('血红蛋白的结果必须是数字');
    expect(Object.values(await resultsOf(barcode)).map((r) => r.status)).toEqual(['pending', 'pending']);
  });

  it('refuses a tester without the inspection authority for the item’s group', async () => {
    const { results } = await receivedBloodCount();
    const res = await save(outsider, [{ id: results.WBC!.id, result: '6.1' }]);
    expect(res.body.resultMessage).toContain('wairen没有临检组的检验权限');
  });

  it('auto-verifies a result every audit rule passes, naming the rule', async () => {
    const { barcode, results } = await receivedBloodCount();
    await save(editor, [{ id: results.WBC!.id, result: '5.0' }]);
    const wbc = (await resultsOf(barcode)).WBC!;
    expect(wbc).toMatchObject({
      status: 'audited',
      result: '5.00',
      flag: 'N',
      auditor: '自动审核：白细胞自动审核范围',
    });
  });
});

describe('review and audit', () => {
  it('alerts the group at once of a critical value, and approves nothing until it is acknowledged', async () => {
    const { barcode, specimenId, results } = await receivedBloodCount();
    const me = (await admin.get<{ id: number }>('/api/user/me')).body.resultObject;
    const tab: Tab = await openTab(server.url, me.id, adminToken);
    await save(editor, [
      { id: results.WBC!.id, result: '12' },
      { id: results.HGB!.id, result: '45' },
    ]);
    const alert = await nextAlert(tab);
    expect(alert.title).toBe('危急值');
    expect(alert.message).toContain(`${barcode}`);
    expect(alert.message).toContain('血红蛋白 45 g/L');
    tab.socket.close();

    const ids = [results.WBC!.id, results.HGB!.id];
    const own = await approve(editor, ids, 'firstReview', DEMO_PASSWORD);
    expect(own.body.resultMessage).toContain('不能审核自己检验的结果');
    const wrong = await approve(admin, ids, 'firstReview', 'not-my-password');
    expect(wrong.body.resultMessage).toBe('密码错误，签名未完成');
    const unacknowledged = await approve(admin, ids, 'firstReview', DEMO_PASSWORD);
    expect(unacknowledged.body.resultMessage).toContain('危急值尚未确认，不能审核');
    expect(Object.values(await resultsOf(barcode)).map((r) => r.status)).toEqual(['tested', 'tested']);

    const ack = await editor.post<Rec>(`/api/resources/inspectionResult/${results.HGB!.id}/transitions/acknowledge`, {
      criticalNotified: '心内科 李护士',
    });
    expect(ack.body.resultObject).toMatchObject({ criticalAckBy: '王检验', criticalNotified: '心内科 李护士' });
    expect((await approve(admin, ids, 'firstReview', DEMO_PASSWORD)).body.resultCode).toBe(200);
    const reviewed = await resultsOf(barcode);
    expect(reviewed.HGB).toMatchObject({ status: 'firstReviewed', reviewer: '系统管理员', reviewerAccount: 'admin' });

    const byReviewer = await approve(admin, ids, 'audit', DEMO_PASSWORD);
    expect(byReviewer.body.resultMessage).toContain('审核者不能与初审者为同一人');
    expect((await approve(auditor, ids, 'audit', STAFF_PASSWORD)).body.resultCode).toBe(200);
    // Audited, and published at once in the specimen's report.
    expect(Object.values(await resultsOf(barcode)).map((r) => [r.status, r.auditor])).toEqual([
      ['published', 'shenhe'],
      ['published', 'shenhe'],
    ]);
    // Every result approved: the specimen is reviewed (and goes on to its report).
    expect(['reviewed', 'reported']).toContain(await specimenStatus(specimenId));
    const history = (
      await admin.get<{ name: string; actorName: string; details: { signature?: { meaning: string } } }[]>(
        `/api/resources/inspectionResult/${results.HGB!.id}/events`,
      )
    ).body.resultObject;
    expect(
      history.filter((e) => e.details.signature).map((e) => [e.name, e.actorName, e.details.signature!.meaning]),
    ).toEqual([
      ['firstReview', '系统管理员', '初审'],
      ['audit', 'shenhe', '审核'],
    ]);
  });

  it('returns a result to its tester with the reason, to be entered again', async () => {
    const { barcode, results } = await receivedBloodCount();
    await save(editor, [{ id: results.WBC!.id, result: '12' }]);
    const back = await admin.post<Rec>(`/api/resources/inspectionResult/${results.WBC!.id}/transitions/rollback`, {
      rollbackReason: '标本溶血，重新检测',
    });
    expect(back.body.resultObject).toMatchObject({
      status: 'pending',
      tester: '王检验',
      rollbackReason: '标本溶血，重新检测',
    });
    await save(editor, [{ id: results.WBC!.id, result: '11' }]);
    expect((await resultsOf(barcode)).WBC).toMatchObject({ status: 'tested', result: '11.00' });
  });

  it('refuses a status or a flag written by hand', async () => {
    const { results } = await receivedBloodCount();
    const wbc = results.WBC!;
    const res = await admin.put(`/api/resources/inspectionResult/${wbc.id}`, { ...wbc, status: 'audited' });
    expect(res.status).toBe(400);
    const flagged = await admin.put<Rec>(`/api/resources/inspectionResult/${wbc.id}`, {
      ...wbc,
      flag: 'HH',
      critical: true,
    });
    expect([flagged.body.resultObject.flag ?? null, flagged.body.resultObject.critical ?? null]).toEqual([null, null]);
  });
});

describe('the delta check', () => {
  it("holds a value far from the same patient's last approved one of the item, not another patient's", async () => {
    // A hold rule beside the demo's auto-verify range: white cells changed by more than half within a week.
    const rule = await admin.post<Rec>('/api/resources/auditRule', {
      code: 'T-WBC-D',
      name: '白细胞差值校验',
      item: await idOf('inspectionItem', '白细胞计数'),
      ruleType: 'delta',
      deltaPercent: 50,
      deltaDays: 7,
      action: 'hold',
      message: '白细胞较 7 天内结果变化超过 50%',
    });
    expect(rule.status, JSON.stringify(rule.body)).toBe(200);
    try {
      const entered = async (patientName: string, sex: string, value: string) => {
        const { barcode, results } = await receivedBloodCount({ patientName, sex });
        await save(editor, [{ id: results.WBC!.id, result: value }]);
        return (await resultsOf(barcode)).WBC!;
      };
      // The first is auto-verified (in range, nothing before it); the same man's next, 80 % higher, is held.
      expect(await entered('差值甲', 'male', '5.0')).toMatchObject({ status: 'audited' });
      expect(await entered('差值甲', 'male', '9.0')).toMatchObject({
        status: 'tested',
        delta: '5 → 9',
        autoVerdict: expect.stringContaining('白细胞较 7 天内结果变化超过 50%') as unknown,
      });
      // A woman of the same name is another patient: nothing to compare with, so auto-verified.
      expect(await entered('差值甲', 'female', '9.0')).toMatchObject({ status: 'audited', delta: null });
    } finally {
      await admin.delete(`/api/resources/auditRule/${rule.body.resultObject.id}`);
    }
  });
});

describe('a specimen refused after its receipt', () => {
  it('cancels its results, which leave the worksheets; its events say by whom', async () => {
    const { barcode, specimenId } = await receivedBloodCount();
    const pending = async () =>
      (await admin.get<Page>(`/api/resources/inspectionResult?barcode=${barcode}&status=pending`)).body.resultObject
        .records;
    expect(await pending()).toHaveLength(2);
    const reason = (await admin.get<Page>('/api/resources/abnormalSampleType?size=1')).body.resultObject.records[0]!.id;
    const reject = await editor.post(`/api/resources/specimen/${specimenId}/transitions/reject`, {
      rejectReason: reason,
    });
    expect(reject.status, JSON.stringify(reject.body)).toBe(200);
    expect(await pending()).toEqual([]);
    const results = Object.values(await resultsOf(barcode));
    expect(results.map((r) => r.status)).toEqual(['cancelled', 'cancelled']);
    const history = (
      await admin.get<{ name: string; toState: string; actorName: string }[]>(
        `/api/resources/inspectionResult/${results[0]!.id}/events`,
      )
    ).body.resultObject;
    expect(history.at(-1)).toMatchObject({ name: 'cancel', toState: 'cancelled', actorName: '王检验' });
    // Nothing is entered for a cancelled result.
    const late = await save(editor, [{ id: results[0]!.id, result: '5.0' }]);
    expect(late.body.resultMessage).toBe('当前状态为「已作废」，不能执行「录入结果」');
  });
});
