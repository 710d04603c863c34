import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, DEMO_PASSWORD, type TestServer } from '../support/server';
import { api, tokenFor } from '../support/client';
import { enterSpecimens } from '../support/specimens';
import { idByName } from '../support/results';

/** A results file (Excel or CSV: barcode, item code, value) entered like the worksheet, all or none. */
type Rec = Record<string, unknown> & { id: number; status: string };
type Page = { records: Rec[]; total: number };

let server: TestServer;
let admin: ReturnType<typeof api>;
let editor: ReturnType<typeof api>;
let editorToken = '';

beforeAll(async () => {
  server = await startServer();
  admin = api(server.url, await tokenFor(server.url, 'admin', DEMO_PASSWORD));
  editorToken = await tokenFor(server.url, 'editor', DEMO_PASSWORD);
  editor = api(server.url, editorToken);
});
afterAll(() => server?.dispose());

async function receivedBloodCount(): Promise<string> {
  const purpose = await idByName(admin, 'inspectionPurpose', '血常规');
  const [barcode] = await enterSpecimens(editor, 1, { purposes: [purpose], sex: 'female', age: 30 });
  const specimen = (await admin.get<Page>(`/api/resources/specimen?barcode=${barcode}`)).body.resultObject.records[0]!;
  expect((await editor.post(`/api/resources/specimen/${specimen.id}/transitions/receive`, {})).status).toBe(200);
  return barcode!;
}
const upload = async (bytes: Buffer, fileName: string) => {
  const res = await fetch(`${server.url}/api/results/import?fileName=${fileName}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${editorToken}`, 'content-type': 'application/octet-stream' },
    body: new Uint8Array(bytes),
  });
  return (await res.json()) as { resultCode: number; resultMessage: string };
};
const byItem = async (barcode: string) =>
  Object.fromEntries(
    (await admin.get<Page>(`/api/resources/inspectionResult?barcode=${barcode}`)).body.resultObject.records.map((r) => [
      (r.labels as { item: string }).item,
      r,
    ]),
  );

describe('a results file', () => {
  it('enters an Excel file’s values through the same step as the worksheet, flagged by the server', async () => {
    const barcode = await receivedBloodCount();
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('结果');
    sheet.addRow(['条码号', '项目代码', '结果']);
    sheet.addRow([barcode, 'WBC', '11.2']);
    sheet.addRow([barcode, 'HGB', '98']);
    const answer = await upload(Buffer.from(await book.xlsx.writeBuffer()), 'results.xlsx');
    expect(answer.resultCode, answer.resultMessage).toBe(200);
    const results = await byItem(barcode);
    expect(results['白细胞计数']).toMatchObject({ status: 'tested', result: '11.20', flag: 'H', tester: '王检验' });
    expect(results['血红蛋白']).toMatchObject({ status: 'tested', result: '98', flag: 'L', referenceRange: '115-150' });
  });

  it('reads a CSV, and refuses the whole file for one line that fits no pending result, naming it', async () => {
    const barcode = await receivedBloodCount();
    const csv = `barcode,item code,value\n${barcode},WBC,6.5\n${barcode},GLU,5.1\n`;
    const refused = await upload(Buffer.from(csv), 'results.csv');
    expect(refused.resultMessage).toBe(`第3行：标本 ${barcode} 没有项目 GLU 的待检结果`);
    expect(Object.values(await byItem(barcode)).map((r) => r.status)).toEqual(['pending', 'pending']);
    const ok = await upload(Buffer.from(`barcode,item code,value\n${barcode},HGB,120\n`), 'results.csv');
    expect(ok.resultCode, ok.resultMessage).toBe(200);
    expect((await byItem(barcode))['血红蛋白']).toMatchObject({ status: 'tested', result: '120', flag: 'N' });
  });

  it('enters a file in one step: a value the step refuses is named by its row, and no line is entered', async () => {
    const barcode = await receivedBloodCount();
    const csv = `barcode,item code,value\n${barcode},WBC,6.5\n${barcode},HGB,${'9'.repeat(61)}\n`;
    const refused = await upload(Buffer.from(csv), 'results.csv');
    expect(refused.resultCode).toBe(400);
    expect(refused.resultMessage).toMatch(/^第3行：/);
    expect(Object.values(await byItem(barcode)).map((r) => r.status)).toEqual(['pending', 'pending']);
    // A line given twice: the later value is the result, entered once.
    const twice = `barcode,item code,value\n${barcode},WBC,6.5\n${barcode},HGB,120\n${barcode},WBC,7.1\n`;
    expect((await upload(Buffer.from(twice), 'results.csv')).resultCode).toBe(200);
    const results = await byItem(barcode);
    expect(results['白细胞计数']).toMatchObject({ result: '7.10' });
    const events = (
      await admin.get<{ name: string }[]>(`/api/resources/inspectionResult/${String(results['白细胞计数']!.id)}/events`)
    ).body.resultObject;
    expect(events.filter((e) => e.name === 'record')).toHaveLength(1);
  });

  it('refuses a file it cannot read with what it expects', async () => {
    const answer = await upload(Buffer.from('not a spreadsheet'), 'results.xlsx');
    expect(answer.resultMessage).toContain('首行为“条码号、项目代码、结果”');
  });
});
