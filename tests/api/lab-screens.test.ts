import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, DEMO_PASSWORD, type TestServer } from '../support/server';
import { api, tokenFor } from '../support/client';
import { checkScreenFile } from '../../src/server/kernel/screens/check';
import { validateRecord } from '../../src/shared/screens/validate';
import type { ScreenSchema } from '../../src/shared/screens/fields';
import { localDateTime } from '../../src/shared/time';

type Rec = Record<string, unknown> & { id: number; version: number };
interface Invalid {
  errors: { field: string; message: string }[];
}
const schemaDir = path.resolve(import.meta.dirname, '../../schemas');
/** Screens of the finance, report, customer-service, QC, handover, agent, statistics, pathology and microbiology routes. */
const LAB_MENUS = /^(208|210|211|212|213|214|215|216|217)/;

let server: TestServer;
let admin: ReturnType<typeof api>;
let adminEn: ReturnType<typeof api>;
let editor: ReturnType<typeof api>;

beforeAll(async () => {
  server = await startServer();
  const token = await tokenFor(server.url, 'admin', DEMO_PASSWORD);
  admin = api(server.url, token);
  adminEn = api(server.url, token, 'en-US');
  editor = api(server.url, await tokenFor(server.url, 'editor', DEMO_PASSWORD));
});
afterAll(() => server?.dispose());

