import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { startInProcess, type InProcessApp } from '../support/in-process';
import { DEMO_PASSWORD } from '../support/server';
import { api } from '../support/client';
import { clinicalAuditor, grantAuthority, idByName } from '../support/results';
import { STAFF_PASSWORD } from '../support/workflow';

/**
 * Statistics from the lifecycle's events: specimens moved through entry, collection, receipt, results,
 * review and report at known times of the server's clock give exact volumes, turnaround medians and
 * 90th percentiles, shares within target, and each person's steps. Times typed on the specimen
 * (collectedAt at entry) are far off on purpose: they must not count.
 */
type Row = Record<string, unknown> & { group: string };
type Page = { records: Row[]; total: number };
type Client = ReturnType<typeof api>;

let lims: InProcessApp;
let url = '';
let admin: Client;
let editor: Client;
let auditor: Client;
let adminToken = '';
let hospitals: number[];

/** The lab's wall clock on the day of the figures (local time, as the lab reads it). */
const at = (hh: number, mm = 0) => new Date(2031, 2, 2, hh, mm, 0);
const DAY = '2031-03-02';

beforeAll(async () => {
  lims = await startInProcess({ LIMS_IDLE_TIMEOUT_SECONDS: '1000000', LIMS_TOKEN_TTL_SECONDS: '1000000' });
  lims.clock.now = at(7, 0);
  url = await lims.app.listen({ port: 0, host: '127.0.0.1' });
  adminToken = (await lims.signIn('admin')).token;
  admin = api(url, adminToken);
  editor = api(url, (await lims.signIn('editor')).token);
  ({ auditor } = await clinicalAuditor(url, admin));
  // The demo's inspection authorities end before this clock's day; these last.
  const clinical = await idByName(admin, 'professionalGroup', '临检组');
  await grantAuthority(admin, 'editor', clinical, { canTest: true });
  await grantAuthority(admin, 'admin', clinical, { canReview: true });
  hospitals = (
    await admin.get<{ records: { id: number }[] }>('/api/resources/referralHospital?size=2')
  ).body.resultObject.records.map((r) => r.id);
  expect(hospitals).toHaveLength(2);
  await runTheDay();
}, 120_000);
afterAll(() => lims?.close());

const set = (time: Date) => {
  lims.clock.now = time;
};

