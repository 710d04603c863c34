import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, DEMO_PASSWORD, type TestServer } from '../support/server';
import { api, tokenFor } from '../support/client';
import { enterSpecimens } from '../support/specimens';
import { pdfText } from '../support/pdfText';
import { STAFF_PASSWORD } from '../support/workflow';
import { clinicalAuditor, idByName } from '../support/results';

/**
 * Susceptibility as a microbiology bench uses it: isolates of a specimen with their panel, each reading
 * interpreted by the server against the breakpoint table of the guideline and version the lab chose,
 * on every save, and printed on the patient report with the version it was read with.
 */
type Rec = Record<string, unknown> & { id: number; version: number };
type Page = { records: Rec[]; total: number };
interface Invalid {
  errors: { field: string; message: string }[];
}

let server: TestServer;
let admin: ReturnType<typeof api>;
let editor: ReturnType<typeof api>;
let adminToken = '';

const CLSI = 'T CLSI M100-Ed34 2024';
const EUCAST = 'T EUCAST v14.0';
/** Test catalogue: organisms and antibiotics of their own, so the demo's rows never answer for them. */
const ids = {} as Record<'eco' | 'sau' | 'cip' | 'fep' | 'gen' | 'nit' | 'oxa', number>;

async function create(resource: string, body: Record<string, unknown>, who = admin): Promise<Rec> {
  const res = await who.post<Rec>(`/api/resources/${resource}`, body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.resultObject;
}
const read = async (resource: string, id: number) =>
  (await admin.get<Rec>(`/api/resources/${resource}/${id}`)).body.resultObject;
const update = (resource: string, row: Rec, changes: Record<string, unknown>, who = admin) =>
  who.put<Rec & Invalid>(`/api/resources/${resource}/${row.id}`, { ...row, ...changes });
const resultsOf = async (isolate: number) =>
  (await admin.get<Page>(`/api/resources/susceptibilityResult?isolate=${isolate}&size=100`)).body.resultObject.records;

const tables = async () =>
  (await admin.get<Page>('/api/resources/susceptibilitySetting?size=100')).body.resultObject.records;

/** The lab's register marks this table in use (entered first if the register lacks it). */
async function chooseTable(guideline: 'CLSI' | 'EUCAST', tableVersion: string) {
  const known = (await tables()).find((t) => t.tableVersion === tableVersion);
  const res = known
    ? await update('susceptibilitySetting', known, { inUse: true })
    : await admin.post<Rec>('/api/resources/susceptibilitySetting', { guideline, tableVersion, inUse: true });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

/** A specimen entered at the front desk, and its id. */
async function specimen(values: Record<string, unknown> = {}) {
  const [barcode] = await enterSpecimens(editor, 1, values);
  const row = (await admin.get<Page>(`/api/resources/specimen?barcode=${barcode}`)).body.resultObject.records[0]!;
  return { barcode: barcode!, id: row.id };
}

beforeAll(async () => {
  server = await startServer();
  adminToken = await tokenFor(server.url, 'admin', DEMO_PASSWORD);
  admin = api(server.url, adminToken);
  editor = api(server.url, await tokenFor(server.url, 'editor', DEMO_PASSWORD));
  const organism = (code: string, name: string, latinName: string, organismGroup: string) =>
    create('bacterialSpecies', { code, name, latinName, gram: 'negative', organismGroup });
  const antibiotic = (code: string, name: string, englishName: string) =>
    create('antibiotic', { code, name, englishName, antibioticClass: 'other' });
  ids.eco = (await organism('T-eco', 'T 大肠埃希菌', 'Escherichia coli', 'enterobacterales')).id;
  ids.sau = (await organism('T-sau', 'T 金黄色葡萄球菌', 'Staphylococcus aureus', 'staphylococcus')).id;
  ids.cip = (await antibiotic('T-CIP', 'T 环丙沙星', 'Ciprofloxacin')).id;
  ids.fep = (await antibiotic('T-FEP', 'T 头孢吡肟', 'Cefepime')).id;
  ids.gen = (await antibiotic('T-GEN', 'T 庆大霉素', 'Gentamicin')).id;
  ids.nit = (await antibiotic('T-NIT', 'T 呋喃妥因', 'Nitrofurantoin')).id;
  ids.oxa = (await antibiotic('T-OXA', 'T 苯唑西林', 'Oxacillin')).id;
  const breakpoint = (guideline: string, tableVersion: string, values: Record<string, unknown>) =>
    create('breakpoint', { guideline, tableVersion, organismGroup: 'enterobacterales', ...values });
  // Published Enterobacterales breakpoints: ciprofloxacin (MIC and 5 µg disk), cefepime (CLSI SDD).
  await breakpoint('CLSI', CLSI, { antibiotic: ids.cip, method: 'mic', micS: 0.25, micR: 1 });
  await breakpoint('CLSI', CLSI, { antibiotic: ids.cip, method: 'disk', zoneS: 26, zoneR: 21 });
  await breakpoint('CLSI', CLSI, { antibiotic: ids.fep, method: 'mic', micS: 2, micR: 16, sdd: true });
  await breakpoint('CLSI', CLSI, { antibiotic: ids.gen, method: 'mic', micS: 2, micR: 8 });
  await breakpoint('EUCAST', EUCAST, { antibiotic: ids.cip, method: 'mic', micS: 0.25, micR: 0.5 });
  await breakpoint('EUCAST', EUCAST, { antibiotic: ids.cip, method: 'disk', zoneS: 25, zoneR: 22 });
  // S. aureus oxacillin: the organism's own row.
  await breakpoint('CLSI', CLSI, {
    organismGroup: 'staphylococcus',
    species: ids.sau,
    antibiotic: ids.oxa,
    method: 'mic',
    micS: 2,
    micR: 4,
  });
  await chooseTable('CLSI', CLSI);
});
afterAll(() => server?.dispose());

describe('the lab guideline register', () => {
  it('keeps one table in use, and only tables whose breakpoints exist', async () => {
    const inUse = async () => (await tables()).filter((t) => t.inUse === true).map((t) => t.tableVersion);
    expect(await inUse()).toEqual([CLSI]);
    await chooseTable('EUCAST', EUCAST);
    expect(await inUse()).toEqual([EUCAST]);
    await chooseTable('CLSI', CLSI);
    expect(await inUse()).toEqual([CLSI]);
    const typo = await admin.post<Invalid>('/api/resources/susceptibilitySetting', {
      guideline: 'EUCAST',
      tableVersion: 'EUCAST v41',
      inUse: true,
    });
    expect(typo.status).toBe(400);
    expect(typo.body.resultObject.errors[0]!.message).toBe(
      '没有 EUCAST 折点版本“EUCAST v41”的折点，请先录入该版本的折点表',
    );
    expect(await inUse()).toEqual([CLSI]);
  });
});

describe('a susceptibility result', () => {
  it('is read with the guideline the lab chose: a 25 mm ciprofloxacin zone is I by CLSI and S by EUCAST', async () => {
    const { barcode, id } = await specimen();
    const isolate = await create('isolate', { specimen: id, species: ids.eco }, editor);
    expect(isolate).toMatchObject({ isolateNo: 1, isolateCode: `${barcode}-1`, barcode, patientName: '测试患者' });
    const zone = { isolate: isolate.id, antibiotic: ids.cip, method: 'disk', zoneMm: 25 };
    const clsi = await create('susceptibilityResult', zone, editor);
    expect(clsi).toMatchObject({
      interpretation: 'I',
      guideline: 'CLSI',
      breakpointVersion: CLSI,
      species: ids.eco,
      barcode,
      testedBy: '王检验',
    });
    await chooseTable('EUCAST', EUCAST);
    try {
      const eucast = await create('susceptibilityResult', zone, editor);
      expect(eucast).toMatchObject({ interpretation: 'S', guideline: 'EUCAST', breakpointVersion: EUCAST });
      // The earlier result keeps the table it was read with, an edit included (no silent re-reading).
      const edited = await update('susceptibilityResult', clsi, { zoneMm: 21 }, editor);
      expect(edited.body.resultObject).toMatchObject({ interpretation: 'R', breakpointVersion: CLSI, zoneMm: 21 });
      const back = await update('susceptibilityResult', edited.body.resultObject, { zoneMm: 25 }, editor);
      expect(back.body.resultObject).toMatchObject({ interpretation: 'I', breakpointVersion: CLSI });
      // Interpret moves it, deliberately, to the table chosen now.
      const moved = await editor.post<Rec>(`/api/microbiology/susceptibility/${clsi.id}/interpret`);
      expect(moved.body.resultObject).toMatchObject({
        interpretation: 'S',
        guideline: 'EUCAST',
        breakpointVersion: EUCAST,
      });
    } finally {
      await chooseTable('CLSI', CLSI);
    }
  });

  it('is read again when its MIC is edited, with the organism’s own breakpoint before its group’s', async () => {
    const { id } = await specimen();
    const isolate = await create('isolate', { specimen: id, species: ids.eco });
    const row = await create('susceptibilityResult', {
      isolate: isolate.id,
      antibiotic: ids.cip,
      method: 'mic',
      mic: 0.25,
    });
    expect(row.interpretation).toBe('S');
    const r = await update('susceptibilityResult', row, { mic: 1 });
    expect(r.body.resultObject).toMatchObject({ mic: 1, interpretation: 'R', breakpointVersion: CLSI });
    const i = await update('susceptibilityResult', r.body.resultObject, { mic: 0.5 });
    expect(i.body.resultObject).toMatchObject({ mic: 0.5, interpretation: 'I' });
    expect((await read('susceptibilityResult', row.id)).interpretation).toBe('I');
    const fep = await create('susceptibilityResult', {
      isolate: isolate.id,
      antibiotic: ids.fep,
      method: 'mic',
      mic: 8,
    });
    expect(fep.interpretation).toBe('SDD');
    const second = await create('isolate', { specimen: id, species: ids.sau });
    expect(second.isolateNo).toBe(2);
    const mrsa = await create('susceptibilityResult', {
      isolate: second.id,
      antibiotic: ids.oxa,
      method: 'mic',
      mic: 4,
    });
    expect(mrsa).toMatchObject({ interpretation: 'R', species: ids.sau });
  });

  it('takes no S / I / R, version or tester from the input', async () => {
    const { id } = await specimen();
    const isolate = await create('isolate', { specimen: id, species: ids.eco });
    const row = await create('susceptibilityResult', {
      isolate: isolate.id,
      antibiotic: ids.gen,
      method: 'mic',
      mic: 16,
      interpretation: 'S',
      guideline: 'EUCAST',
      breakpointVersion: 'made up',
      testedBy: '别人',
      testedAt: '2020-01-01 00:00:00',
      species: ids.sau,
    });
    expect(row).toMatchObject({ interpretation: 'R', guideline: 'CLSI', breakpointVersion: CLSI, species: ids.eco });
    expect(row.testedBy).toBe('系统管理员');
    expect(row.testedAt).not.toBe('2020-01-01 00:00:00');
    const edited = await update('susceptibilityResult', row, { interpretation: 'S', breakpointVersion: 'made up' });
    expect(edited.body.resultObject).toMatchObject({ interpretation: 'R', breakpointVersion: CLSI });
  });

  it('without a breakpoint is refused with the reason, and nothing changes', async () => {
    const { id } = await specimen();
    const isolate = await create('isolate', { specimen: id, species: ids.eco });
    const before = (await resultsOf(isolate.id)).length;
    const refused = await admin.post<Invalid>('/api/resources/susceptibilityResult', {
      isolate: isolate.id,
      antibiotic: ids.nit,
      method: 'mic',
      mic: 16,
    });
    expect(refused.status).toBe(400);
    expect(refused.body.resultObject.errors[0]!.message).toBe(
      `${CLSI} 中没有适用于 T 大肠埃希菌、T 呋喃妥因（MIC）的折点，无法判读；请补充折点或更换判读标准`,
    );
    expect(await resultsOf(isolate.id)).toHaveLength(before);
    // An edit to a method the table has no row for is refused too; the stored reading stays.
    const gen = await create('susceptibilityResult', {
      isolate: isolate.id,
      antibiotic: ids.gen,
      method: 'mic',
      mic: 1,
    });
    const toDisk = await update('susceptibilityResult', gen, { method: 'disk', zoneMm: 18 });
    expect(toDisk.status).toBe(400);
    expect(await read('susceptibilityResult', gen.id)).toMatchObject({
      version: gen.version,
      method: 'mic',
      mic: 1,
      interpretation: 'S',
    });
    const en = api(server.url, adminToken, 'en-US');
    const english = await en.post<Invalid>('/api/resources/susceptibilityResult', {
      isolate: isolate.id,
      antibiotic: ids.nit,
      method: 'mic',
      mic: 16,
    });
    expect(english.body.resultObject.errors[0]!.message).toContain(
      'has no breakpoint for T 大肠埃希菌 with T 呋喃妥因 (MIC)',
    );
  });
});

describe('an isolate panel', () => {
  it('prefills one row per antibiotic of the chosen panel, and only the missing ones when another is chosen', async () => {
    const panel = await create('antibioticCombination', {
      code: 'T-GN-A',
      name: 'T 肠杆菌 MIC A',
      organismGroup: 'enterobacterales',
      antibiotics: [ids.cip, ids.fep, ids.gen],
      method: 'mic',
      guideline: 'CLSI',
    });
    const wider = await create('antibioticCombination', {
      code: 'T-GN-B',
      name: 'T 肠杆菌 MIC B',
      organismGroup: 'enterobacterales',
      antibiotics: [ids.cip, ids.nit],
      method: 'mic',
      guideline: 'CLSI',
    });
    const staph = await create('antibioticCombination', {
      code: 'T-GP-A',
      name: 'T 葡萄球菌 MIC',
      organismGroup: 'staphylococcus',
      antibiotics: [ids.oxa],
      method: 'mic',
      guideline: 'CLSI',
    });
    const { barcode, id } = await specimen();
    const wrong = await editor.post<Invalid>('/api/resources/isolate', {
      specimen: id,
      species: ids.eco,
      panel: staph.id,
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.resultObject.errors[0]!.message).toBe(
      '药敏组合“T 葡萄球菌 MIC”用于葡萄球菌属，与菌种 T 大肠埃希菌 不符',
    );
    expect((await admin.get<Page>(`/api/resources/isolate?barcode=${barcode}`)).body.resultObject.total).toBe(0);

    const isolate = await create('isolate', { specimen: id, species: ids.eco, panel: panel.id }, editor);
    const rows = await resultsOf(isolate.id);
    expect(rows.map((r) => r.antibiotic).sort()).toEqual([ids.cip, ids.fep, ids.gen].sort());
    for (const r of rows)
      expect(r).toMatchObject({ method: 'mic', barcode, species: ids.eco, interpretation: null, testedBy: null });
    // The bench reads one of the prefilled rows.
    const cip = rows.find((r) => r.antibiotic === ids.cip)!;
    const read1 = await update('susceptibilityResult', cip, { mic: 2 }, editor);
    expect(read1.body.resultObject).toMatchObject({ interpretation: 'R', testedBy: '王检验' });

    const changed = await update('isolate', isolate, { panel: wider.id }, editor);
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    const after = await resultsOf(isolate.id);
    expect(after.map((r) => r.antibiotic).sort()).toEqual([ids.cip, ids.fep, ids.gen, ids.nit].sort());
    expect(after.find((r) => r.antibiotic === ids.cip)).toMatchObject({ mic: 2, interpretation: 'R' });

    // Another organism re-reads the isolate's results: S. aureus has no ciprofloxacin row in the table,
    // so the change is refused whole, the isolate and its results as they were.
    const current = await read('isolate', isolate.id);
    const reidentified = await update('isolate', current, { species: ids.sau, panel: null }, editor);
    expect(reidentified.status).toBe(400);
    expect(reidentified.body.resultObject.errors[0]!.message).toContain(
      '没有适用于 T 金黄色葡萄球菌、T 环丙沙星（MIC）的折点',
    );
    expect(await read('isolate', isolate.id)).toMatchObject({ species: ids.eco, version: current.version });
    expect((await resultsOf(isolate.id)).every((r) => r.species === ids.eco)).toBe(true);
  });
});

describe('the patient report', () => {
  it('prints each isolate with S / I / R and the breakpoint version the results were read with', async () => {
    const { auditor } = await clinicalAuditor(server.url, admin);
    const { barcode, id } = await specimen({
      purposes: [await idByName(admin, 'inspectionPurpose', '血常规')],
      sex: 'male',
      age: 50,
    });
    await editor.post(`/api/resources/specimen/${id}/transitions/receive`, {});
    const isolate = await create('isolate', { specimen: id, species: ids.eco }, editor);
    const reading = (antibiotic: number, mic: number) =>
      create('susceptibilityResult', { isolate: isolate.id, antibiotic, method: 'mic', mic }, editor);
    await reading(ids.cip, 0.5);
    await reading(ids.gen, 16);
    await reading(ids.fep, 1);
    const results = (await admin.get<Page>(`/api/resources/inspectionResult?barcode=${barcode}`)).body.resultObject
      .records;
    // The blood count of the report tests: WBC high (held for review, not critical), HGB normal.
    const value = (r: Rec) => ((r.labels as { item: string }).item === '白细胞计数' ? '12.3' : '140');
    const saved = await editor.post('/api/results/worksheet', {
      rows: results.map((r) => ({ id: r.id, result: value(r) })),
    });
    expect(saved.body.resultCode, JSON.stringify(saved.body)).toBe(200);
    const resultIds = results.map((r) => r.id);
    await admin.post('/api/results/approve/firstReview', { ids: resultIds, password: DEMO_PASSWORD });
    const audited = await auditor.post('/api/results/approve/audit', { ids: resultIds, password: STAFF_PASSWORD });
    expect(audited.body.resultCode, JSON.stringify(audited.body)).toBe(200);
    const [report] = (await admin.get<Page>(`/api/resources/reportRecord?barcode=${barcode}`)).body.resultObject
      .records;
    const res = await fetch(`${server.url}/api/reports/${report!.id}/pdf`, {
      headers: { authorization: `Bearer ${adminToken}` },
    });
    const text = pdfText(Buffer.from(await res.arrayBuffer()));
    const lines = text.split('\n');
    expect(lines).toContain('药敏结果');
    expect(lines).toContain('分离株 1：T 大肠埃希菌 Escherichia coli');
    expect(lines).toContain(`判读依据（折点版本）：${CLSI}`);
    // Each antibiotic's line: name, reading, category, in that order.
    const after = (cell: string, n: number) => lines[lines.indexOf(cell) + n];
    expect([after('T 环丙沙星', 1), after('T 环丙沙星', 2)]).toEqual(['MIC 0.5 mg/L', 'I 中介']);
    expect([after('T 庆大霉素', 1), after('T 庆大霉素', 2)]).toEqual(['MIC 16 mg/L', 'R 耐药']);
    expect([after('T 头孢吡肟', 1), after('T 头孢吡肟', 2)]).toEqual(['MIC 1 mg/L', 'S 敏感']);
  });
});
