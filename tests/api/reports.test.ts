import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/server/kernel/db/database';
import { startServer, databaseUrlOf, DEMO_PASSWORD, type TestServer } from '../support/server';
import { api, tokenFor } from '../support/client';
import { enterSpecimens } from '../support/specimens';
import { pdfText } from '../support/pdfText';
import { STAFF_PASSWORD } from '../support/workflow';
import { clinicalAuditor, idByName } from '../support/results';

/**
 * Patient reports: issued by the server when a specimen's results are audited, the PDF kept as issued
 * with values, flags, ranges and signers; invalidated with a reason and reissued as a corrected version.
 */
type Rec = Record<string, unknown> & { id: number; version: number; status: string };
type Page = { records: Rec[]; total: number };

let server: TestServer;
let admin: ReturnType<typeof api>;
let editor: ReturnType<typeof api>;
let auditor: ReturnType<typeof api>;
let adminToken = '';

const idOf = (resource: string, name: string) => idByName(admin, resource, name);

beforeAll(async () => {
  server = await startServer();
  adminToken = await tokenFor(server.url, 'admin', DEMO_PASSWORD);
  admin = api(server.url, adminToken);
  editor = api(server.url, await tokenFor(server.url, 'editor', DEMO_PASSWORD));
  ({ auditor } = await clinicalAuditor(server.url, admin));
});
afterAll(() => server?.dispose());

async function pdfOf(id: number) {
  const res = await fetch(`${server.url}/api/reports/${id}/pdf`, {
    headers: { authorization: `Bearer ${adminToken}` },
  });
  expect(res.headers.get('content-type')).toBe('application/pdf');
  return pdfText(Buffer.from(await res.arrayBuffer()));
}
/** A specimen's reports, oldest version first. */
const reportsOf = async (barcode: string) =>
  (await admin.get<Page>(`/api/resources/reportRecord?barcode=${barcode}`)).body.resultObject.records.sort(
    (a, b) => Number(a.reportVersion) - Number(b.reportVersion),
  );

/** A 血常规 specimen taken from entry to audited results: WBC high, HGB normal. */
async function auditedBloodCount() {
  const [barcode] = await enterSpecimens(editor, 1, {
    purposes: [await idOf('inspectionPurpose', '血常规')],
    sex: 'male',
    age: 50,
  });
  const specimen = (await admin.get<Page>(`/api/resources/specimen?barcode=${barcode}`)).body.resultObject.records[0]!;
  await editor.post(`/api/resources/specimen/${specimen.id}/transitions/receive`, {});
  const results = (await admin.get<Page>(`/api/resources/inspectionResult?barcode=${barcode}`)).body.resultObject
    .records;
  const value = (r: Rec) => ((r.labels as { item: string }).item === '白细胞计数' ? '12.3' : '140');
  const saved = await editor.post('/api/results/worksheet', {
    rows: results.map((r) => ({ id: r.id, result: value(r) })),
  });
  expect(saved.body.resultCode, JSON.stringify(saved.body)).toBe(200);
  const ids = results.map((r) => r.id);
  expect((await admin.post('/api/results/approve/firstReview', { ids, password: DEMO_PASSWORD })).body.resultCode).toBe(
    200,
  );
  expect((await auditor.post('/api/results/approve/audit', { ids, password: STAFF_PASSWORD })).body.resultCode).toBe(
    200,
  );
  return { barcode: barcode!, specimenId: specimen.id, resultIds: ids };
}

