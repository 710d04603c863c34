import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiResponse, Envelope } from '../support/client';
import { startInProcess, type InProcessApp } from '../support/in-process';

/**
 * Billing from what was ordered: a month of specimens registered at the front desk (on the in-process
 * server, its clock moved day by day) gives each hospital exact charges, with an agreed price, two
 * discounts, a waiver, a cancelled specimen and a removed order; a price change recalculated; a
 * statement computed from the lines; write-offs held to what is owed.
 */
type Rec = Record<string, unknown> & { id: number; version: number };
type Line = {
  id: number;
  barcode: string;
  kind: string;
  code: string;
  reason: string;
  reverses: number | null;
  priceCents: number;
  discountCents: number;
  freeCents: number;
  payableCents: number;
  priceSource: string;
  serviceDate: string;
  createdByName: string;
  statementId: number | null;
  payable: string;
};
type Totals = { hospital: number; sampleCount: number } & Record<
  'grossCents' | 'discountCents' | 'freeCents' | 'payableCents',
  number
> &
  Record<'gross' | 'payable', string>;

let lims: InProcessApp;
const tokens = { admin: '', editor: '' };
let admin: ReturnType<typeof client>;
let desk: ReturnType<typeof client>;

/** The API as a browser calls it, answered in process. */
function client(account: 'admin' | 'editor') {
  const call = async <T>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, body?: unknown) => {
    const res = await lims.app.inject({
      method,
      url,
      headers: {
        authorization: `Bearer ${tokens[account]}`,
        ...(body !== undefined && { 'content-type': 'application/json' }),
      },
      payload: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.statusCode, body: (res.body ? res.json() : null) as Envelope<T> } as ApiResponse<Envelope<T>>;
  };
  return {
    get: <T>(url: string) => call<T>('GET', url),
    post: <T>(url: string, body: unknown = {}) => call<T>('POST', url, body),
    put: <T>(url: string, body: unknown) => call<T>('PUT', url, body),
    delete: <T>(url: string) => call<T>('DELETE', url),
  };
}

async function created(res: ApiResponse<Envelope<Rec>>): Promise<Rec> {
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.resultObject;
}
const create = async (resource: string, body: Record<string, unknown>) =>
  created(await admin.post<Rec>(`/api/resources/${resource}`, body));
const idOf = async (resource: string, name: string) =>
  (await admin.get<{ records: Rec[] }>(`/api/resources/${resource}?name=${encodeURIComponent(name)}&size=1`)).body
    .resultObject.records[0]!.id;

const MARCH = 'from=2031-03-01&to=2031-03-31';
const hospitals: Record<'A' | 'B' | 'C' | 'D', number> = { A: 0, B: 0, C: 0, D: 0 };
const purposes: Record<'liver' | 'blood' | 'electrolytes', number> = { liver: 0, blood: 0, electrolytes: 0 };
const barcodes: Record<string, string> = {};
const specimenIds: Record<string, number> = {};
let specimenType = 0;
let liverStandardPrice: Rec;

/** Moves the lab's clock to 09:00 of a day of March 2031; the staff sign in again that day. */
async function onDay(day: number) {
  lims.clock.now = new Date(2031, 2, day, 9, 0, 0);
  tokens.admin = (await lims.signIn('admin')).token;
  tokens.editor = (await lims.signIn('editor')).token;
}

/** The front desk registers a specimen of a hospital ordering these purposes. */
async function register(name: string, hospital: number, ordered: number[]) {
  const res = await desk.post<Rec & { barcode: string }>('/api/resources/specimen', {
    patientName: name,
    sex: 'female',
    age: 40,
    hospital,
    purposes: ordered,
    specimenType,
    collectedAt: '2031-03-01 08:00:00',
  });
  const specimen = await created(res);
  barcodes[name] = String(specimen.barcode);
  specimenIds[name] = specimen.id;
  return specimen;
}

const linesOf = async (query: string) =>
  (await admin.get<{ records: Line[] }>(`/api/finance/chargeLines?${query}&size=1000`)).body.resultObject.records;
