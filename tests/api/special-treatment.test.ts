import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, DEMO_PASSWORD, type TestServer } from '../support/server';
import { api, tokenFor } from '../support/client';
import { enterSpecimens } from '../support/specimens';
import type { RecordEvent } from '../../src/shared/lifecycle/events';

/**
 * 特殊处理: nothing the server can know is typed. Who asked and when are the signed-in user and the
 * server's clock, the patient is the specimen's of the barcode, and the request moves only through its
 * steps (批准 / 驳回 with a reason, then 完成), each stamped with who ran it and when.
 */
type Request = Record<string, unknown> & { id: number; version: number; status: string };

let server: TestServer;
let admin: ReturnType<typeof api>;
let editor: ReturnType<typeof api>;

beforeAll(async () => {
  server = await startServer();
  admin = api(server.url, await tokenFor(server.url, 'admin', DEMO_PASSWORD));
  editor = api(server.url, await tokenFor(server.url, 'editor', DEMO_PASSWORD));
});
afterAll(() => server?.dispose());

const ask = (body: Record<string, unknown>) => editor.post<Request>('/api/resources/specialTreatment', body);
const run = (r: Request, name: string, body: Record<string, unknown> = {}) =>
  admin.post<Request>(`/api/resources/specialTreatment/${r.id}/transitions/${name}`, body);
const read = async (id: number) =>
  (await admin.get<Request>(`/api/resources/specialTreatment/${id}`)).body.resultObject;
const adminName = async () => (await admin.get<{ userName: string }>('/api/user/me')).body.resultObject.userName;

describe('a special treatment request', () => {
  it('takes who asked, when and the patient from the server, whatever was typed for them', async () => {
    const [barcode] = await enterSpecimens(editor, 1, { patientName: '急查病人' });
    const res = await ask({
      barcode,
      treatment: 'rush',
      reason: '术前急查',
      patientName: '别人',
      requestedBy: '冒名',
      requestedAt: '2020-01-01 00:00:00',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const made = await read(res.body.resultObject.id);
    expect(made).toMatchObject({ barcode, patientName: '急查病人', requestedBy: '王检验', status: 'pending' });
    expect(String(made.requestedAt).slice(0, 4)).not.toBe('2020');
    expect(Date.now() - new Date(String(made.requestedAt).replace(' ', 'T')).getTime()).toBeLessThan(10 * 60_000);
  });

  it('is refused for a barcode no specimen has, or a state typed, and nothing is stored', async () => {
    const before = (await admin.get<{ total: number }>('/api/resources/specialTreatment?size=1')).body.resultObject
      .total;
    const res = await ask({ barcode: 'NO-SUCH-TUBE', treatment: 'retest', reason: '复检' });
    expect(res.status).toBe(400);
    expect(res.body.resultMessage).toBe('条码号“NO-SUCH-TUBE”不存在');
    const [barcode] = await enterSpecimens(editor, 1);
    const stated = await ask({ barcode, treatment: 'rush', reason: '急查', status: 'done' });
    expect([stated.status, stated.body.resultMessage]).toEqual([400, '状态只能通过流转操作改变，不能直接修改']);
    const after = (await admin.get<{ total: number }>('/api/resources/specialTreatment?size=1')).body.resultObject
      .total;
    expect(after).toBe(before);
  });

  it('is approved, then done, each step stamped; a refusal asks its reason; the state is never typed', async () => {
    const [first, second] = await enterSpecimens(editor, 2);
    const approveMe = (await ask({ barcode: first, treatment: 'retest', reason: '钾偏高复检' })).body.resultObject;
    const refuseMe = (await ask({ barcode: second, treatment: 'return', reason: '退回' })).body.resultObject;
    const name = await adminName();

    // The state is the server's: an edit typing it is refused; an approver typed is not taken.
    const stored = await read(approveMe.id);
    const typed = await editor.put<Request>(`/api/resources/specialTreatment/${approveMe.id}`, {
      ...stored,
      status: 'approved',
    });
    expect([typed.status, typed.body.resultMessage]).toEqual([400, '状态只能通过流转操作改变，不能直接修改']);
    const edit = await editor.put<Request>(`/api/resources/specialTreatment/${approveMe.id}`, {
      ...stored,
      reason: '钾 6.9 偏高复检',
      approvedBy: '冒名',
    });
    expect(edit.status, JSON.stringify(edit.body)).toBe(200);
    expect(await read(approveMe.id)).toMatchObject({ status: 'pending', reason: '钾 6.9 偏高复检' });
    expect((await read(approveMe.id)).approvedBy ?? null).toBeNull();

    // Done before approval: refused.
    const early = await run(await read(approveMe.id), 'complete');
    expect([early.status, early.body.resultMessage]).toEqual([400, '当前状态为「待审批」，不能执行「完成」']);

    expect((await run(approveMe, 'approve')).status).toBe(200);
    const approved = await read(approveMe.id);
    const late = await editor.put<Request>(`/api/resources/specialTreatment/${approveMe.id}`, {
      ...approved,
      reason: '改',
    });
    expect([late.status, late.body.resultMessage]).toEqual([400, '当前状态为「已批准」，不能修改']);
    expect(approved).toMatchObject({ status: 'approved', approvedBy: name });
    expect(approved.approvedAt).toBeTruthy();
    expect((await run(approved, 'complete')).status).toBe(200);
    expect(await read(approveMe.id)).toMatchObject({ status: 'done', doneBy: name });

    expect((await run(refuseMe, 'refuse', {})).status).toBe(400);
    expect((await read(refuseMe.id)).status).toBe('pending');
    expect((await run(refuseMe, 'refuse', { refusalReason: '标本合格，无需退回' })).status).toBe(200);
    expect(await read(refuseMe.id)).toMatchObject({
      status: 'refused',
      approvedBy: name,
      refusalReason: '标本合格，无需退回',
    });

    const history = await admin.get<RecordEvent[]>(`/api/resources/specialTreatment/${approveMe.id}/events`);
    expect(history.body.resultObject.map((e) => e.name)).toEqual(['create', 'approve', 'complete']);
  });

  it('(不合格标本管理 likewise) takes the patient and hospital from the specimen, the finder from the sign-in', async () => {
    const [barcode] = await enterSpecimens(editor, 1, { patientName: '溶血病人' });
    const specimen = (
      await admin.get<{ records: Record<string, unknown>[] }>(`/api/resources/specimen?barcode=${barcode}`)
    ).body.resultObject.records[0]!;
    const types = await admin.get<{ records: { id: number }[] }>('/api/resources/abnormalSampleType?size=1');
    const res = await editor.post<{ id: number }>('/api/resources/unqualifiedSample', {
      barcode,
      abnormalType: types.body.resultObject.records[0]!.id,
      handling: 'recollect',
      patientName: '别人',
      hospital: 999_999,
      foundBy: '冒名',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const found = (
      await admin.get<Record<string, unknown>>(`/api/resources/unqualifiedSample/${res.body.resultObject.id}`)
    ).body.resultObject;
    expect(found).toMatchObject({ patientName: '溶血病人', hospital: specimen.hospital, foundBy: '王检验' });
  });
});
