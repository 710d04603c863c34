import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, DEMO_PASSWORD, type TestServer } from '../support/server';
import { api, login, tokenFor } from '../support/client';
import { pdfText } from '../support/pdfText';
import { enterSpecimens } from '../support/specimens';
import { withoutSecrets } from '../../src/server/kernel/http/request';

type Handover = Record<string, unknown> & {
  id: number;
  version: number;
  handoverNo: string;
  status: string;
  specimenCount: number;
};
type Line = Record<string, unknown> & { id: number; barcode: string; checkResult: string; handover: number };
type Client = ReturnType<typeof api>;

let server: TestServer;
let admin: Client;
let adminEn: Client;
let editor: Client;
let lab2: Client;
let adminToken: string;
const RECEIVER = { account: 'hand_recv', password: 'Recv@2026x' };

beforeAll(async () => {
  server = await startServer();
  adminToken = await tokenFor(server.url, 'admin', DEMO_PASSWORD);
  admin = api(server.url, adminToken);
  adminEn = api(server.url, adminToken, 'en-US');
  editor = api(server.url, await tokenFor(server.url, 'editor', DEMO_PASSWORD));
  lab2 = api(server.url, await tokenFor(server.url, 'lab2admin', DEMO_PASSWORD));
  // A receiver of the main lab whose account the lockout test may lock without disturbing the others.
  const roles = await admin.get<{ id: number; code: string }[]>('/api/user/getRoleByOrgId?orgId=1');
  const editorRole = roles.body.resultObject.find((r) => r.code === 'editor')!;
  const created = await admin.post('/api/user', {
    userAccount: RECEIVER.account,
    userName: '接收-何静',
    password: RECEIVER.password,
    roleIds: [editorRole.id],
  });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  await registerSpecimens(50);
});
afterAll(() => server?.dispose());

/**
 * Barcodes of registered specimens no other test uses: a handover takes only specimens the lab entered
 * (their barcodes issued by the lab's rule), so the suite enters a pool of them first.
 */
const pool: string[] = [];
const codes = (n: number) => pool.splice(0, n);

async function registerSpecimens(n: number) {
  pool.push(...(await enterSpecimens(admin, n)));
}

