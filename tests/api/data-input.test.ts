import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, DEMO_PASSWORD, type TestServer } from '../support/server';
import { api, tokenFor } from '../support/client';

interface Mapping {
  id: number;
  hospital: number;
  kind: string;
  externalCode: string;
  externalName: string;
  localCode: string;
  localName?: string;
}
interface Batch {
  id: number;
  batchNo: string;
  hospital: number;
  kind: string;
  fileName?: string;
  totalRows: number;
  importedRows: number;
  failedRows: number;
  status: string;
  importedBy: string;
}
interface Answer {
  resultCode: number;
  resultMessage: string;
  resultObject: { imported: number; batchNos: string[] } & { errors: { message: string }[] };
}

/**
 * Data input (spec 7.4 imporItem, upLoadItemExcel): a hospital's code list goes into the import
 * dictionary whole or not at all, every problem named by its row; each import is a batch of 数据导入管理.
 * The tests use hospital codes of their own (TST…).
 */
let server: TestServer;
let token = '';
let admin: ReturnType<typeof api>;
let hospitalId = 0;

beforeAll(async () => {
  server = await startServer();
  token = await tokenFor(server.url, 'admin', DEMO_PASSWORD);
  admin = api(server.url, token);
  const hospitals = await admin.get<{ records: { id: number; name: string }[] }>(
    `/api/resources/referralHospital?name=${encodeURIComponent('杭州市第一人民医院')}`,
  );
  hospitalId = hospitals.body.resultObject.records[0]!.id;
});
afterAll(() => server?.dispose());

async function sheet(rows: unknown[][]): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('HIS项目');
  for (const r of rows) ws.addRow(r);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