async function enter(hospital: number): Promise<{ id: number; barcode: string }> {
  const res = await editor.post<{ id: number; barcode: string }>('/api/resources/specimen', {
    patientName: '统计患者',
    sex: 'female',
    age: 30,
    hospital,
    purposes: [await idByName(admin, 'inspectionPurpose', '血常规')],
    specimenType: await idByName(admin, 'specimenType', '全血'),
    // Typed at the front desk: never read by statistics.
    collectedAt: '2020-01-01 00:00:00',
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.resultObject;
}

async function step(id: number, name: string, body: Record<string, unknown> = {}) {
  const res = await editor.post(`/api/resources/specimen/${id}/transitions/${name}`, body);
  expect(res.status, `${name}: ${JSON.stringify(res.body)}`).toBe(200);
}

const resultIds = async (barcode: string) =>
  (await admin.get<Page>(`/api/resources/inspectionResult?barcode=${barcode}`)).body.resultObject.records.map(
    (r) => r.id as number,
  );

/**
 * 08:00 five specimens entered by 王检验 (editor): A, B, F from the first hospital, C from the second,
 * E cancelled. 08:10 A, B, C collected. Received: A 08:40, C 09:10, B 09:40 (pre-analytical 30, 60,
 * 90 minutes). 10:00 all six results (two items each) entered, 10:30 first-reviewed by 系统管理员;
 * audited by shenhe, which issues the report: C 11:10, A 11:40, B 14:40 (in-lab 120, 180, 300 minutes).
 * F is never received.
 */
async function runTheDay() {
  const [h1, h2] = hospitals as [number, number];
  set(at(8));
  const a = await enter(h1);
  const b = await enter(h1);
  const c = await enter(h2);
  const e = await enter(h1);
  await enter(h1);
  await step(e.id, 'cancel', { cancelReason: '重复登记' });
  set(at(8, 10));
  for (const s of [a, b, c]) await step(s.id, 'collect');
  set(at(8, 40));
  await step(a.id, 'receive');
  set(at(9, 10));
  await step(c.id, 'receive');
  set(at(9, 40));
  await step(b.id, 'receive');
  const results = { a: await resultIds(a.barcode), b: await resultIds(b.barcode), c: await resultIds(c.barcode) };
  const all = [...results.a, ...results.b, ...results.c];
  expect(all).toHaveLength(6);
  set(at(10));
  const values = await admin.get<Page>(`/api/resources/inspectionResult?size=50`);
  const itemOf = new Map(values.body.resultObject.records.map((r) => [r.id, (r.labels as { item: string }).item]));
  const saved = await editor.post('/api/results/worksheet', {
    rows: all.map((id) => ({ id, result: itemOf.get(id) === '白细胞计数' ? '12.3' : '140' })),
  });
  expect(saved.body.resultCode, JSON.stringify(saved.body)).toBe(200);
  set(at(10, 30));
  const reviewed = await admin.post('/api/results/approve/firstReview', { ids: all, password: DEMO_PASSWORD });
  expect(reviewed.body.resultCode, reviewed.body.resultMessage).toBe(200);
  for (const [time, ids] of [
    [at(11, 10), results.c],
    [at(11, 40), results.a],
    [at(14, 40), results.b],
  ] as const) {
    set(time);
    const audited = await auditor.post('/api/results/approve/audit', { ids, password: STAFF_PASSWORD });
    expect(audited.body.resultCode, audited.body.resultMessage).toBe(200);
  }
  set(at(18));
}

const figures = async (name: string, query: string) => {
  const res = await admin.get<Page>(`/api/statistics/${name}?${query}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.resultObject.records;
};
const pick = (rows: Row[], ...keys: string[]) =>
  rows.map((r) => Object.fromEntries([['group', r.group], ...keys.map((k) => [k, r[k]])]));

describe('specimen volume', () => {
  it('counts specimens registered in the period, cancelled ones left out, per hospital, group, test and day', async () => {
    const period = `registeredAtFrom=${DAY}&registeredAtTo=${DAY}`;
    const [h1, h2] = await Promise.all(hospitals.map((id) => admin.get<Row>(`/api/resources/referralHospital/${id}`)));
    expect(pick(await figures('hospitalSubmissionVolume', `${period}&sort=count,desc`), 'count', 'share')).toEqual([
      { group: h1!.body.resultObject.name, count: 3, share: 75 },
      { group: h2!.body.resultObject.name, count: 1, share: 25 },
    ]);
    // Tests are known once a specimen is received: F (never received) has none.
    expect(pick(await figures('professionalGroupVolume', period), 'count', 'share')).toEqual([
      { group: '临检组', count: 3, share: 100 },
    ]);
    expect(pick(await figures('professionalGroupVolume', `${period}&by=test&sort=group,asc`), 'count')).toEqual([
      { group: '白细胞计数', count: 3 },
      { group: '血红蛋白', count: 3 },
    ]);
    expect(pick(await figures('specimenTypeVolume', `${period}&by=day`), 'count')).toEqual([{ group: DAY, count: 4 }]);
    expect(pick(await figures('inspectionPurposeVolume', period), 'count')).toEqual([{ group: '血常规', count: 4 }]);
    expect(await figures('specimenTypeVolume', 'registeredAtFrom=2031-03-03')).toEqual([]);
  });

  it('refuses a breakdown it does not offer, and a date that is not one', async () => {
    const bad = await admin.get('/api/statistics/specimenTypeVolume?by=patient');
    expect([bad.status, bad.body.resultMessage]).toEqual([
      400,
      '统计维度“patient”无效，可选：hospital, specimenType, purpose, group, test, day, week, month',
    ]);
    const date = await admin.get('/api/statistics/inLabTat?reportedAtFrom=2031-02-30');
    expect([date.status, date.body.resultMessage]).toEqual([400, '日期“2031-02-30”无效，请使用 YYYY-MM-DD 格式']);
  });
});

describe('turnaround from event times', () => {
  it('gives the in-lab median, 90th percentile and share within the item’s target per test', async () => {
    const rows = await figures('inLabTat', `reportedAtFrom=${DAY}&reportedAtTo=${DAY}&sort=group,asc`);
    // 120, 180, 300 minutes; target: the items' 2 turnaround hours.
    const expected = {
      count: 3,
      medianMinutes: 180,
      p90Minutes: 276,
      maxMinutes: 300,
      targetMinutes: 120,
      withinTarget: 1,
      withinTargetShare: 33.3,
    };
    expect(rows).toMatchObject([
      { group: '白细胞计数', ...expected },
      { group: '血红蛋白', ...expected },
    ]);
  });

  it("puts the lab's specimen in-lab median and 90th percentile in the group analysis", async () => {
    const rows = await figures('groupAnalysis', `atFrom=${DAY}&atTo=${DAY}`);
    // Four specimens registered that day, three reported 120, 180 and 300 minutes after receipt.
    expect(rows.find((r) => r.group === '华康医学检验中心实验室')).toMatchObject({
      specimens: 4,
      reports: 3,
      medianInLabMinutes: 180,
      p90InLabMinutes: 276,
    });
  });

  it('per hospital, group and day, counting tests', async () => {
    const period = `reportedAtFrom=${DAY}&reportedAtTo=${DAY}`;
    const [h1, h2] = await Promise.all(hospitals.map((id) => admin.get<Row>(`/api/resources/referralHospital/${id}`)));
    expect(
      pick(await figures('inLabTat', `${period}&by=hospital&sort=count,desc`), 'count', 'medianMinutes', 'p90Minutes'),
    ).toEqual([
      { group: h1!.body.resultObject.name, count: 4, medianMinutes: 240, p90Minutes: 300 },
      { group: h2!.body.resultObject.name, count: 2, medianMinutes: 120, p90Minutes: 120 },
    ]);
    expect(pick(await figures('inLabTat', `${period}&by=group`), 'count', 'medianMinutes', 'p90Minutes')).toEqual([
      { group: '临检组', count: 6, medianMinutes: 180, p90Minutes: 300 },
    ]);
    expect(pick(await figures('inLabTat', `${period}&by=day`), 'count', 'medianMinutes')).toEqual([
      { group: DAY, count: 6, medianMinutes: 180 },
    ]);
    // By month: the day alone (counted from its tests), and its whole month (from the month's counts).
    const month = DAY.slice(0, 7);
    const lastDay = new Date(Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5, 7)), 0)).getUTCDate();
    for (const span of [period, `reportedAtFrom=${month}-01&reportedAtTo=${month}-${lastDay}`])
      expect(pick(await figures('inLabTat', `${span}&by=month`), 'count', 'medianMinutes', 'p90Minutes')).toEqual([
        { group: month, count: 6, medianMinutes: 180, p90Minutes: 300 },
      ]);
    expect(await figures('inLabTat', 'reportedAtFrom=2031-03-03')).toEqual([]);
  });

  it('gives the pre-analytical figures from collection to receipt, held to the lab’s configured target', async () => {
    const query = `receivedAtFrom=${DAY}&receivedAtTo=${DAY}&by=test&sort=group,asc`;
    // 30, 60, 90 minutes; the default target is 120 minutes.
    expect(
      pick(await figures('preInspectionTat', query), 'count', 'medianMinutes', 'p90Minutes', 'withinTargetShare'),
    ).toEqual([
      { group: '白细胞计数', count: 3, medianMinutes: 60, p90Minutes: 84, withinTargetShare: 100 },
      { group: '血红蛋白', count: 3, medianMinutes: 60, p90Minutes: 84, withinTargetShare: 100 },
    ]);
    const bad = await admin.post('/api/customConfig/updateCustomConfig', {
      configKey: 'statisticsTat',
      configValue: { preAnalyticalMinutes: 0, inLabMinutes: 1440 },
    });
    expect(bad.status).toBe(400);
    const saved = await admin.post('/api/customConfig/updateCustomConfig', {
      configKey: 'statisticsTat',
      configValue: { preAnalyticalMinutes: 60, inLabMinutes: 1440 },
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(
      pick(await figures('preInspectionTat', query), 'targetMinutes', 'withinTarget', 'withinTargetShare'),
    ).toEqual([
      { group: '白细胞计数', targetMinutes: 60, withinTarget: 2, withinTargetShare: 66.7 },
      { group: '血红蛋白', targetMinutes: 60, withinTarget: 2, withinTargetShare: 66.7 },
    ]);
  });
});

describe('workload', () => {
  it('counts the steps each signed-in person ran in the period', async () => {
    const rows = await figures('workload', `atFrom=${DAY}&atTo=${DAY}&sort=group,asc`);
    const steps = ['registered', 'collected', 'received', 'tested', 'reviewed', 'audited', 'reported', 'count'];
    expect(pick(rows, ...steps)).toEqual([
      {
        group: 'shenhe',
        registered: 0,
        collected: 0,
        received: 0,
        tested: 0,
        reviewed: 0,
        audited: 6,
        reported: 3,
        count: 9,
      },
      {
        group: '王检验',
        registered: 5,
        collected: 3,
        received: 3,
        tested: 6,
        reviewed: 0,
        audited: 0,
        reported: 0,
        count: 17,
      },
      {
        group: '系统管理员',
        registered: 0,
        collected: 0,
        received: 0,
        tested: 0,
        reviewed: 6,
        audited: 0,
        reported: 0,
        count: 6,
      },
    ]);
    expect(await figures('workload', 'atFrom=2031-03-03')).toEqual([]);
  });
});

describe('export', () => {
  it('answers the chart’s table as an xlsx sheet: the screen’s columns, the same rows', async () => {
    const query = `reportedAtFrom=${DAY}&reportedAtTo=${DAY}&by=hospital&sort=count,desc`;
    const rows = await figures('inLabTat', query);
    const res = await fetch(`${url}/api/statistics/inLabTat/export.xlsx?${query}`, {
      headers: { authorization: `Bearer ${adminToken}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toContain(encodeURIComponent('实验室内周转时间.xlsx'));
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(await res.arrayBuffer());
    const sheet = book.worksheets[0]!;
    const values = (n: number) => (sheet.getRow(n).values as unknown[]).slice(1);
    const header = values(1) as string[];
    expect(header.slice(0, 4)).toEqual(['分组', '检验数', '中位数(分钟)', '90百分位(分钟)']);
    expect(sheet.rowCount).toBe(1 + rows.length);
    rows.forEach((row, i) => {
      expect(values(i + 2).slice(0, 4)).toEqual([row.group, row.count, row.medianMinutes, row.p90Minutes]);
    });
  });
});
