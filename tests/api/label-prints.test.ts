import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, DEMO_PASSWORD, type TestServer } from '../support/server';
import { api, tokenFor } from '../support/client';
import { enterSpecimens } from '../support/specimens';
import { pdfText } from '../support/pdfText';

/**
 * The print pages (打印流水号, 打印物流码, 打印物流二维码): the server issues the numbers and stamps who
 * printed and when; a print is a real label PDF of the record, and each print is logged.
 */
type Rec = Record<string, unknown> & { id: number; version: number };
type Page = { records: Rec[]; total: number };

let server: TestServer;
let admin: ReturnType<typeof api>;
let token = '';

beforeAll(async () => {
  server = await startServer();
  token = await tokenFor(server.url, 'admin', DEMO_PASSWORD);
  admin = api(server.url, token);
});
afterAll(() => server?.dispose());

const first = async (resource: string, query = '') =>
  (await admin.get<Page>(`/api/resources/${resource}?size=1${query}`)).body.resultObject.records[0]!;
async function create(resource: string, body: Record<string, unknown>) {
  const res = await admin.post<Rec>(`/api/resources/${resource}`, body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.resultObject;
}
async function labels(resource: string, ids: number[]) {
  const res = await fetch(`${server.url}/api/resources/${resource}/labels?ids=${ids.join(',')}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(res.headers.get('content-type')).toBe('application/pdf');
  const bytes = Buffer.from(await res.arrayBuffer());
  return { text: pdfText(bytes), pages: bytes.toString('latin1').match(/\/Type \/Page\b/g)?.length ?? 0 };
}
const prints = async (resource: string, id: number) =>
  (await admin.get<{ kind: string; actorName: string }[]>(`/api/resources/${resource}/${id}/events`)).body.resultObject
    .filter((e) => e.kind === 'print')
    .map((e) => e.actorName);

describe('logistics labels', () => {
  it('issues the box number and stamps who printed it and when, whatever the form sent', async () => {
    const hospital = (await first('referralHospital')).id;
    const body = { hospital, boxNo: 'B-1', specimenCount: 12, courier: 'sf', logisticsNo: 'TYPED', printedBy: '别人' };
    const a = await create('logisticsCode', body);
    const b = await create('logisticsCode', body);
    expect(a.logisticsNo).toMatch(/^WL\d{8}-\d{4}$/);
    expect(Number(String(b.logisticsNo).slice(-4))).toBe(Number(String(a.logisticsNo).slice(-4)) + 1);
    expect(a).toMatchObject({ printedBy: '系统管理员' });
    expect(String(a.printedAt)).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    const edited = await admin.put<Rec>(`/api/resources/logisticsCode/${a.id}`, {
      ...body,
      boxNo: 'B-2',
      version: a.version,
    });
    expect(edited.body.resultObject).toMatchObject({
      boxNo: 'B-2',
      logisticsNo: a.logisticsNo,
      printedBy: '系统管理员',
    });
    const pdf = await labels('logisticsCode', [a.id, b.id]);
    expect(pdf.pages).toBe(2);
    expect(pdf.text).toContain(String(a.logisticsNo));
    expect(pdf.text).toContain(String(b.logisticsNo));
    expect(pdf.text).toContain('B-2');
    expect(await prints('logisticsCode', a.id)).toEqual(['系统管理员']);
  });

  it('prints the QR label of a box with its number, hospital and count', async () => {
    // A name that fits the 50 mm label whole (a longer one is cut with …).
    const hospital = await create('referralHospital', {
      code: 'T-QR-1',
      name: 'T 标签医院',
      level: '2A',
      settlement: 'monthly',
      reportDelivery: 'online',
    });
    const qr = await create('logisticsQrCode', {
      hospital: hospital.id,
      boxNo: 'Q-7',
      specimenCount: 3,
      temperature: 'cold',
    });
    expect(qr.qrNo).toMatch(/^QR\d{8}-\d{4}$/);
    const pdf = await labels('logisticsQrCode', [qr.id]);
    expect(pdf.text).toContain(String(qr.qrNo));
    expect(pdf.text).toContain(String(hospital.name));
    expect(pdf.text).toContain('Q-7');
  });

  it('answers 404 for a screen without a label', async () => {
    const hospital = await first('referralHospital');
    const res = await admin.get(`/api/resources/referralHospital/labels?ids=${hospital.id}`);
    expect(res.status).toBe(404);
  });
});

describe('serial numbers', () => {
  it("issues the next number of the group's rule for a registered specimen, and reprints the same number", async () => {
    const [barcode] = await enterSpecimens(admin, 1);
    const group = (await first('professionalGroup', '&name=生化组')).id;
    const a = await create('serialPrint', { barcode, professionalGroup: group, copies: 2, serialNo: 'TYPED' });
    const b = await create('serialPrint', { barcode, professionalGroup: group, copies: 1 });
    expect(a.serialNo).toMatch(/^SH-\d{8}-\d{3}$/);
    expect(Number(String(b.serialNo).slice(-3))).toBe(Number(String(a.serialNo).slice(-3)) + 1);
    const pdf = await labels('serialPrint', [a.id]);
    expect(pdf.pages).toBe(2);
    expect(pdf.text).toContain(String(a.serialNo));
    expect(pdf.text).toContain(String(barcode));
    await labels('serialPrint', [a.id]);
    expect(await prints('serialPrint', a.id)).toEqual(['系统管理员', '系统管理员']);
    expect((await first('serialPrint', `&serialNo=${a.serialNo}`)).serialNo).toBe(a.serialNo);
  });

  it('refuses a barcode no specimen has, and a group without an enabled rule, and writes nothing', async () => {
    const before = (await admin.get<Page>('/api/resources/serialPrint?size=1')).body.resultObject.total;
    const group = (await first('professionalGroup', '&name=生化组')).id;
    const unknown = await admin.post('/api/resources/serialPrint', {
      barcode: '0000000000',
      professionalGroup: group,
      copies: 1,
    });
    expect(unknown.body.resultMessage).toContain('条码 0000000000 没有登记的标本');
    const [barcode] = await enterSpecimens(admin, 1);
    const rules = (await admin.get<Page>('/api/resources/serialNumberRule?size=100')).body.resultObject.records;
    const ruled = new Set(rules.filter((r) => r.enabled !== false).map((r) => r.professionalGroup));
    const groups = (await admin.get<Page>('/api/resources/professionalGroup?size=100')).body.resultObject.records;
    const without = groups.find((g) => !ruled.has(g.id));
    expect(without, 'a demo group without a serial number rule').toBeDefined();
    const noRule = await admin.post('/api/resources/serialPrint', {
      barcode,
      professionalGroup: without!.id,
      copies: 1,
    });
    expect(noRule.body.resultMessage).toContain('该专业组没有启用的流水号规则');
    expect((await admin.get<Page>('/api/resources/serialPrint?size=1')).body.resultObject.total).toBe(before);
  });
});