async function newHandover(who: Client, barcodes: string[], extra: Record<string, unknown> = {}): Promise<Handover> {
  const res = await who.post<Handover>('/api/resources/handoverRecord', {
    fromSite: '前处理组',
    toGroup: 'bio',
    storage: 'cold',
    barcodes: barcodes.join('\n'),
    ...extra,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.resultObject;
}
const read = async (id: number) => (await admin.get<Handover>(`/api/resources/handoverRecord/${id}`)).body.resultObject;
const linesOf = async (id: number, who: Client = admin) =>
  (await who.get<{ records: Line[]; total: number }>(`/api/handover/getSpecimenAimList?recordId=${id}&size=500`)).body
    .resultObject.records;
const confirm = (who: Client, id: number, body: Record<string, unknown>) =>
  who.post<Handover>(`/api/handover/confirmReceive?recordId=${id}`, body);
const asReceiver = { userAccount: RECEIVER.account, passwd: RECEIVER.password };

/** A binary answer: status, type, bytes. */
async function download(path: string, init: RequestInit = {}, token = adminToken) {
  const res = await fetch(server.url + path, {
    ...init,
    headers: { authorization: `Bearer ${token}`, ...(init.headers ?? {}) },
  });
  return {
    status: res.status,
    type: res.headers.get('content-type') ?? '',
    disposition: res.headers.get('content-disposition') ?? '',
    body: Buffer.from(await res.arrayBuffer()),
  };
}

describe('a handover of specimens (domain: chain of custody)', () => {
  it('is numbered, counted from its scanned barcodes, and gets one line per specimen', async () => {
    const barcodes = codes(3);
    const h = await newHandover(admin, [`${barcodes[0]}, ${barcodes[1]}`, ` ${barcodes[2]} `]);
    expect(h.handoverNo).toMatch(/^JJ\d{8}-\d{4}$/);
    expect(h).toMatchObject({
      specimenCount: 3,
      status: 'open',
      handedByAccount: 'admin',
      barcodes: barcodes.join('\n'),
    });
    const lines = await linesOf(h.id);
    expect(lines.map((l) => [l.barcode, l.checkResult])).toEqual(barcodes.map((b) => [b, 'pending']));
    // Editing the barcodes makes the lines follow; the server keeps count and status.
    const edited = await admin.put<Handover>(`/api/resources/handoverRecord/${h.id}`, {
      ...h,
      barcodes: barcodes.slice(0, 2).join('\n'),
      status: 'received',
      specimenCount: 99,
    });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(edited.body.resultObject).toMatchObject({ specimenCount: 2, status: 'open' });
    expect((await linesOf(h.id)).map((l) => l.barcode)).toEqual(barcodes.slice(0, 2));
  });

  it('refuses a specimen already on another open handover, naming the barcode and that handover, and writes nothing', async () => {
    const [a, b, c] = codes(3);
    const first = await newHandover(admin, [a!, b!]);
    const before = (await admin.get<{ total: number }>('/api/resources/handoverRecord?size=1')).body.resultObject.total;
    const res = await admin.post('/api/resources/handoverRecord', {
      fromSite: '萧山物流站',
      toGroup: 'imm',
      storage: 'room',
      barcodes: `${c}\n${b}`,
    });
    expect(res.status).toBe(400);
    expect(res.body.resultMessage).toBe(
      `标本 ${b} 已在未接收的交接单 ${first.handoverNo} 中，一个标本不能同时在两张未接收的交接单里`,
    );
    expect((await admin.get<{ total: number }>('/api/resources/handoverRecord?size=1')).body.resultObject.total).toBe(
      before,
    );
    const en = await adminEn.post('/api/resources/handoverRecord', {
      fromSite: 'X',
      toGroup: 'imm',
      storage: 'room',
      barcodes: b,
    });
    expect(en.body.resultMessage).toContain(`Specimen ${b} is already on open handover ${first.handoverNo}`);
    // Nor may an edit move it onto a second open handover.
    const second = await newHandover(admin, [c!]);
    const moved = await admin.put(`/api/resources/handoverRecord/${second.id}`, { ...second, barcodes: `${c}\n${a}` });
    expect(moved.status).toBe(400);
    expect((await read(second.id)).barcodes).toBe(c);
    // Once the first is received, the specimen may travel on.
    expect((await confirm(editor, first.id, { userAccount: 'editor', passwd: DEMO_PASSWORD })).status).toBe(200);
    expect(
      (
        await admin.put(`/api/resources/handoverRecord/${second.id}`, {
          ...(await read(second.id)),
          barcodes: `${c}\n${a}`,
        })
      ).status,
    ).toBe(200);
  });

  it('imports handovers from a spreadsheet under the same rules, refusing the whole file for one bad row', async () => {
    const [a, b] = codes(2);
    const open = await newHandover(admin, [a!]);
    const sheet = async (rows: string[][]) => {
      const book = new ExcelJS.Workbook();
      const ws = book.addWorksheet('交接单');
      ws.addRow(['交出方', '接收专业组', '运输条件', '标本条码']);
      for (const r of rows) ws.addRow(r);
      return Buffer.from(await book.xlsx.writeBuffer());
    };
    const upload = async (body: Buffer) => {
      const res = await fetch(`${server.url}/api/resources/handoverRecord/import`, {
        method: 'POST',
        headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/octet-stream' },
        body: new Uint8Array(body),
      });
      return {
        status: res.status,
        body: (await res.json()) as { resultMessage: string; resultObject: { imported: number } },
      };
    };
    const before = (await admin.get<{ total: number }>('/api/resources/handoverRecord?size=1')).body.resultObject.total;
    const refused = await upload(
      await sheet([
        ['宁波分实验室', '生化组', '冷藏 2-8℃', b!],
        ['宁波分实验室', '免疫组', '常温', a!],
      ]),
    );
    expect(refused.status).toBe(400);
    expect(refused.body.resultMessage).toBe(
      `第3行：标本 ${a} 已在未接收的交接单 ${open.handoverNo} 中，一个标本不能同时在两张未接收的交接单里`,
    );
    expect((await admin.get<{ total: number }>('/api/resources/handoverRecord?size=1')).body.resultObject.total).toBe(
      before,
    );
    const imported = await upload(await sheet([['宁波分实验室', '生化组', '冷藏 2-8℃', b!]]));
    expect(imported.body.resultObject.imported).toBe(1);
    const row = (
      await admin.get<{ records: Handover[] }>(
        `/api/resources/handoverRecord?fromSite=${encodeURIComponent('宁波分实验室')}&toGroup=bio`,
      )
    ).body.resultObject.records[0]!;
    expect(row).toMatchObject({ specimenCount: 1, status: 'open', storage: 'cold', handedByAccount: 'admin' });
    expect((await linesOf(row.id)).map((l) => l.barcode)).toEqual([b]);
  });

  it('refuses malformed and repeated barcodes with the field named', async () => {
    const bad = await admin.post<{ errors: { field: string; message: string }[] }>('/api/resources/handoverRecord', {
      fromSite: 'X',
      toGroup: 'bio',
      storage: 'room',
      barcodes: 'AB12\nAB12',
    });
    expect(bad.status).toBe(400);
    expect(bad.body.resultObject.errors).toEqual([
      expect.objectContaining({ field: 'barcodes', message: '条码 AB12 重复录入' }),
    ]);
    const empty = await admin.post('/api/resources/handoverRecord', {
      fromSite: 'X',
      toGroup: 'bio',
      storage: 'room',
      barcodes: ' \n ',
    });
    expect(empty.status).toBe(400);
    const odd = await admin.post('/api/resources/handoverRecord', {
      fromSite: 'X',
      toGroup: 'bio',
      storage: 'room',
      barcodes: 'A/1',
    });
    expect(odd.body.resultMessage).toBe('条码 A/1 格式不正确，只能包含字母、数字和短横线');
  });
});

describe("confirming receipt with the receiver's own account (spec 7.2 confirmReceive)", () => {
  it('refuses a wrong password, changes nothing, and counts it towards the lock of the account', async () => {
    const h = await newHandover(admin, codes(2));
    const wrong = await confirm(admin, h.id, { userAccount: RECEIVER.account, passwd: 'Wrong@2026x' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.resultMessage).toBe('用户名或密码错误，再错4次账号将被锁定');
    const after = await read(h.id);
    expect(after).toMatchObject({ status: 'open', version: h.version });
    expect(after.receivedBy).toBeUndefined();
    expect((await linesOf(h.id)).every((l) => l.checkResult === 'pending')).toBe(true);
    const log = await admin.get<{ records: { action: string; after: { userAccount?: string } }[] }>(
      '/api/log/getLogList?resource=handoverRecord&size=20',
    );
    expect(log.body.resultObject.records.find((r) => r.action === 'receiverRefused')?.after.userAccount).toBe(
      RECEIVER.account,
    );
    // The same counter as the sign-in: a right sign-in in between resets it, four more wrong ones lock.
    expect((await login(server.url, RECEIVER.account, RECEIVER.password)).status).toBe(200);
    for (let i = 0; i < 4; i++) await confirm(admin, h.id, { userAccount: RECEIVER.account, passwd: 'Wrong@2026x' });
    const fifth = await confirm(admin, h.id, { userAccount: RECEIVER.account, passwd: 'Wrong@2026x' });
    expect(fifth.body.resultMessage).toBe('密码错误次数过多，账号已临时锁定，请1分钟后再试或联系管理员解锁');
    const locked = await confirm(admin, h.id, asReceiver);
    expect(locked.status).toBe(400);
    expect(locked.body.resultMessage).toBe('密码错误次数过多，账号已临时锁定，请1分钟后再试或联系管理员解锁');
    expect((await login(server.url, RECEIVER.account, RECEIVER.password)).body.error).toBe('account_locked');
    expect((await read(h.id)).status).toBe('open');
    const users = await admin.get<{ records: { id: number; userAccount: string }[] }>(
      `/api/user/getUser?userAccount=${RECEIVER.account}`,
    );
    const id = users.body.resultObject.records.find((u) => u.userAccount === RECEIVER.account)!.id;
    expect((await admin.get(`/api/user/unlockUser?id=${id}`)).status).toBe(200);
  });

  it('with the right password records who received, when, the temperature and what did not match, then closes the handover', async () => {
    const [a, b, c] = codes(3);
    const extra = codes(1)[0]!;
    const h = await newHandover(admin, [a!, b!, c!]);
    const started = Date.now();
    const res = await confirm(admin, h.id, {
      ...asReceiver,
      temperatureC: 4.5,
      missing: c,
      damaged: b,
      extra,
      remark: '封签完好',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const done = res.body.resultObject;
    expect(done).toMatchObject({
      status: 'discrepancy',
      receivedBy: '接收-何静',
      receivedByAccount: RECEIVER.account,
      temperatureC: 4.5,
      specimenCount: 3,
    });
    expect(done.discrepancy).toBe(`缺失：${c}；破损：${b}；多出：${extra}；封签完好`);
    expect(Math.abs(new Date(String(done.receivedAt).replace(' ', 'T')).getTime() - started)).toBeLessThan(60_000);
    const lines = await linesOf(h.id);
    expect(Object.fromEntries(lines.map((l) => [l.barcode, l.checkResult]))).toEqual({
      [a!]: 'ok',
      [b!]: 'damaged',
      [c!]: 'missing',
      [extra]: 'extra',
    });
    // Closed: no edit, no delete, no second confirmation; every step is in the operation log.
    const edit = await admin.put(`/api/resources/handoverRecord/${h.id}`, { ...done, sealNo: 'F1' });
    expect(edit.status).toBe(400);
    expect(edit.body.resultMessage).toBe(`交接单 ${h.handoverNo} 已确认接收，不能再修改、删除或再次确认`);
    expect((await admin.delete(`/api/resources/handoverRecord/${h.id}`)).status).toBe(400);
    expect((await confirm(admin, h.id, asReceiver)).status).toBe(400);
    expect((await read(h.id)).version).toBe(done.version);
    const log = await admin.get<{
      records: {
        action: string;
        recordId: string;
        before: { status: string };
        after: { status: string; receivedByAccount: string };
      }[];
    }>('/api/log/getLogList?resource=handoverRecord&size=50');
    const steps = log.body.resultObject.records.filter((r) => r.recordId === String(h.id));
    expect(steps.map((r) => r.action)).toEqual(['handoverConfirm', 'create']);
    expect(steps[0]).toMatchObject({
      before: { status: 'open' },
      after: { status: 'discrepancy', receivedByAccount: RECEIVER.account },
    });
  });

  it('with the box scanned tube by tube, takes what is missing and extra from the scans, not from what is typed', async () => {
    const [a, b, c, d] = codes(4) as [string, string, string, string];
    const h = await newHandover(admin, [a, b, c]);
    // Scans and a typed missing tube: the scans say what is missing; refused, nothing changed.
    const both = await confirm(admin, h.id, { ...asReceiver, scanned: `${a}\n${b}`, missing: c });
    expect([both.status, both.body.resultMessage]).toEqual([
      400,
      '已逐管扫描箱内标本时，缺失和多出的条码由扫描得出，无需另行填写',
    ]);
    expect(await read(h.id)).toMatchObject({ status: 'open', version: h.version });
    // a scanned; b seen leaking (damaged, so it arrived); c never scanned; d scanned, on no slip.
    const res = await confirm(admin, h.id, { ...asReceiver, scanned: `${a}\n${d}`, damaged: b });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.resultObject).toMatchObject({
      status: 'discrepancy',
      discrepancy: `缺失：${c}；破损：${b}；多出：${d}`,
    });
    expect(Object.fromEntries((await linesOf(h.id)).map((l) => [l.barcode, l.checkResult]))).toEqual({
      [a]: 'ok',
      [b]: 'damaged',
      [c]: 'missing',
      [d]: 'extra',
    });
    // Every tube of a box scanned: received, nothing to report.
    const [e, f] = codes(2) as [string, string];
    const whole = await newHandover(admin, [e, f]);
    const all = await confirm(admin, whole.id, { ...asReceiver, scanned: `${f} ${e}` });
    expect(all.body.resultObject).toMatchObject({ status: 'received' });
    expect(all.body.resultObject.discrepancy).toBeUndefined();
  });

  it('is refused to the person who handed over, to a user of another lab, and for a group it is not addressed to', async () => {
    const h = await newHandover(admin, codes(1));
    const self = await confirm(admin, h.id, { userAccount: 'admin', passwd: DEMO_PASSWORD });
    expect(self.body.resultMessage).toBe('接收人不能是交出人本人（admin），请由接收方用自己的账号确认');
    const other = await confirm(admin, h.id, { userAccount: 'lab2admin', passwd: DEMO_PASSWORD });
    expect(other.body.resultMessage).toBe('接收人 lab2admin 不是本实验室的用户');
    const group = await confirm(admin, h.id, { ...asReceiver, proGroupName: '免疫组' });
    expect(group.body.resultMessage).toBe(`交接单 ${h.handoverNo} 不是交给免疫组的`);
    const notOnSlip = await confirm(admin, h.id, { ...asReceiver, missing: 'NOPE1' });
    expect(notOnSlip.body.resultMessage).toBe('条码 NOPE1 不在交接单上');
    const hot = await confirm(admin, h.id, { ...asReceiver, temperatureC: 99 });
    expect(hot.status).toBe(400);
    expect((await read(h.id)).status).toBe('open');
    const ok = await confirm(admin, h.id, { ...asReceiver, proGroupName: '生化组' });
    expect(ok.body.resultObject.status).toBe('received');
  });

  it('answers the printed slip when isPrint, and checks the receiver alone with confirmNameAndPassword', async () => {
    const h = await newHandover(admin, codes(2));
    const check = await admin.get<{ userName: string }>(
      `/api/handover/confirmNameAndPassword?userAccount=${RECEIVER.account}&passwd=${encodeURIComponent(RECEIVER.password)}`,
    );
    expect(check.body.resultObject.userName).toBe('接收-何静');
    expect(
      (await admin.get(`/api/handover/confirmNameAndPassword?userAccount=${RECEIVER.account}&passwd=x`)).status,
    ).toBe(400);
    const slip = await download(`/api/handover/confirmReceive?recordId=${h.id}&isPrint=true`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(asReceiver),
    });
    expect(slip.status).toBe(200);
    expect(slip.type).toBe('application/pdf');
    expect(pdfText(slip.body)).toContain(h.handoverNo);
    expect(pdfText(slip.body)).toContain('接收-何静');
    expect((await read(h.id)).status).toBe('received');
  });

  it('keeps the password of a query out of the request log', () => {
    expect(
      withoutSecrets(
        `/api/handover/confirmReceive?recordId=7&userAccount=r1&passwd=${encodeURIComponent(RECEIVER.password)}&isPrint=true`,
      ),
    ).toBe('/api/handover/confirmReceive?recordId=7&userAccount=r1&passwd=***&isPrint=true');
    expect(withoutSecrets('/api/handover/changePassword?password=a&newPassword=b&confirmPassword=b')).toBe(
      '/api/handover/changePassword?password=***&newPassword=***&confirmPassword=***',
    );
  });
});

describe('slips and lists of handovers', () => {
  it('prints the slip as a PDF holding the handover number, the lab, the specimens and the signature lines', async () => {
    const barcodes = codes(2);
    const h = await newHandover(admin, barcodes, { boxNo: 'XS-07', sealNo: 'F0012871' });
    const res = await download(`/api/handover/exportHandleRecordPdf?recordId=${h.id}`);
    expect(res.status).toBe(200);
    expect(res.type).toBe('application/pdf');
    expect(res.body.subarray(0, 5).toString()).toBe('%PDF-');
    expect(decodeURIComponent(res.disposition)).toContain(`标本交接单_${h.handoverNo}.pdf`);
    const text = pdfText(res.body);
    for (const expected of [
      h.handoverNo,
      '华康医学检验中心实验室 标本交接单',
      '交出方：前处理组',
      '接收专业组：生化组',
      '封签号：F0012871',
      '冷藏 2-8℃',
      ...barcodes,
      '共 2 个标本',
      '交出人签字',
      '接收人签字',
    ])
      expect(text).toContain(expected);
    const wrongGroup = await admin.get(`/api/handover/exportHandleRecordPdf?recordId=${h.id}&proGroupName=微生物组`);
    expect(wrongGroup.status).toBe(400);
  });

  it('exports a handover to Excel with one row per specimen', async () => {
    const barcodes = codes(4);
    const h = await newHandover(admin, barcodes);
    const res = await download(`/api/handover/getExcel?recordId=${h.id}&templateId=handoverSlip`);
    expect(res.status).toBe(200);
    expect(res.type).toContain('spreadsheetml');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.body as unknown as ArrayBuffer);
    const sheet = book.worksheets[0]!;
    expect(sheet.rowCount).toBe(1 + barcodes.length);
    expect(sheet.getRow(1).values).toEqual(expect.arrayContaining(['交接单', '条码号', '核对结果']));
    const rows = Array.from({ length: barcodes.length }, (_, i) => sheet.getRow(i + 2));
    expect(rows.map((r) => r.getCell(1).value)).toEqual(barcodes.map(() => h.handoverNo));
    expect(rows.map((r) => r.getCell(2).value)).toEqual(barcodes);
    expect(rows.map((r) => r.getCell(6).value)).toEqual(barcodes.map(() => '待核对'));
  });

  it('exports all handovers of a filter (getExcelAll) and prints their summary', async () => {
    const h = await newHandover(admin, codes(2), { fromSite: '汇总测试站' });
    const all = await download(
      '/api/handover/getExcelAll?fromSite=汇总测试站'.replace('汇总测试站', encodeURIComponent('汇总测试站')),
    );
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(all.body as unknown as ArrayBuffer);
    expect(book.worksheets.map((s) => s.name)).toEqual(['交接单', '标本']);
    expect(book.worksheets[0]!.rowCount).toBe(2);
    expect(book.worksheets[1]!.rowCount).toBe(3);
    const summary = await download(`/api/handover/exportSummaryRecordPdf?recordIds=${h.id}`);
    const text = pdfText(summary.body);
    expect(text).toContain('标本交接汇总单');
    expect(text).toContain(h.handoverNo);
    expect(text).toContain('共 1 张交接单，2 个标本');
  });

  it('registers every file of handover data taken out (数据导出), as the server made it, never typed or deleted', async () => {
    type Entry = Record<string, unknown> & { id: number; version: number; exportNo: string };
    const register = async () =>
      (await admin.get<{ records: Entry[] }>('/api/resources/handoverExport?size=100&sort=exportNo,desc')).body
        .resultObject.records;
    const before = (await register()).length;
    const h = await newHandover(admin, codes(3), { fromSite: '导出登记站', toGroup: 'bio' });
    const site = encodeURIComponent('导出登记站');
    expect((await download(`/api/handover/getExcelAll?fromSite=${site}`)).status).toBe(200);
    expect((await download(`/api/handover/exportSummaryRecordPdf?recordIds=${h.id}`)).status).toBe(200);
    const entries = await register();
    expect(entries.length).toBe(before + 2);
    const [pdf, xlsx] = entries.filter((e) => /^DC\d{8}-\d+$/.test(e.exportNo)).slice(0, 2);
    const day = String(h.handedAt ?? '').slice(0, 10);
    for (const [entry, format] of [
      [xlsx, 'xlsx'],
      [pdf, 'pdf'],
    ] as const)
      expect(entry).toMatchObject({
        format,
        rowCount: 1,
        groups: '生化组',
        periodFrom: day,
        periodTo: day,
        exportedBy: '系统管理员',
      });
    // The register is the server's: none made or deleted by hand; the exporter adds the purpose.
    expect((await admin.post('/api/resources/handoverExport', { purpose: '手工登记' })).status).toBe(403);
    expect((await admin.delete(`/api/resources/handoverExport/${pdf!.id}`)).status).toBe(403);
    const purposed = await admin.put(`/api/resources/handoverExport/${pdf!.id}`, {
      ...pdf,
      purpose: '月度质量分析',
      rowCount: 999,
    });
    expect(purposed.status, JSON.stringify(purposed.body)).toBe(200);
    expect((await register()).find((e) => e.id === pdf!.id)).toMatchObject({ purpose: '月度质量分析', rowCount: 1 });
  });

  it("prints the lab's own slip template (customConfig), and refuses a template it never saved", async () => {
    const saved = await admin.post('/api/customConfig/updateCustomConfig', {
      configKey: 'handoverSlip.short',
      configValue: { title: '冷链交接单', columns: ['barcode', 'checkResult'], signatures: false },
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const read = await admin.get<{ configValue: { columns: string[] } }>(
      '/api/customConfig/getCustomConfig?configKey=handoverSlip.short',
    );
    expect(read.body.resultObject.configValue.columns).toEqual(['barcode', 'checkResult']);
    expect(
      (
        await admin.get<{ configValue: { columns: string[] } }>(
          '/api/customConfig/getCustomConfig?configKey=handoverSlip',
        )
      ).body.resultObject.configValue.columns,
    ).toContain('patientName');
    const h = await newHandover(admin, codes(1));
    const text = pdfText(
      (await download(`/api/handover/exportHandleRecordPdf?recordId=${h.id}&templateId=handoverSlip.short`)).body,
    );
    expect(text).toContain('冷链交接单');
    expect(text).not.toContain('接收人签字');
    expect(text).not.toContain('标本类型');
    const unknown = await admin.get(
      `/api/handover/exportHandleRecordPdf?recordId=${h.id}&templateId=handoverSlip.none`,
    );
    expect(unknown.body.resultMessage).toBe('打印模板 handoverSlip.none 不存在');
    const bad = await admin.post('/api/customConfig/updateCustomConfig', {
      configKey: 'handoverSlip',
      configValue: { columns: ['barcode', 'price'] },
    });
    expect(bad.status).toBe(400);
    expect(
      (
        await editor.post('/api/customConfig/updateCustomConfig', {
          configKey: 'handoverSlip',
          configValue: { columns: ['barcode'] },
        })
      ).status,
    ).toBe(403);
    expect((await admin.get('/api/customConfig/getCustomConfig?configKey=nothing')).body.resultMessage).toBe(
      '未知的配置项 nothing',
    );
    // Another lab keeps its own configuration.
    expect((await lab2.get('/api/customConfig/getCustomConfig?configKey=handoverSlip.short')).status).toBe(400);
  });

  it('lists handovers, groups and receivers, and the specimens by purpose', async () => {
    const page = await editor.get<{ records: Handover[]; total: number }>(
      '/api/handover/getPageHandoverList?status=transit',
    );
    expect(page.body.resultObject.records.map((r) => r.handoverNo)).toEqual(['JJ20260120-0003']);
    const groups = await editor.get<{ groups: { value: string; label: string }[]; users: { userAccount: string }[] }>(
      '/api/handover/getHandoverUserGroupList',
    );
    expect(groups.body.resultObject.groups).toContainEqual({ value: 'bio', label: '生化组' });
    expect(groups.body.resultObject.users.map((u) => u.userAccount)).toEqual(
      expect.arrayContaining(['admin', 'editor']),
    );
    expect(groups.body.resultObject.users.map((u) => u.userAccount)).not.toContain('lab2admin');
    const demo = page.body.resultObject.records[0]!;
    const combos = await editor.get<{ combination: string; count: number; barcodes: string[] }[]>(
      `/api/handover/getSpecimenCombinationList?recordId=${demo.id}`,
    );
    expect(combos.body.resultObject).toEqual([
      { combination: '人乳头瘤病毒核酸分型检测', count: 2, barcodes: ['2601200301', '2601200302'] },
    ]);
  });

  it('takes specimens off an open handover by line (deleteAim) or by purposes (deleteCombination), keeping at least one', async () => {
    const [a, b, c] = codes(3);
    const h = await newHandover(admin, [a!, b!, c!]);
    const lines = await linesOf(h.id);
    const aim = await admin.post<{ record: Handover; removed: number }>(
      `/api/handover/deleteAim?recordId=${h.id}&aimId=${lines[0]!.id}`,
    );
    expect(aim.status, JSON.stringify(aim.body)).toBe(200);
    expect(aim.body.resultObject.record).toMatchObject({ specimenCount: 2, barcodes: `${b}\n${c}` });
    // The pool's specimens share their purposes: taking them off by those would leave none.
    const purposes = encodeURIComponent(String((lines[1] as unknown as { itemNames: string }).itemNames));
    const all = await admin.post(`/api/handover/deleteCombination?recordId=${h.id}&combination=${purposes}`);
    expect(all.body.resultMessage).toBe('交接单至少保留一个标本；整单作废请删除交接单');
    expect(
      (await admin.post(`/api/handover/deleteCombination?recordId=${h.id}&combination=无此目的`)).body.resultMessage,
    ).toBe('交接单上没有检验目的为“无此目的”的标本');
    expect((await linesOf(h.id)).map((l) => l.barcode)).toEqual([b, c]);
    // A specimen taken off is free for another handover.
    await newHandover(admin, [a!]);
  });

  it('returns a specimen taken off a handover to the state it was sent from', async () => {
    const [registered, received, other] = codes(3);
    const specimen = async (barcode: string) =>
      (await admin.get<{ records: { id: number; status: string }[] }>(`/api/resources/specimen?barcode=${barcode}`))
        .body.resultObject.records[0]!;
    const id = (await specimen(received!)).id;
    expect((await admin.post(`/api/resources/specimen/${id}/transitions/receive`, {})).status).toBe(200);
    const h = await newHandover(admin, [registered!, received!, other!]);
    for (const barcode of [registered, received]) expect((await specimen(barcode!)).status).toBe('inTransit');
    const lines = await linesOf(h.id);
    for (const line of lines.filter((l) => l.barcode !== other))
      expect((await admin.post(`/api/handover/deleteAim?recordId=${h.id}&aimId=${line.id}`)).status).toBe(200);
    expect([(await specimen(registered!)).status, (await specimen(received!)).status]).toEqual([
      'registered',
      'received',
    ]);
    const events = (await admin.get<{ name: string; toState: string }[]>(`/api/resources/specimen/${id}/events`)).body
      .resultObject;
    expect(events.filter((e) => e.name === 'recall').map((e) => e.toState)).toEqual(['received']);
  });
});

describe('two laboratories', () => {
  it("never see, print, confirm or export each other's handovers", async () => {
    const h = await newHandover(admin, codes(1));
    const theirs = await lab2.get<{ records: Handover[] }>('/api/handover/getPageHandoverList?size=500');
    expect(theirs.body.resultObject.records.map((r) => r.handoverNo)).not.toContain(h.handoverNo);
    expect(theirs.body.resultObject.records.some((r) => r.id === h.id)).toBe(false);
    expect((await lab2.get(`/api/resources/handoverRecord/${h.id}`)).status).toBe(404);
    expect((await lab2.get(`/api/handover/exportHandleRecordPdf?recordId=${h.id}`)).status).toBe(404);
    expect((await lab2.get(`/api/handover/getExcel?recordId=${h.id}`)).status).toBe(404);
    expect(
      (
        await lab2.post(`/api/handover/confirmReceive?recordId=${h.id}`, {
          userAccount: 'lab2admin',
          passwd: DEMO_PASSWORD,
        })
      ).status,
    ).toBe(404);
    expect((await lab2.post(`/api/handover/deleteAim?recordId=${h.id}&aimId=1`)).status).toBe(404);
    expect(
      (await lab2.get<{ records: Line[] }>(`/api/handover/getSpecimenAimList?recordId=${h.id}`)).body.resultObject
        .records,
    ).toEqual([]);
    expect((await read(h.id)).status).toBe('open');
    // Nor may the other lab hand over this lab's specimen: it is no specimen of theirs.
    const mine = (await linesOf(h.id))[0]!.barcode;
    const res = await lab2.post<Handover>('/api/resources/handoverRecord', {
      fromSite: '杭州',
      toGroup: 'bio',
      storage: 'room',
      barcodes: mine,
    });
    expect([res.status, res.body.resultMessage]).toEqual([400, `条码 ${mine} 没有登记的标本，不能交接`]);
  });

  it('confirms several handovers at once, all or none, and answers their slips', async () => {
    const one = await newHandover(admin, codes(1));
    const two = await newHandover(admin, codes(2));
    const closed = await newHandover(admin, codes(1));
    expect((await confirm(admin, closed.id, asReceiver)).status).toBe(200);
    const refused = await admin.post('/api/handover/confirmReceiveAll', { ids: [one.id, closed.id], ...asReceiver });
    expect(refused.status).toBe(400);
    expect((await read(one.id)).status).toBe('open');
    const res = await download('/api/handover/confirmReceiveAll', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ids: [one.id, two.id], ...asReceiver }),
    });
    expect(res.status).toBe(200);
    const text = pdfText(res.body);
    expect(text).toContain(one.handoverNo);
    expect(text).toContain(two.handoverNo);
    expect([(await read(one.id)).status, (await read(two.id)).status]).toEqual(['received', 'received']);
    expect((await admin.post('/api/handover/confirmReceiveAll', { ...asReceiver })).body.resultMessage).toBe(
      '请先勾选数据进行操作',
    );
  });
});

describe('files kept about a specimen (spec 7.2 getImgs, getFiles, getSpecimenFileList)', () => {
  it("finds a specimen's images by barcode where the lab keeps them, within the lab", async () => {
    const [barcode] = codes(1);
    const png =
      'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
    const form = await admin.post<{ id: number }>('/api/resources/originalFormSupplement', {
      barcode,
      formImage: png,
      supplementedFields: '送检医生',
      supplementedBy: '前处理-丁宁',
      supplementedAt: '2026-01-20 08:00:00',
    });
    expect(form.status, JSON.stringify(form.body)).toBe(200);
    const imgs = await admin.get<
      { barcode: string; resource: string; field: string; mimeType: string; size: number; dataUrl: string }[]
    >(`/api/specimeEntry/examine/getImgs?barcode=${barcode}`);
    expect(imgs.body.resultObject).toEqual([
      expect.objectContaining({
        barcode,
        resource: 'originalFormSupplement',
        field: 'formImage',
        mimeType: 'image/png',
        size: 70,
        dataUrl: png,
      }),
    ]);
    expect(
      (await admin.get<unknown[]>(`/api/specimeEntry/v2/ins/getFiles?barcode=${barcode}`)).body.resultObject,
    ).toEqual([]);
    expect(
      (await lab2.get<unknown[]>(`/api/specimeEntry/examine/getImgs?barcode=${barcode}`)).body.resultObject,
    ).toEqual([]);
    const h = await newHandover(admin, [barcode!]);
    const list = await admin.get<Record<string, unknown>[]>(`/api/handover/getSpecimenFileList?recordId=${h.id}`);
    expect(list.body.resultObject).toEqual([expect.objectContaining({ barcode, label: '原始单图片', kind: 'image' })]);
    expect(list.body.resultObject[0]).not.toHaveProperty('dataUrl');
    expect((await admin.get('/api/specimeEntry/examine/getImgs')).status).toBe(400);
  });
});
