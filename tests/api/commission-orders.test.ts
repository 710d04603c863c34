import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, DEMO_PASSWORD, type TestServer } from '../support/server';
import { api, tokenFor } from '../support/client';
import { enterSpecimens } from '../support/specimens';

/**
 * 委托中心: a specimen sent to an entrusted lab. The order's number, the patient and when it left are the
 * server's; the order moves through 对方接收, 回报告 (with the external report number) or 退回 (with the
 * reason), each step stamped with who recorded it.
 */
type Order = Record<string, unknown> & { id: number; status: string; orderNo: string };

let server: TestServer;
let editor: ReturnType<typeof api>;

beforeAll(async () => {
  server = await startServer();
  editor = api(server.url, await tokenFor(server.url, 'editor', DEMO_PASSWORD));
});
afterAll(() => server?.dispose());

const read = async (id: number) => (await editor.get<Order>(`/api/resources/commissionOrder/${id}`)).body.resultObject;
const run = (o: Order, name: string, body: Record<string, unknown> = {}) =>
  editor.post<Order>(`/api/resources/commissionOrder/${o.id}/transitions/${name}`, body);

describe('a specimen sent out to an entrusted lab', () => {
  it('is numbered, named and timed by the server, and moves only through its steps', async () => {
    const [barcode] = await enterSpecimens(editor, 1, { patientName: '外送病人' });
    const projects = await editor.get<{ records: { id: number }[] }>('/api/resources/commissionedProject?size=1');
    const res = await editor.post<Order>('/api/resources/commissionOrder', {
      barcode,
      project: projects.body.resultObject.records[0]!.id,
      orderNo: 'WT-BY-HAND',
      patientName: '别人',
      sentAt: '2020-01-01 00:00:00',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const order = await read(res.body.resultObject.id);
    expect(order).toMatchObject({ patientName: '外送病人', status: 'sent' });
    expect(order.orderNo).toMatch(/^WT\d{8}-\d+$/);
    expect(String(order.sentAt).startsWith('2020')).toBe(false);

    expect((await run(order, 'report', {})).status).toBe(400);
    expect((await run(order, 'accept')).status).toBe(200);
    expect(await read(order.id)).toMatchObject({ status: 'received', handledBy: '王检验' });
    expect((await run(await read(order.id), 'report', { externalReportNo: 'JY-2026-0042' })).status).toBe(200);
    const reported = await read(order.id);
    expect(reported).toMatchObject({ status: 'reported', externalReportNo: 'JY-2026-0042' });
    expect(reported.reportedAt).toBeTruthy();
    const late = await run(reported, 'return', { returnReason: '标本溶血' });
    expect([late.status, late.body.resultMessage]).toEqual([400, '当前状态为「已回报告」，不能执行「退回」']);
  });
});