async function totals(): Promise<Record<'A' | 'B' | 'C', Totals>> {
  const rows = (await admin.get<Totals[]>(`/api/finance/chargeTotals?${MARCH}`)).body.resultObject;
  const of = (id: number) => rows.find((r) => r.hospital === id)!;
  return { A: of(hospitals.A), B: of(hospitals.B), C: of(hospitals.C) };
}
const money = (t: Totals) => [t.sampleCount, t.grossCents, t.discountCents, t.freeCents, t.payableCents];

beforeAll(async () => {
  lims = await startInProcess();
  await onDay(1);
  admin = client('admin');
  desk = client('editor');
  const hospital = async (code: string, name: string) =>
    (await create('referralHospital', { code, name, level: '2A', settlement: 'monthly', reportDelivery: 'online' })).id;
  hospitals.A = await hospital('T-CH-A', 'T 甲医院');
  hospitals.B = await hospital('T-CH-B', 'T 乙医院');
  hospitals.C = await hospital('T-CH-C', 'T 丙医院');
  // Finance enters 丁 in its own screen (代理医院), a view of the one hospital record specimens name.
  hospitals.D = (
    await create('agentHospital', {
      code: 'T-CH-D',
      name: 'T 丁医院',
      level: '2A',
      salesman: await idOf('salesman', '王建国'),
      contact: '徐芳',
      phone: '0571-88231234',
      settlementCycle: 'quarterly',
    })
  ).id;
  specimenType = await idOf('specimenType', '血清');
  purposes.liver = await idOf('inspectionPurpose', '肝功能'); // SH-GGN, catalogue 36.00, 生化组
  purposes.blood = await idOf('inspectionPurpose', '血常规'); // LJ-XCG, catalogue 20.00, 临检组
  // A purpose without a price of its own is billed item by item: GLU (standard list 5.00), CREA (catalogue 8.00).
  purposes.electrolytes = (
    await create('inspectionPurpose', {
      code: 'T-DJZ',
      name: 'T 血糖肌酐',
      category: '1',
      items: [await idOf('inspectionItem', '葡萄糖'), await idOf('inspectionItem', '肌酐')],
      specimenType,
      professionalGroup: await idOf('professionalGroup', '生化组'),
    })
  ).id;
  // 肝功能 on the price list: 40.00 for everyone, 32.50 agreed with hospital A.
  liverStandardPrice = await create('itemPrice', {
    itemCode: 'SH-GGN',
    itemName: '肝功能',
    priceType: 'standard',
    standardPrice: 40,
    settlementPrice: 40,
    effectiveFrom: '2031-01-01',
  });
  await create('itemPrice', {
    itemCode: 'SH-GGN',
    itemName: '肝功能',
    hospital: hospitals.A,
    priceType: 'agreement',
    standardPrice: 40,
    settlementPrice: 32.5,
    effectiveFrom: '2031-01-01',
  });
  // Hospital B: 九折 on everything, 八五折 on 血常规 (the more specific one wins).
  const discount = { validFrom: '2031-01-01', approvedBy: '刘总', hospital: hospitals.B };
  await create('discount', { ...discount, name: 'T 乙全部九折', scope: 'all', discountRate: 90 });
  await create('discount', { ...discount, name: 'T 乙血常规', scope: 'item', itemCode: 'LJ-XCG', discountRate: 85 });

  // March 2031, a few specimens a day.
  for (let i = 1; i <= 4; i++) {
    await onDay(i);
    await register(`甲${i}`, hospitals.A, [purposes.liver, purposes.blood]);
  }
  for (let i = 1; i <= 4; i++) {
    await onDay(5 + i);
    await register(`乙${i}`, hospitals.B, [purposes.liver, purposes.blood]);
  }
  await onDay(12);
  await register('丙1', hospitals.C, [purposes.electrolytes, purposes.liver]);
  await register('丙2', hospitals.C, [purposes.electrolytes, purposes.liver]);
  // 甲状腺功能 + 肝功能 make up the set 甲功肝功组合 (115.00, below 90.00 + 36.00); 血常规 is billed on its own.
  await register('丁1', hospitals.D, [await idOf('inspectionPurpose', '甲状腺功能'), purposes.liver, purposes.blood]);
  // Cancelled on its day: its charge reversed.
  await onDay(15);
  await register('甲5', hospitals.A, [purposes.liver]);
  const cancel = await desk.post(`/api/resources/specimen/${specimenIds.甲5}/transitions/cancel`, {
    cancelReason: '患者取消',
  });
  expect(cancel.status, JSON.stringify(cancel.body)).toBe(200);
  // Refused by the lab on receipt: its charges reversed too.
  await register('甲6', hospitals.A, [purposes.liver, purposes.blood]);
  const reason = (await admin.get<{ records: Rec[] }>('/api/resources/abnormalSampleType?size=1')).body.resultObject
    .records[0]!.id;
  const reject = await desk.post(`/api/resources/specimen/${specimenIds.甲6}/transitions/reject`, {
    rejectReason: reason,
  });
  expect(reject.status, JSON.stringify(reject.body)).toBe(200);
  // 乙4's 血常规 taken off the request before collection: that order's charge reversed.
  await onDay(16);
  const b4 = (await desk.get<Rec>(`/api/resources/specimen/${specimenIds.乙4}`)).body.resultObject;
  const edit = await desk.put(`/api/resources/specimen/${b4.id}`, { ...b4, purposes: [purposes.liver] });
  expect(edit.status, JSON.stringify(edit.body)).toBe(200);
  // 丙2 is a staff check-up: its 肝功能 is not charged once the waiver is approved.
  await onDay(20);
  const waiver = await create('freeOfCharge', {
    barcode: barcodes.丙2,
    itemNames: '肝功能',
    reason: 'staff',
    applyDate: '2020-01-01', // typed by a client: the server's time of entry stands instead
  });
  // Hospital, patient and amount come from the specimen and its lines; applicant and day are who entered
  // it and when.
  expect(waiver).toMatchObject({
    applyDate: '2031-03-20 09:00:00',
    hospital: hospitals.C,
    patientName: '丙2',
    amount: 40,
    applicant: '系统管理员',
    approvalStatus: 'pending',
  });
  const approved = await admin.post<Rec>(`/api/resources/freeOfCharge/${waiver.id}/transitions/approve`, {});
  expect(approved.status, JSON.stringify(approved.body)).toBe(200);
  expect(approved.body.resultObject).toMatchObject({ approvalStatus: 'approved', approver: '系统管理员' });
}, 120_000);
afterAll(() => lims?.close());