const upload = async (body: Buffer | FormData, query = '', as = token): Promise<{ status: number; body: Answer }> => {
  const res = await fetch(`${server.url}/api/data/input/upLoadItemExcel${query}`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${as}`,
      ...(Buffer.isBuffer(body) && {
        'content-type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      }),
    },
    body: Buffer.isBuffer(body) ? new Uint8Array(body) : body,
  });
  return { status: res.status, body: (await res.json()) as Answer };
};

const mappings = async (code: string) =>
  (
    await admin.get<{ records: Mapping[] }>(
      `/api/resources/importDictionary?externalCode=${code}&size=100&sort=externalCode,asc`,
    )
  ).body.resultObject.records;
const batches = async () =>
  (await admin.get<{ records: Batch[] }>('/api/resources/dataImport?kind=dictionary&size=100')).body.resultObject
    .records;

describe("data input: a sheet of a hospital's codes (upLoadItemExcel)", () => {
  it('refuses a sheet with bad rows, naming each row, and imports none of it', async () => {
    const res = await upload(
      await sheet([
        ['送检医院', '医院编码', '医院名称', '本地编码', '本地名称'],
        ['杭州市第一人民医院', 'TSTA01', '肝功能全套', 'SH-GGN', '肝功能'],
        ['杭州市第一人民医院', 'TSTA02', '', 'LJ-XCG', '血常规'],
        ['不存在的医院', 'TSTA03', '甲功三项', 'MY-JGN', ''],
      ]),
    );
    expect(res.status).toBe(400);
    const messages = res.body.resultObject.errors.map((e) => e.message);
    expect(messages.some((m) => m.startsWith('第3行：') && m.includes('医院名称'))).toBe(true);
    expect(messages.some((m) => m.startsWith('第4行：') && m.includes('送检医院'))).toBe(true);
    expect(messages.some((m) => m.startsWith('第2行'))).toBe(false);
    expect(await mappings('TSTA')).toEqual([]);
    expect(await batches()).toEqual([]);
  });

  it('imports a good sheet whole, as item codes unless a row says otherwise, and records its batch', async () => {
    const res = await upload(
      await sheet([
        ['送检医院', '对照类型', '医院编码', '医院名称', '本地编码', '本地名称'],
        ['杭州市第一人民医院', '', 'TSTB01', '肝功能全套', 'SH-GGN', '肝功能'],
        ['杭州市第一人民医院', '', 'TSTB02', '血细胞分析(五分类)', 'LJ-XCG', '血常规'],
        ['杭州市第一人民医院', '标本类型', 'TSTB03', '静脉血清', 'XQ', '血清'],
      ]),
      `?fileName=${encodeURIComponent('一院项目.xlsx')}`,
    );
    expect(res.status).toBe(200);
    expect(res.body.resultObject.imported).toBe(3);
    expect((await mappings('TSTB')).map((m) => [m.externalCode, m.kind, m.hospital, m.localCode])).toEqual([
      ['TSTB01', 'item', hospitalId, 'SH-GGN'],
      ['TSTB02', 'item', hospitalId, 'LJ-XCG'],
      ['TSTB03', 'specimenType', hospitalId, 'XQ'],
    ]);
    const [batch] = await batches();
    expect(batch).toMatchObject({
      hospital: hospitalId,
      kind: 'dictionary',
      fileName: '一院项目.xlsx',
      totalRows: 3,
      importedRows: 3,
      failedRows: 0,
      status: 'done',
      importedBy: '系统管理员',
    });
    expect(batch!.batchNo).toMatch(/^IMP\d{8}\d{3}$/);
    expect(res.body.resultObject.batchNos).toEqual([batch!.batchNo]);
    const log = await admin.get<{ records: { action: string }[] }>('/api/log/getLogList?resource=importDictionary');
    expect(log.body.resultObject.records.filter((r) => r.action === 'import').length).toBe(3);
  });

  it('keeps the batches as a register the server writes: none typed, edited or deleted by hand', async () => {
    const [batch] = await batches();
    const typed = await admin.post('/api/resources/dataImport', { ...batch, batchNo: 'IMP-BY-HAND', id: undefined });
    expect(typed.status).toBe(403);
    const edited = await admin.put(`/api/resources/dataImport/${batch!.id}`, { ...batch, importedRows: 300 });
    expect(edited.status).toBe(403);
    expect((await admin.delete(`/api/resources/dataImport/${batch!.id}`)).status).toBe(403);
    expect(await batches()).toEqual([batch]);
  });

  it('takes the sheet as a file of a multipart form too, the hospital given once for every row', async () => {
    const form = new FormData();
    form.set('hospital', String(hospitalId));
    form.set(
      'file',
      new Blob([
        new Uint8Array(
          await sheet([
            ['医院编码', '医院名称', '本地编码'],
            ['TSTC01', '尿常规', 'LJ-NCG'],
          ]),
        ),
      ]),
      '尿常规.xlsx',
    );
    const res = await upload(form);
    expect(res.status).toBe(200);
    expect((await mappings('TSTC')).map((m) => [m.externalCode, m.kind, m.hospital])).toEqual([
      ['TSTC01', 'item', hospitalId],
    ]);
    expect((await batches()).map((b) => b.fileName)).toContain('尿常规.xlsx');
  });

  it('refuses what is not a sheet, an empty sheet, and callers who may not import', async () => {
    const notExcel = await upload(Buffer.from('code,name\nA,B'));
    expect(notExcel.status).toBe(400);
    expect(notExcel.body.resultMessage).toBe('文件不是有效的 Excel (.xlsx) 文件');
    const empty = await upload(await sheet([['医院编码', '医院名称', '本地编码']]));
    expect(empty.status).toBe(400);
    expect(empty.body.resultMessage).toBe('没有可导入的数据');
    const editor = await tokenFor(server.url, 'editor', DEMO_PASSWORD);
    const refused = await upload(
      await sheet([
        ['医院编码', '医院名称', '本地编码'],
        ['TSTD01', '血糖', 'SH-GLU'],
      ]),
      `?hospital=${hospitalId}`,
      editor,
    );
    expect(refused.status).toBe(403);
    expect(await mappings('TSTD')).toEqual([]);
  });
});

describe("data input: a list of a hospital's codes (imporItem)", () => {
  it('refuses a list with a bad row, naming it, and imports none of it', async () => {
    const res = await admin.post<Answer['resultObject']>('/api/data/input/imporItem', {
      hospital: hospitalId,
      items: [
        { externalCode: 'TSTE01', externalName: '血糖', localCode: 'SH-GLU' },
        { externalCode: 'TSTE02', externalName: '血脂四项', localCode: 'SH-XZ', kind: 'lipids' },
      ],
    });
    expect(res.status).toBe(400);
    expect(res.body.resultObject.errors.map((e) => e.message)).toEqual([expect.stringMatching(/^第2行：.*对照类型/)]);
    expect(await mappings('TSTE')).toEqual([]);
    expect((await admin.post('/api/data/input/imporItem', { items: 'TSTE01' })).status).toBe(400);
    expect((await admin.post('/api/data/input/imporItem', [])).body.resultMessage).toBe('没有可导入的数据');
  });

  it('imports a good list whole, rows of a bare list naming their own hospital', async () => {
    const res = await admin.post<Answer['resultObject']>('/api/data/input/imporItem', [
      {
        hospital: hospitalId,
        externalCode: 'TSTF01',
        externalName: '血糖',
        localCode: 'SH-GLU',
        localName: '葡萄糖',
      },
      {
        hospital: hospitalId,
        kind: 'department',
        externalCode: 'TSTF02',
        externalName: '内分泌科',
        localCode: 'NK',
      },
    ]);
    expect(res.status).toBe(200);
    expect(res.body.resultObject.imported).toBe(2);
    expect((await mappings('TSTF')).map((m) => [m.externalCode, m.kind])).toEqual([
      ['TSTF01', 'item'],
      ['TSTF02', 'department'],
    ]);
    expect((await batches()).filter((b) => b.totalRows === 2 && !b.fileName)).toHaveLength(1);
  });
});