async function create(resource: string, body: Record<string, unknown>): Promise<Rec> {
  const res = await admin.post<Rec>(`/api/resources/${resource}`, body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.resultObject;
}
const fieldMessages = (body: { resultObject: Invalid }) =>
  Object.fromEntries(body.resultObject.errors.map((e) => [e.field, e.message]));

describe('lab screen files', () => {
  const allScreens = readdirSync(path.join(schemaDir, 'screens'))
    .map((f) => checkScreenFile(path.join(schemaDir, 'screens', f), schemaDir))
    .flatMap((r) => ('screen' in r ? [r.screen] : []));
  const screens = allScreens.filter((s) => LAB_MENUS.test(String(s.menuId)));

  it('every route of the sections is served with no screen problem', async () => {
    expect(screens.length).toBeGreaterThanOrEqual(43);
    const problems = await admin.get<{ file: string }[]>('/api/ui/screen-problems');
    const mine = new Set(screens.map((s) => `schemas/screens/${s.id}.json`));
    expect(problems.body.resultObject.filter((p) => mine.has(p.file))).toEqual([]);
  });

  it("every demo row passes its screen's validation once references are resolved by title", () => {
    // References may name records of screens outside the sections (the referral hospitals finance bills).
    const byResource = new Map(allScreens.map((s) => [s.resource.name, s]));
    const mine = new Set(screens.map((s) => s.resource.name));
    const demos = new Map<string, Record<string, unknown>[]>();
    for (const s of allScreens) {
      try {
        const file = JSON.parse(readFileSync(path.join(schemaDir, 'demo', `${s.id}.json`), 'utf8')) as {
          resource: string;
          records: Record<string, unknown>[];
        };
        expect(file.resource).toBe(s.resource.name);
        demos.set(file.resource, file.records);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      }
    }
    const problems: string[] = [];
    for (const [resource, records] of demos) {
      if (!mine.has(resource)) continue;
      const screen = byResource.get(resource) as ScreenSchema;
      expect(records.length).toBeGreaterThanOrEqual(3);
      records.forEach((record, i) => {
        const row: Record<string, unknown> = { ...record };
        for (const f of screen.fields) {
          if (f.readOnly) delete row[f.key];
          if (f.type !== 'reference' || row[f.key] === undefined) continue;
          const target = byResource.get(f.reference!.resource);
          // A record of another section (an isolate's specimen) is the seed's to resolve (demo-data.test.ts).
          if (!target) {
            row[f.key] = Array.isArray(row[f.key]) ? (row[f.key] as unknown[]).map(() => 1) : 1;
            continue;
          }
          const pool = demos.get(f.reference!.resource) ?? [];
          const resolve = (title: unknown) => pool.findIndex((p) => p[target.resource.titleField!] === title) + 1 || -1;
          row[f.key] = Array.isArray(row[f.key]) ? (row[f.key] as unknown[]).map(resolve) : resolve(row[f.key]);
        }
        for (const e of validateRecord(screen, row, 'en-US')) problems.push(`${screen.id} row ${i}: ${e.message}`);
      });
    }
    expect(problems).toEqual([]);
  });
});

describe('lab screen rules through the API', () => {
  it('refuses a negative price and an agreed price above the list price', async () => {
    const negative = await admin.post<Invalid>('/api/resources/itemPrice', {
      itemCode: 'T-GLU',
      itemName: '葡萄糖',
      priceType: 'standard',
      standardPrice: 5,
      settlementPrice: -1,
      effectiveFrom: '2030-01-01',
    });
    expect(negative.status).toBe(400);
    expect(fieldMessages(negative.body)).toEqual({ settlementPrice: '结算价(元)不能小于0' });
    const above = await adminEn.post<Invalid>('/api/resources/itemPrice', {
      itemCode: 'T-GLU',
      itemName: '葡萄糖',
      priceType: 'agreement',
      standardPrice: 5,
      settlementPrice: 6,
      effectiveFrom: '2030-01-01',
    });
    expect(fieldMessages(above.body)).toEqual({ settlementPrice: 'An agreed price cannot exceed the list price' });
  });

  it('refuses a QC plan without its material, or with one that does not exist, with the shared messages', async () => {
    const missing = await admin.post<Invalid>('/api/resources/qcPlan', {
      name: 'T 计划',
      instrument: 'AU5800-1',
      frequency: 'daily',
      startDate: '2030-01-01',
    });
    expect(fieldMessages(missing.body)).toMatchObject({
      material: '质控品不能为空',
      ruleCombination: '规则组合不能为空',
    });
    const dangling = await admin.post<Invalid>('/api/resources/qcPlan', {
      name: 'T 计划',
      material: 999999,
      ruleCombination: 999998,
      instrument: 'AU5800-1',
      frequency: 'daily',
      startDate: '2030-01-01',
    });
    expect(dangling.status).toBe(400);
    expect(fieldMessages(dangling.body)).toEqual({
      material: '质控品引用的数据不存在',
      ruleCombination: '规则组合引用的数据不存在',
    });
  });

  it('checks the parameters of a QC rule: a limit for limit rules, at most 12 consecutive values', async () => {
    const category = await create('qcRuleCategory', { code: 'T-SJ', name: 'T 随机误差', errorType: 'random' });
    const bad = await adminEn.post<Invalid>('/api/resources/qcRule', {
      code: 'T1-3s',
      name: 'T 1-3s',
      category: category.id,
      ruleType: 'beyond',
      count: 13,
      severity: 'reject',
    });
    expect(fieldMessages(bad.body)).toEqual({
      sdLimit: 'Limit (SD) is required',
      count: 'Count must not be greater than 12',
    });
  });

  it('evaluates QC results with the Westgard rules of the plan: 1-2s warns, then 2-2s rejects', async () => {
    const category = await create('qcRuleCategory', { code: 'T-XT', name: 'T 系统误差', errorType: 'systematic' });
    const rules = [
      await create('qcRule', {
        code: 'T1-2s',
        name: 'T 1-2s',
        category: category.id,
        ruleType: 'beyond',
        sdLimit: 2,
        count: 1,
        acrossRuns: false,
        severity: 'warning',
      }),
      await create('qcRule', {
        code: 'T1-3s',
        name: 'T 1-3s',
        category: category.id,
        ruleType: 'beyond',
        sdLimit: 3,
        count: 1,
        acrossRuns: false,
        severity: 'reject',
      }),
      await create('qcRule', {
        code: 'T2-2s',
        name: 'T 2-2s',
        category: category.id,
        ruleType: 'consecutiveBeyond',
        sdLimit: 2,
        count: 2,
        acrossRuns: true,
        severity: 'reject',
      }),
    ];
    const combination = await create('qcRuleCombination', {
      code: 'T-WG',
      name: 'T Westgard',
      rules: rules.map((r) => r.id),
      levels: 1,
    });
    const material = await create('qcMaterial', {
      name: 'T GLU 水平1',
      lotNo: 'T1',
      itemCode: 'GLU',
      level: 'L1',
      targetMean: 5.2,
      targetSd: 0.12,
      receivedDate: '2030-01-01',
      expiryDate: '2031-01-01',
    });
    const plan = await create('qcPlan', {
      name: 'T AU5800 GLU 水平1',
      material: material.id,
      ruleCombination: combination.id,
      instrument: 'AU5800-T',
      frequency: 'daily',
      startDate: '2030-01-01',
    });
    const run = async (day: string, value: number) => {
      const result = await create('qcResult', {
        plan: plan.id,
        runAt: `2030-01-${day} 08:00:00`,
        runNo: `203001${day}-1`,
        value,
      });
      const res = await admin.post<Rec>(`/api/qc/results/${result.id}/evaluate`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.resultObject;
    };
    expect(await run('01', 5.23)).toMatchObject({ zScore: 0.25, violations: '', status: 'accept' });
    expect(await run('02', 5.47)).toMatchObject({ zScore: 2.25, violations: 'T1-2s', status: 'warning' });
    expect(await run('03', 5.49)).toMatchObject({ violations: 'T1-2s, T2-2s', status: 'reject' });
    // The operation log keeps the evaluation with before and after.
    const log = await admin.get<{ records: { action: string }[] }>('/api/log/getLogList?resource=qcResult');
    expect(log.body.resultObject.records.some((r) => r.action === 'qcEvaluate')).toBe(true);
    // An editor may evaluate (QC results are staff work); the chart lists the evaluated points.
    const chart = await editor.get<{ records: Rec[] }>(`/api/qc/chart?plan=${plan.id}`);
    expect(chart.body.resultObject.records.map((p) => [p.value, p.upper2s, p.violations])).toEqual([
      [5.23, 5.44, ''],
      [5.47, 5.44, 'T1-2s'],
      [5.49, 5.44, 'T1-2s, T2-2s'],
    ]);
  });

  it('audits a settlement in two steps and refuses the same person for both', async () => {
    // A statement is computed from charge lines: a specimen of the hospital registered today makes some.
    const hospital = await create('referralHospital', {
      code: 'T-YY1',
      name: 'T 测试医院',
      level: '2A',
      settlement: 'monthly',
      reportDelivery: 'online',
    });
    const firstId = async (resource: string) =>
      (await admin.get<{ records: Rec[] }>(`/api/resources/${resource}?size=1`)).body.resultObject.records[0]!.id;
    await create('specimen', {
      patientName: 'T 结算患者',
      sex: 'female',
      hospital: hospital.id,
      purposes: [await firstId('inspectionPurpose')],
      specimenType: await firstId('specimenType'),
      collectedAt: localDateTime(new Date()),
    });
    const today = localDateTime(new Date()).slice(0, 10);
    const statement = await create('reconciliation', { hospital: hospital.id, periodFrom: today, periodTo: today });
    expect(Number(statement.payableAmount)).toBeGreaterThan(0);
    // The amount settled is the statement's, whatever is typed.
    const audit = await create('settlementAudit', { auditNo: 'T-SH-1', statement: statement.id, amount: 1 });
    expect(audit.amount).toBe(statement.payableAmount);
    const first = await admin.post<Rec>(`/api/finance/settlementAudit/${audit.id}/approve`, { opinion: '核对一致' });
    expect(first.body.resultObject).toMatchObject({
      status: 'finalPending',
      firstAuditor: 'admin',
      opinion: '核对一致',
    });
    const again = await admin.post<Invalid>(`/api/finance/settlementAudit/${audit.id}/approve`);
    expect(again.status).toBe(400);
    expect(again.body.resultMessage).toBe('终审人不能与初审人为同一人');
    expect((await editor.post(`/api/finance/settlementAudit/${audit.id}/approve`)).status).toBe(403);
  });

  it('takes no report written by hand: reports are issued by the server, and figures count only what happened', async () => {
    const hospital = (await admin.get<{ records: Rec[] }>('/api/resources/referralHospital?size=1')).body.resultObject
      .records[0]!;
    const figures = async () => {
      const volume = await editor.get<{ records: Rec[] }>('/api/statistics/professionalGroupVolume?by=day');
      const tat = await editor.get<{ records: Rec[] }>('/api/statistics/inLabTat?by=day');
      return [volume.body.resultObject.records, tat.body.resultObject.records];
    };
    const before = await figures();
    const typed = await admin.post('/api/resources/reportRecord', {
      reportNo: 'T-BG1',
      barcode: 'T-BG1',
      patientName: '患者',
      hospital: hospital.id,
      itemNames: '血常规',
      professionalGroup: '临检组',
      receivedAt: '2030-02-01 08:00:00',
      reportedAt: '2030-02-01 09:00:00',
      reviewer: '孙磊',
    });
    expect(typed.status).toBe(403);
    expect(
      (await admin.get<{ total: number }>('/api/resources/reportRecord?reportNo=T-BG1')).body.resultObject.total,
    ).toBe(0);
    expect(await figures()).toEqual(before);
    expect((await editor.get('/api/statistics/nothing')).status).toBe(404);
  });
});