describe('charges from what was ordered', () => {
  it("keeps one record per hospital: finance's 代理医院 and the referral hospitals are the same rows", async () => {
    const asReferral = (await admin.get<Rec>(`/api/resources/referralHospital/${hospitals.D}`)).body.resultObject;
    expect(asReferral).toMatchObject({ name: 'T 丁医院', settlementCycle: 'quarterly', settlement: 'monthly' });
    const inFinance = (await admin.get<{ records: Rec[] }>('/api/resources/agentHospital?code=T-CH-&size=10')).body
      .resultObject.records;
    expect(inFinance.map((h) => h.name).sort()).toEqual(['T 丁医院', 'T 丙医院', 'T 乙医院', 'T 甲医院']);
    const rows = (await admin.get<(Totals & { hospitalName: string })[]>(`/api/finance/chargeTotals?${MARCH}`)).body
      .resultObject;
    expect(rows.find((r) => r.hospital === hospitals.D)?.hospitalName).toBe('T 丁医院');
    // The charge-lines screen (收费明细) filters by its fields' names.
    const onScreen = await linesOf(`hospitalId=${hospitals.D}&serviceDateFrom=2031-03-01&serviceDateTo=2031-03-31`);
    expect(onScreen.map((l) => l.barcode)).toEqual(Array(onScreen.length).fill(barcodes.丁1));
    expect(onScreen.length).toBeGreaterThan(0);
  });

  it('charges each hospital exactly: agreed price, discounts, a waiver, a cancellation and a removed order', async () => {
    const t = await totals();
    // A: 4 × (32.50 agreed + 20.00) = 210.00; 甲5 cancelled and 甲6 rejected net to nothing and are not counted.
    expect(money(t.A)).toEqual([4, 21000, 0, 0, 21000]);
    // B: 3 × (40 − 10% + 20 − 15%) + 乙4 (40 − 10%) = 3 × 53.00 + 36.00.
    expect(money(t.B)).toEqual([4, 22000, 2500, 0, 19500]);
    // C: 2 × (5.00 GLU + 8.00 CREA + 40.00) = 106.00, 丙2's 肝功能 (40.00) waived.
    expect(money(t.C)).toEqual([2, 10600, 0, 4000, 6600]);
    expect([t.A.gross, t.B.payable, t.C.payable]).toEqual(['210.00', '195.00', '66.00']);
  });

  it('prices each line by the rule that applies, stamped with who registered it and its day', async () => {
    const a1 = await linesOf(`barcode=${barcodes.甲1}`);
    expect(a1.map((l) => [l.code, l.priceSource, l.payable, l.serviceDate, l.createdByName])).toEqual([
      ['SH-GGN', 'agreement', '32.50', '2031-03-01', '王检验'],
      ['LJ-XCG', 'catalogue', '20.00', '2031-03-01', '王检验'],
    ]);
    const b1 = await linesOf(`barcode=${barcodes.乙1}`);
    expect(b1.map((l) => [l.code, l.priceCents, l.discountCents, l.payableCents])).toEqual([
      ['SH-GGN', 4000, 400, 3600],
      ['LJ-XCG', 2000, 300, 1700],
    ]);
    const d1 = await linesOf(`barcode=${barcodes.丁1}`);
    expect(d1.map((l) => [l.code, l.priceSource, l.payable])).toEqual([
      ['TJ-JGN', 'catalogue', '115.00'],
      ['LJ-XCG', 'catalogue', '20.00'],
    ]);
    const c1 = await linesOf(`barcode=${barcodes.丙1}`);
    expect(c1.map((l) => [l.code, l.priceSource, l.payableCents])).toEqual([
      ['SH-GGN', 'standard', 4000],
      ['GLU', 'standard', 500],
      ['CREA', 'catalogue', 800],
    ]);
  });

  it('reverses a cancelled or rejected specimen and a removed order with a line of their own, deleting nothing', async () => {
    const a5 = await linesOf(`barcode=${barcodes.甲5}`);
    expect(a5.map((l) => [l.kind, l.reason, l.payableCents, l.serviceDate])).toEqual([
      ['charge', 'ordered', 3250, '2031-03-15'],
      ['reversal', 'cancelled', -3250, '2031-03-15'],
    ]);
    expect(a5[1]!.reverses).toBe(a5[0]!.id);
    const a6 = await linesOf(`barcode=${barcodes.甲6}`);
    expect(a6.map((l) => [l.kind, l.code, l.reason, l.payableCents])).toEqual([
      ['charge', 'SH-GGN', 'ordered', 3250],
      ['charge', 'LJ-XCG', 'ordered', 2000],
      ['reversal', 'SH-GGN', 'rejected', -3250],
      ['reversal', 'LJ-XCG', 'rejected', -2000],
    ]);
    const b4 = await linesOf(`barcode=${barcodes.乙4}`);
    expect(b4.map((l) => [l.kind, l.code, l.reason, l.payableCents])).toEqual([
      ['charge', 'SH-GGN', 'ordered', 3600],
      ['charge', 'LJ-XCG', 'ordered', 1700],
      ['reversal', 'LJ-XCG', 'orderRemoved', -1700],
    ]);
    // The waiver reprices 丙2's 肝功能: the line reversed and charged again with nothing to pay.
    const c2 = (await linesOf(`barcode=${barcodes.丙2}`)).filter((l) => l.code === 'SH-GGN');
    expect(c2.map((l) => [l.kind, l.reason, l.freeCents, l.payableCents, l.createdByName])).toEqual([
      ['charge', 'ordered', 0, 4000, '王检验'],
      ['reversal', 'waiverChanged', 0, -4000, '系统管理员'],
      ['charge', 'waiverChanged', 4000, 0, '系统管理员'],
    ]);
  });

  it('refuses a waiver for a barcode with no specimen, or naming nothing the specimen is charged for', async () => {
    const waiver = (barcode: string, itemNames: string) =>
      admin.post('/api/resources/freeOfCharge', { barcode, itemNames, reason: 'complaint' });
    const unknown = await waiver('T999999999', '肝功能');
    expect(unknown.status).toBe(400);
    expect(unknown.body.resultMessage).toBe('没有条码号为 T999999999 的标本');
    const nothing = await waiver(barcodes.甲1!, '甲状腺功能');
    expect(nothing.status).toBe(400);
    expect(nothing.body.resultMessage).toBe(`标本 ${barcodes.甲1} 没有名为“甲状腺功能”的收费项目`);
  });

  it('recalculates the month after a price change and reports what changed, traceably', async () => {
    await onDay(25);
    // 肝功能's list price goes from 40.00 to 44.00.
    const changed = await admin.put(`/api/resources/itemPrice/${liverStandardPrice.id}`, {
      ...liverStandardPrice,
      standardPrice: 44,
      settlementPrice: 44,
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    const request = await create('priceRecalculation', {
      itemCode: 'SH-GGN',
      periodFrom: '2031-03-01',
      periodTo: '2031-03-31',
      // Typed figures are not the user's to give: the server computes them.
      affectedRecords: 999,
      oldAmount: 1,
    });
    expect(request).toMatchObject({ itemName: '肝功能', status: 'pending', requestedBy: '系统管理员' });
    expect(request.affectedRecords ?? null).toBeNull();
    const run = await admin.post<Rec>(`/api/finance/priceRecalculation/${request.id}/run`);
    expect(run.status, JSON.stringify(run.body)).toBe(200);
    // B's four 肝功能 (36.00 → 39.60) and C's two (40.00 → 44.00, 丙2's still waived); A's agreed price holds.
    expect(run.body.resultObject).toMatchObject({
      status: 'done',
      affectedRecords: 6,
      affectedSpecimens: 6,
      checkedRecords: 10,
      oldAmount: 184,
      newAmount: 202.4,
      difference: 18.4,
      executedBy: '系统管理员',
      executedAt: '2031-03-25 09:00:00',
    });
    const t = await totals();
    expect(money(t.A)).toEqual([4, 21000, 0, 0, 21000]);
    expect(money(t.B)).toEqual([4, 23600, 2660, 0, 20940]);
    expect(money(t.C)).toEqual([2, 11400, 0, 4400, 7000]);
    // Before and after: each changed line reversed and charged again, both marked with the request.
    const trace = await linesOf(`recalculation=${request.id}`);
    expect(trace).toHaveLength(12);
    const b1 = trace.filter((l) => l.barcode === barcodes.乙1);
    expect(b1.map((l) => [l.kind, l.reason, l.priceCents, l.payableCents, l.serviceDate])).toEqual([
      ['reversal', 'recalculated', -4000, -3600, '2031-03-06'],
      ['charge', 'recalculated', 4400, 3960, '2031-03-06'],
    ]);
    // Run again: refused, nothing repriced twice.
    const again = await admin.post(`/api/finance/priceRecalculation/${request.id}/run`);
    expect(again.status).toBe(400);
    expect(await linesOf(`recalculation=${request.id}`)).toHaveLength(12);
  });
});

describe('statements and write-offs from the lines', () => {
  let statement: Rec;

  it('makes a statement whose figures are the sums of its lines, and settles them', async () => {
    await onDay(31);
    statement = await create('reconciliation', {
      hospital: hospitals.B,
      periodFrom: '2031-03-01',
      periodTo: '2031-03-31',
      payableAmount: 1,
      grossAmount: 1,
    });
    expect(statement).toMatchObject({
      sampleCount: 4,
      grossAmount: 236,
      discountAmount: 26.6,
      payableAmount: 209.4,
      writtenOffAmount: 0,
    });
    expect(String(statement.statementNo)).toMatch(/^DZ20310331-\d{4}$/);
    const lines = await linesOf(`statement=${statement.id}`);
    expect(lines).toHaveLength(Number(statement.lineCount));
    expect(lines.reduce((s, l) => s + l.payableCents, 0)).toBe(20940);
    expect(lines.reduce((s, l) => s + l.priceCents, 0)).toBe(23600);
    expect(lines.every((l) => l.statementId === statement.id)).toBe(true);
    // The statement's lines as the clerk downloads them: one row a line, payable adding up to the statement.
    const sheet = await lims.app.inject({
      url: `/api/finance/chargeLines/export.xlsx?statement=${statement.id}`,
      headers: { authorization: `Bearer ${tokens.admin}` },
    });
    expect(sheet.statusCode).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(sheet.rawPayload as unknown as ArrayBuffer);
    const rows = book.worksheets[0]!.getSheetValues().slice(2) as unknown[][];
    expect(rows).toHaveLength(lines.length);
    const payable = (book.worksheets[0]!.getRow(1).values as unknown[]).indexOf('应收(元)');
    expect(Math.round(rows.reduce((s: number, r) => s + Number(r[payable]) * 100, 0))).toBe(20940);
    // Its lines are settled: a second statement of the period has nothing left to take.
    const second = await admin.post('/api/resources/reconciliation', {
      hospital: hospitals.B,
      periodFrom: '2031-03-01',
      periodTo: '2031-03-31',
    });
    expect(second.status).toBe(400);
    expect(second.body.resultMessage).toBe('该医院在 2031-03-01 至 2031-03-31 没有未结算的收费明细');
  });

  it('writes off no more than the statement owes, and a refused write-off changes nothing', async () => {
    const writeOff = (amount: number, barcode?: string) =>
      admin.post<Rec>('/api/resources/financeWriteOff', {
        statement: statement.id,
        amount,
        reason: 'goodwill',
        approvedBy: '刘总',
        ...(barcode && { barcode }),
      });
    const first = await created(await writeOff(100));
    expect(first).toMatchObject({ hospital: hospitals.B, writtenOffOn: '2031-03-31', writtenOffBy: '系统管理员' });
    // 109.40 is left; one cent more is refused.
    const over = await writeOff(109.41);
    expect(over.status).toBe(400);
    expect(over.body.resultMessage).toBe('核销金额 109.41 元超过对账单尚欠的 109.40 元');
    // 乙1 owes 17.00 + 39.60 on the statement.
    const overSpecimen = await writeOff(56.61, barcodes.乙1);
    expect(overSpecimen.status).toBe(400);
    expect(overSpecimen.body.resultMessage).toBe(
      `核销金额 56.61 元超过标本 ${barcodes.乙1} 在该对账单上尚欠的 56.60 元`,
    );
    const all = await admin.get<{ records: Rec[] }>(`/api/resources/financeWriteOff?statement=${statement.id}`);
    expect(all.body.resultObject.records.map((r) => r.amount)).toEqual([100]);
    const after = (await admin.get<Rec>(`/api/resources/reconciliation/${statement.id}`)).body.resultObject;
    expect(after).toMatchObject({ writtenOffAmount: 100, payableAmount: 209.4 });
    // What is owed exactly can be written off.
    await created(await writeOff(109.4));
  });

  it('deletes only a draft statement, which releases its lines', async () => {
    const period = { hospital: hospitals.A, periodFrom: '2031-03-01', periodTo: '2031-03-31' };
    const draft = await create('reconciliation', period);
    expect(draft.status).toBe('draft');
    expect(draft).toMatchObject({ sampleCount: 4, payableAmount: 210 });
    expect((await admin.delete(`/api/resources/reconciliation/${draft.id}`)).status).toBe(200);
    expect((await linesOf(`hospital=${hospitals.A}&${MARCH}`)).every((l) => l.statementId === null)).toBe(true);
    const sent = await create('reconciliation', period);
    expect(sent.payableAmount).toBe(210);
    // Its state moves by its steps only: a typed one is refused.
    const current = (await admin.get<Rec>(`/api/resources/reconciliation/${sent.id}`)).body.resultObject;
    expect((await admin.put(`/api/resources/reconciliation/${sent.id}`, { ...current, status: 'paid' })).status).toBe(
      400,
    );
    const send = await admin.post<Rec>(`/api/resources/reconciliation/${sent.id}/transitions/send`, {});
    expect(send.body.resultObject).toMatchObject({ status: 'sent', payableAmount: 210 });
    const refused = await admin.delete(`/api/resources/reconciliation/${sent.id}`);
    expect(refused.status).toBe(400);
    expect(refused.body.resultMessage).toBe('只有草稿状态的对账单可以删除');
    expect((await linesOf(`statement=${sent.id}`)).length).toBe(Number(sent.lineCount));
  });

  it('leaves settled lines alone in a later recalculation', async () => {
    const request = await create('priceRecalculation', {
      hospital: hospitals.B,
      periodFrom: '2031-03-01',
      periodTo: '2031-03-31',
    });
    const run = await admin.post<Rec>(`/api/finance/priceRecalculation/${request.id}/run`);
    expect(run.body.resultObject).toMatchObject({ status: 'done', checkedRecords: 0, affectedRecords: 0 });
  });
});
