import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, DEMO_PASSWORD, type TestServer } from '../support/server';
import { api, tokenFor } from '../support/client';
import { enterSpecimens } from '../support/specimens';
import { pdfText } from '../support/pdfText';
import { createRole, createUser, STAFF_PASSWORD } from '../support/workflow';
import { idByName } from '../support/results';

/**
 * Pathology sign-out: a case grossed from a received specimen, its blocks and slides each labelled and
 * each step stamped with who did it, a diagnosis signed by one pathologist and reviewed by another with
 * their passwords, the pathology report issued on sign-out; an amendment issues a corrected version.
 */
type Rec = Record<string, unknown> & { id: number; version: number; status: string };
type Page = { records: Rec[]; total: number };

let server: TestServer;
let admin: ReturnType<typeof api>;
let reviewer: ReturnType<typeof api>;
let adminToken = '';

beforeAll(async () => {
  server = await startServer();
  adminToken = await tokenFor(server.url, 'admin', DEMO_PASSWORD);
  admin = api(server.url, adminToken);
  const role = await createRole(admin, '病理医生', [21601, 21602, 21603, 20704]);
  await createUser(admin, 'binglifuhe', [role]);
  reviewer = api(server.url, await tokenFor(server.url, 'binglifuhe', STAFF_PASSWORD));
});
afterAll(() => server?.dispose());

const list = async (path: string) => (await admin.get<Page>(path)).body.resultObject.records;
const one = async (resource: string, id: number) =>
  (await admin.get<Rec>(`/api/resources/${resource}/${id}`)).body.resultObject;
const step = (who: ReturnType<typeof api>, resource: string, id: number, name: string, body = {}) =>
  who.post<Rec>(`/api/resources/${resource}/${id}/transitions/${name}`, body);
