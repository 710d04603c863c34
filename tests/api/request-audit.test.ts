import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, DEMO_PASSWORD, type TestServer } from '../support/server';
import { api, tokenFor } from '../support/client';
import { enterSpecimens } from '../support/specimens';
import { matches } from '../../src/shared/screens/predicate';
import type { ScreenSchema } from '../../src/shared/screens/fields';

/**
 * 申请单审核: a second person checks an entered request. What the request says (patient, hospital,
 * purposes, who entered it and when) is the specimen's of the barcode, never typed; 通过 / 退回 stamp
 * the auditor and time, and are refused to whoever entered the request.
 */
type Audit = Record<string, unknown> & { id: number; auditStatus: string };
type Page<T> = { records: T[] };

let server: TestServer;
let admin: ReturnType<typeof api>;
let editor: ReturnType<typeof api>;

beforeAll(async () => {
  server = await startServer();
  admin = api(server.url, await tokenFor(server.url, 'admin', DEMO_PASSWORD));
  editor = api(server.url, await tokenFor(server.url, 'editor', DEMO_PASSWORD));
});
afterAll(() => server?.dispose());

const specimenOf = async (barcode: string) =>
  (await admin.get<Page<Record<string, unknown>>>(`/api/resources/specimen?barcode=${barcode}`)).body.resultObject
    .records[0]!;
const audit = async (barcode: string, requestNo: string) => {
  const res = await admin.post<Audit>('/api/resources/requestAudit', {
    barcode,
    requestNo,
    patientName: '别人',
    enteredBy: '冒名',
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.resultObject;
};
const read = async (id: number) => (await admin.get<Audit>(`/api/resources/requestAudit/${id}`)).body.resultObject;
const run = (a: Audit, name: string, body: Record<string, unknown> = {}) =>
  admin.post<Audit>(`/api/resources/requestAudit/${a.id}/transitions/${name}`, body);

describe('a request audited', () => {
  it('shows the request as the specimen has it, and is approved by someone other than its enterer', async () => {
    const [barcode] = await enterSpecimens(editor, 1, { patientName: '审核病人' });
    const specimen = await specimenOf(barcode!);
    const made = await read((await audit(barcode!, 'SQ-T-0001')).id);
    expect(made).toMatchObject({
      patientName: '审核病人',
      hospital: specimen.hospital,
      purposes: specimen.purposes,
      enteredBy: '王检验',
      enteredAt: specimen.enteredAt,
      auditStatus: 'pending',
    });
    expect((await run(made, 'approve')).status).toBe(200);
    const me = (await admin.get<{ userName: string }>('/api/user/me')).body.resultObject.userName;
    const approved = await read(made.id);
    expect(approved).toMatchObject({ auditStatus: 'approved', auditor: me });
    expect(approved.auditedAt).toBeTruthy();
  });

  it('is refused to whoever entered the request, and a return asks its reason', async () => {
    const [barcode] = await enterSpecimens(admin, 1);
    const own = await audit(barcode!, 'SQ-T-0002');
    const res = await run(own, 'approve');
    expect([res.status, res.body.resultMessage]).toEqual([400, '「通过」须由录入人以外的人执行']);
    // Nor is the step offered them: the screen served to them hides 通过 and 退回 on their own request.
    const screen = (await admin.get<ScreenSchema>('/api/ui/screens/request-audit')).body.resultObject;
    const offered = (name: string, row: Audit) =>
      matches(screen.actions!.row!.find((a) => a.name === name)!.visibleWhen, row);
    expect([offered('approve', await read(own.id)), offered('return', await read(own.id))]).toEqual([false, false]);
    expect((await run(own, 'return', { opinion: '漏填诊断' })).status).toBe(400);
    expect((await read(own.id)).auditStatus).toBe('pending');

    const [other] = await enterSpecimens(editor, 1);
    const theirs = await audit(other!, 'SQ-T-0003');
    expect(offered('approve', await read(theirs.id))).toBe(true);
    expect((await run(theirs, 'return', {})).status).toBe(400);
    expect((await run(theirs, 'return', { opinion: '临床诊断未填写' })).status).toBe(200);
    expect(await read(theirs.id)).toMatchObject({ auditStatus: 'returned', opinion: '临床诊断未填写' });
  });
});