describe('the patient report', () => {
  it('is issued when the results are audited, its PDF holding values, flags, ranges and signers', async () => {
    const { barcode, specimenId, resultIds } = await auditedBloodCount();
    const [report] = await reportsOf(barcode);
    expect(report).toMatchObject({
      reportVersion: 1,
      corrected: false,
      status: 'published',
      reviewer: '系统管理员',
      auditor: 'shenhe',
    });
    expect(String(report!.reportNo)).toMatch(/^BG\d{12}$/);
    expect((await admin.get<Rec>(`/api/resources/specimen/${specimenId}`)).body.resultObject.status).toBe('reported');
    for (const id of resultIds)
      expect((await admin.get<Rec>(`/api/resources/inspectionResult/${id}`)).body.resultObject.status).toBe(
        'published',
      );
    const text = await pdfOf(report!.id);
    for (const expected of [
      '检验报告单',
      '白细胞计数',
      '12.30',
      'H ↑',
      '3.5-9.5',
      '血红蛋白',
      '140',
      '130-175',
      '王检验',
      '系统管理员',
      'shenhe',
      barcode,
    ])
      expect(text).toContain(expected);
    const views = (
      await admin.get<{ kind: string; name: string }[]>(`/api/resources/reportRecord/${report!.id}/events`)
    ).body.resultObject;
    expect(views.filter((e) => e.kind === 'print').map((e) => e.name)).toEqual(['view']);
  });

  it('keeps its record as issued: an edit of an issued report changes none of it', async () => {
    const { barcode } = await auditedBloodCount();
    const [report] = await reportsOf(barcode);
    const res = await admin.put<Rec>(`/api/resources/reportRecord/${report!.id}`, {
      ...report,
      patientName: '篡改',
      reviewer: '冒名',
      itemNames: '无',
    });
    expect(res.status).toBe(200);
    const [after] = await reportsOf(barcode);
    expect(after).toMatchObject({
      patientName: report!.patientName,
      reviewer: report!.reviewer,
      itemNames: report!.itemNames,
    });
  });

  it('prints with the merged report’s template and the hospital’s own title and seal', async () => {
    const png =
      'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
    // 体检血液合并报告 (demo) merges 血常规 under 体检汇总报告: the template the lab now adds.
    const template = await admin.post<Rec>('/api/resources/reportTemplate', {
      code: 'TJHZ',
      name: '体检汇总报告',
      professionalGroup: 'clinical',
      paperSize: 'A5',
      orientation: 'portrait',
      enabled: true,
    });
    expect(template.body.resultCode, JSON.stringify(template.body)).toBe(200);
    const hospital = (await admin.get<Page>('/api/resources/referralHospital?size=1')).body.resultObject.records[0]!;
    const own = await admin.post<Rec>('/api/resources/hospitalPersonalization', {
      hospitalName: String(hospital.name),
      reportTitle: `${String(hospital.name)} 委托检验报告单`,
      seal: png,
      enabled: true,
    });
    expect(own.body.resultCode, JSON.stringify(own.body)).toBe(200);
    try {
      const { barcode } = await auditedBloodCount();
      const [report] = await reportsOf(barcode);
      expect(report!.template).toBe(template.body.resultObject.id);
      const res = await fetch(`${server.url}/api/reports/${report!.id}/pdf`, {
        headers: { authorization: `Bearer ${adminToken}` },
      });
      const pdf = Buffer.from(await res.arrayBuffer());
      expect(await pdfText(pdf)).toContain(`${String(hospital.name)} 委托检验报告单`);
      expect(pdf.toString('latin1')).toContain('/Subtype /Image');
    } finally {
      await admin.put(`/api/resources/hospitalPersonalization/${own.body.resultObject.id}`, {
        ...own.body.resultObject,
        enabled: false,
      });
    }
  });

  it('is invalidated with a reason and reissued as a corrected version 2, version 1 kept', async () => {
    const { barcode } = await auditedBloodCount();
    const [v1] = await reportsOf(barcode);
    const early = await admin.post(`/api/reports/${v1!.id}/reissue`);
    expect(early.body.resultMessage).toBe('只有已作废且尚未更正的报告才能重新发布');
    const noReason = await admin.post(`/api/resources/reportRecord/${v1!.id}/transitions/invalidate`, {});
    expect(noReason.status).toBe(400);
    const invalid = await admin.post<Rec>(`/api/resources/reportRecord/${v1!.id}/transitions/invalidate`, {
      invalidReason: '患者姓名录入错误',
    });
    expect(invalid.body.resultObject).toMatchObject({ status: 'invalidated', invalidatedBy: '系统管理员' });
    const reissued = await admin.post<Rec>(`/api/reports/${v1!.id}/reissue`);
    expect(reissued.body.resultCode, reissued.body.resultMessage).toBe(200);
    const [old, next] = await reportsOf(barcode);
    expect(next).toMatchObject({
      reportNo: v1!.reportNo,
      reportVersion: 2,
      corrected: true,
      status: 'published',
      replaces: `${String(v1!.reportNo)} v1`,
    });
    expect(old).toMatchObject({ status: 'invalidated', replacedBy: `${String(v1!.reportNo)} v2` });
    expect(await pdfOf(next!.id)).toContain('第2版（更正报告');
    expect(await pdfOf(old!.id)).toContain('第1版');
    expect((await admin.post(`/api/reports/${v1!.id}/reissue`)).body.resultMessage).toBe(
      '只有已作废且尚未更正的报告才能重新发布',
    );
  });
});

describe("a signature's report PDFs", () => {
  it('are drawn and kept once the signature is committed, whether or not anyone views them', async () => {
    const signed = [await auditedBloodCount(), await auditedBloodCount()];
    const ids = (await Promise.all(signed.map((s) => reportsOf(s.barcode)))).map((r) => r[0]!.id);
    await server.stop();
    const db = await openDatabase({ databaseUrl: databaseUrlOf(server), dataDir: server.dataDir });
    try {
      const files = await db.query<{ recordId: number; pdf: boolean }>(
        `select record_id as "recordId", substr(content, 1, 5) = '%PDF-'::bytea as pdf from record_file
          where resource = 'reportRecord' and record_id = any($1::bigint[]) order by record_id`,
        [ids],
      );
      expect(files.map((f) => [Number(f.recordId), f.pdf])).toEqual(ids.sort((a, b) => a - b).map((id) => [id, true]));
      expect(await db.query(`select id from record_file_pending`)).toEqual([]);
    } finally {
      await db.close();
    }
  });
});