const fetchPdf = async (path: string) => {
  const res = await fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${adminToken}` } });
  expect(res.headers.get('content-type')).toBe('application/pdf');
  return pdfText(Buffer.from(await res.arrayBuffer()));
};

/** A histopathology specimen entered and received by the lab. */
async function receivedSpecimen(): Promise<{ barcode: string; id: number }> {
  const [barcode] = await enterSpecimens(admin, 1, {
    patientName: '周国平',
    sex: 'male',
    age: 63,
    purposes: [await idByName(admin, 'inspectionPurpose', '组织病理检查')],
  });
  const [specimen] = await list(`/api/resources/specimen?barcode=${barcode}`);
  expect((await step(admin, 'specimen', specimen!.id, 'receive')).body.resultCode).toBe(200);
  return { barcode: barcode!, id: specimen!.id };
}

const grossing = (barcode: string) => ({
  barcode,
  specimenKind: 'resection',
  site: '远端胃',
  grossDescription: '远端胃切除标本，胃窦小弯侧见一溃疡型肿物 3.5×3×1.2cm',
  blockCount: 2,
  // What the server knows is never taken from the form: these are ignored.
  patientName: '别人',
  sampledBy: '他人',
  pathologyNo: 'P1999-00001',
});

describe('a pathology case', () => {
  it('asks the signer’s password in the dialogs of the signing steps, and only there', async () => {
    type Action = { label?: { 'zh-CN': string }; fields?: { key: string; form?: { secret?: boolean } }[] };
    const screen = (await admin.get<{ actions: { row: Action[] } }>('/api/ui/screens/pathology-diagnosis')).body
      .resultObject;
    const asked = (label: string) => screen.actions.row.find((a) => a.label?.['zh-CN'] === label)?.fields ?? [];
    for (const label of ['诊断签名', '复核签发'])
      expect(asked(label).find((f) => f.key === 'password')?.form?.secret).toBe(true);
    expect(asked('修正诊断').map((f) => f.key)).toEqual(['amendReason']);
  });

  it('is grossed only from a received specimen, the patient and numbers the server’s own', async () => {
    const [unreceived] = await enterSpecimens(admin, 1, { patientName: '未接收' });
    const early = await admin.post('/api/resources/pathologySampling', grossing(unreceived!));
    expect(early.body.resultMessage).toContain('接收后才能取材');
    const unknown = await admin.post('/api/resources/pathologySampling', grossing('NOPE0001'));
    expect(unknown.body.resultMessage).toContain('没有对应的标本');
    expect((await list('/api/resources/pathologySampling?patientName=未接收')).length).toBe(0);

    const { barcode, id } = await receivedSpecimen();
    const created = await admin.post<Rec>('/api/resources/pathologySampling', grossing(barcode));
    expect(created.body.resultCode, JSON.stringify(created.body)).toBe(200);
    const c = created.body.resultObject;
    expect(c).toMatchObject({ patientName: '周国平', sex: 'M', age: 63, sampledBy: '系统管理员', status: 'sampled' });
    expect(String(c.pathologyNo)).toMatch(/^P\d{4}-\d{5}$/);
    expect(c.pathologyNo).not.toBe('P1999-00001');
    expect((await one('specimen', id)).status).toBe('inTesting');
    // A second case for the same specimen is refused.
    const again = await admin.post('/api/resources/pathologySampling', grossing(barcode));
    expect(again.body.resultMessage).toContain(String(c.pathologyNo));
  });

  it('goes from blocks to slides to a signed, reviewed diagnosis and its pathology report', async () => {
    const { barcode, id: specimenId } = await receivedSpecimen();
    const c = (await admin.post<Rec>('/api/resources/pathologySampling', grossing(barcode))).body.resultObject;
    const no = String(c.pathologyNo);

    // Grossing made one labelled block per block taken.
    const blocks = await list(`/api/resources/pathologyOperation?case=${c.id}&kind=block`);
    expect(blocks.map((b) => b.labelNo).sort()).toEqual([`${no}-A1`, `${no}-A2`]);
    const labels = await fetchPdf(`/api/resources/pathologyOperation/labels?ids=${blocks.map((b) => b.id).join(',')}`);
    expect(labels).toContain(`${no}-A1`);
    expect(labels).toContain(`${no}-A2`);

    // Embedding starts processing; sectioning cuts labelled slides; a recut continues the numbering.
    const a1 = blocks.find((b) => b.labelNo === `${no}-A1`)!;
    expect(
      (await step(admin, 'pathologyOperation', a1.id, 'section', { operation: 'he', stain: 'HE', slideCount: 1 })).body
        .resultMessage,
    ).toBe('当前状态为「已取材」，不能执行「切片」');
    const embedded = await step(admin, 'pathologyOperation', a1.id, 'embed');
    expect(embedded.body.resultObject).toMatchObject({ status: 'embedded', operator: '系统管理员' });
    expect((await one('pathologySampling', c.id)).status).toBe('processing');
    const missing = await step(admin, 'pathologyOperation', a1.id, 'section', {});
    expect(missing.body.resultCode).not.toBe(200);
    await step(admin, 'pathologyOperation', a1.id, 'section', { operation: 'he', stain: 'HE', slideCount: 2 });
    await step(admin, 'pathologyOperation', a1.id, 'section', {
      operation: 'ihc',
      stain: 'Ki-67 (MIB-1)',
      slideCount: 1,
    });
    const slides = await list(`/api/resources/pathologyOperation?case=${c.id}&kind=slide`);
    expect(slides.map((s) => [s.labelNo, s.operation, s.stain, s.status]).sort()).toEqual([
      [`${no}-A1-1`, 'he', 'HE', 'cut'],
      [`${no}-A1-2`, 'he', 'HE', 'cut'],
      [`${no}-A1-3`, 'ihc', 'Ki-67 (MIB-1)', 'cut'],
    ]);
    const slide = slides.find((s) => s.labelNo === `${no}-A1-3`)!;
    await step(admin, 'pathologyOperation', slide.id, 'stain');
    const graded = await step(reviewer, 'pathologyOperation', slide.id, 'grade', { quality: 'A' });
    expect(graded.body.resultObject).toMatchObject({ status: 'graded', quality: 'A', gradedBy: 'binglifuhe' });
    // The grade and the stamps are the steps' own: an edit writes the remark only.
    const edited = await admin.put<Rec>(`/api/resources/pathologyOperation/${slide.id}`, {
      ...graded.body.resultObject,
      quality: 'C',
      operator: '他人',
      remark: '轻度刀痕',
    });
    expect(edited.body.resultObject).toMatchObject({ quality: 'A', operator: '系统管理员', remark: '轻度刀痕' });

    // The diagnosis: written, signed by its pathologist with the password, reviewed by another.
    const written = await admin.post<Rec>('/api/resources/pathologyDiagnosis', {
      case: c.id,
      microscopy: '癌组织呈腺管状排列，浸润至浆膜下层',
      diagnosis: '（远端胃）溃疡型中分化腺癌，浸润至浆膜下层',
      nature: 'malignant',
      icdO: '8140/3',
      diagnosedBy: '冒名',
    });
    expect(written.body.resultCode, JSON.stringify(written.body)).toBe(200);
    const d = written.body.resultObject;
    expect(d.diagnosedBy ?? null).toBeNull();
    expect((await one('pathologySampling', c.id)).status).toBe('diagnosing');
    expect(
      (await step(admin, 'pathologyDiagnosis', d.id, 'review', { password: DEMO_PASSWORD })).body.resultMessage,
    ).toBe('当前状态为「草稿」，不能执行「复核签发」');
    expect((await step(admin, 'pathologyDiagnosis', d.id, 'sign', {})).body.resultCode).not.toBe(200);
    expect((await step(admin, 'pathologyDiagnosis', d.id, 'sign', { password: 'wrong' })).body.resultCode).not.toBe(
      200,
    );
    const signed = await step(admin, 'pathologyDiagnosis', d.id, 'sign', { password: DEMO_PASSWORD });
    expect(signed.body.resultObject).toMatchObject({
      status: 'signed',
      diagnosedBy: '系统管理员',
      diagnosedByAccount: 'admin',
    });
    // Signed, it is no longer edited; its own author cannot review it.
    const locked = await admin.put(`/api/resources/pathologyDiagnosis/${d.id}`, {
      ...signed.body.resultObject,
      diagnosis: '改',
    });
    expect(locked.body.resultMessage).toContain('诊断已签名');
    const own = await step(admin, 'pathologyDiagnosis', d.id, 'review', { password: DEMO_PASSWORD });
    expect(own.body.resultMessage).toBe('复核医生不能与诊断医生为同一人');
    const reviewed = await step(reviewer, 'pathologyDiagnosis', d.id, 'review', { password: STAFF_PASSWORD });
    expect(reviewed.body.resultCode, JSON.stringify(reviewed.body)).toBe(200);
    expect(reviewed.body.resultObject).toMatchObject({ status: 'signedOut', reviewedBy: 'binglifuhe' });
    expect((await one('pathologySampling', c.id)).status).toBe('signedOut');
    expect((await one('specimen', specimenId)).status).toBe('reported');

    // The signatures are in the diagnosis's history with signer, time and meaning.
    const history = (await admin.get<Rec[]>(`/api/resources/pathologyDiagnosis/${d.id}/events`)).body.resultObject;
    const signatures = history.map(
      (e) => (e.details as { signature?: { account: string; meaning: string } })?.signature,
    );
    expect(signatures.filter(Boolean).map((s) => [s!.account, s!.meaning])).toEqual([
      ['admin', '诊断签名'],
      ['binglifuhe', '复核签发'],
    ]);

    // The pathology report: issued on sign-out, its PDF holding the text and both signers.
    const [report] = await list(`/api/resources/reportRecord?pathologyNo=${no}`);
    expect(report).toMatchObject({ reportVersion: 1, corrected: false, status: 'published', barcode });
    const text = await fetchPdf(`/api/reports/${report!.id}/pdf`);
    for (const expected of [
      '病理诊断报告',
      no,
      '周国平',
      '溃疡型中分化腺癌',
      '8140/3',
      '胃窦小弯侧',
      '诊断医生：系统管理员',
      '复核医生：binglifuhe',
    ])
      expect(text).toContain(expected);
    // A pathology report is not reissued from the report screen.
    await admin.post(`/api/resources/reportRecord/${report!.id}/transitions/invalidate`, { invalidReason: '试' });
    const reissue = await admin.post(`/api/reports/${report!.id}/reissue`, {});
    expect(reissue.body.resultMessage).toContain('病理报告');
  });

  it('is amended with a reason and signed out again as a corrected report, the first one kept', async () => {
    const { barcode } = await receivedSpecimen();
    const c = (await admin.post<Rec>('/api/resources/pathologySampling', grossing(barcode))).body.resultObject;
    const d = (
      await admin.post<Rec>('/api/resources/pathologyDiagnosis', {
        case: c.id,
        diagnosis: '慢性胃炎',
        nature: 'inflammatory',
      })
    ).body.resultObject;
    await step(admin, 'pathologyDiagnosis', d.id, 'sign', { password: DEMO_PASSWORD });
    await step(reviewer, 'pathologyDiagnosis', d.id, 'review', { password: STAFF_PASSWORD });
    const amend = await step(admin, 'pathologyDiagnosis', d.id, 'amend', { amendReason: '免疫组化结果补充' });
    expect(amend.body.resultObject.status).toBe('amended');
    expect((await one('pathologySampling', c.id)).status).toBe('diagnosing');
    const edited = await admin.put<Rec>(`/api/resources/pathologyDiagnosis/${d.id}`, {
      ...amend.body.resultObject,
      diagnosis: '慢性萎缩性胃炎伴肠化',
    });
    expect(edited.body.resultCode, JSON.stringify(edited.body)).toBe(200);
    await step(admin, 'pathologyDiagnosis', d.id, 'sign', { password: DEMO_PASSWORD });
    await step(reviewer, 'pathologyDiagnosis', d.id, 'review', { password: STAFF_PASSWORD });
    const reports = (await list(`/api/resources/reportRecord?pathologyNo=${String(c.pathologyNo)}`)).sort(
      (a, b) => Number(a.reportVersion) - Number(b.reportVersion),
    );
    expect(reports.map((r) => [r.reportVersion, r.status, r.corrected])).toEqual([
      [1, 'invalidated', false],
      [2, 'published', true],
    ]);
    expect(reports[0]).toMatchObject({
      invalidReason: '免疫组化结果补充',
      replacedBy: `${String(reports[1]!.reportNo)} v2`,
    });
    expect(await fetchPdf(`/api/reports/${reports[0]!.id}/pdf`)).toContain('慢性胃炎');
    const corrected = await fetchPdf(`/api/reports/${reports[1]!.id}/pdf`);
    expect(corrected).toContain('慢性萎缩性胃炎伴肠化');
    expect(corrected).toContain('免疫组化结果补充');
    expect(corrected).toContain('更正报告');
  });
});
