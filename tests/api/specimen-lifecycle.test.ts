import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { prepareZXingModule, readBarcodes } from 'zxing-wasm/reader';
import { startServer, DEMO_PASSWORD, type TestServer } from '../support/server';
import { api, tokenFor } from '../support/client';
import { pdfText } from '../support/pdfText';
import type { RecordEvent, ShownEvent } from '../../src/shared/lifecycle/events';

/** One specimen from entry on: its issued barcode, its lifecycle enforced by the server, its history. */
type Specimen = Record<string, unknown> & { id: number; version: number; barcode: string; status: string };
type Page<T> = { records: T[]; total: number };
type Event = RecordEvent;
interface Transition {
  name: string;
  from: string[];
  system?: boolean;
}

let server: TestServer;
let admin: ReturnType<typeof api>;
let editor: ReturnType<typeof api>;
let adminToken = '';
let values: Record<string, unknown>;
let transitions: Transition[];

beforeAll(async () => {
  server = await startServer();
  adminToken = await tokenFor(server.url, 'admin', DEMO_PASSWORD);
  admin = api(server.url, adminToken);
  editor = api(server.url, await tokenFor(server.url, 'editor', DEMO_PASSWORD));
  const first = async (resource: string) =>
    (await admin.get<Page<{ id: number }>>(`/api/resources/${resource}?size=1`)).body.resultObject.records[0]!.id;
  values = {
    patientName: '流转测试',
    sex: 'male',
    age: 40,
    hospital: await first('referralHospital'),
    purposes: [await first('inspectionPurpose')],
    specimenType: await first('specimenType'),
    collectedAt: '2026-11-24 08:00:00',
  };
  const screen = (
    await admin.get<{ resource: { lifecycle: { transitions: Transition[] } } }>('/api/ui/screens/front-entry')
  ).body.resultObject;
  transitions = screen.resource.lifecycle.transitions;
});
afterAll(() => server?.dispose());

/** The barcode reader's WebAssembly from the package itself: by default it would fetch it from a CDN. */
function useLocalReader() {
  const dir = path.dirname(createRequire(import.meta.url).resolve('zxing-wasm/reader'));
  const wasm = readFileSync(path.resolve(dir, '../../reader/zxing_reader.wasm'));
  prepareZXingModule({
    overrides: { wasmBinary: wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength) },
  });
}

async function enter(who = editor, body: Record<string, unknown> = {}): Promise<Specimen> {
  const res = await who.post<Specimen>('/api/resources/specimen', { ...values, ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.resultObject;
}
const read = async (id: number) => (await admin.get<Specimen>(`/api/resources/specimen/${id}`)).body.resultObject;
const run = (id: number, name: string, body: Record<string, unknown> = {}, who = editor) =>
  who.post<Specimen>(`/api/resources/specimen/${id}/transitions/${name}`, body);
const historyOf = async (id: number) =>
  (await admin.get<Event[]>(`/api/resources/specimen/${id}/events`)).body.resultObject;
async function rejectReason() {
  return (await admin.get<Page<{ id: number }>>('/api/resources/abnormalSampleType?size=1')).body.resultObject
    .records[0]!.id;
}

describe('entry', () => {
  it('issues the barcode from the tube rule and stamps who entered it; the history starts', async () => {
    const a = await enter();
    const b = await enter();
    expect(a.barcode).toMatch(/^\d{10}$/);
    expect(Number(b.barcode)).toBe(Number(a.barcode) + 1);
    expect(a).toMatchObject({ status: 'registered', enteredBy: '王检验', entrySource: 'front' });
    const history = await historyOf(a.id);
    expect(history.filter((e) => e.kind === 'transition')).toMatchObject([
      { name: 'create', toState: 'registered', actorName: '王检验', orgName: '华康医学检验中心实验室' },
    ]);
    // Its process starts on entry, or the history says why it could not.
    expect(history.filter((e) => e.kind === 'workflow').map((e) => e.name)).toHaveLength(1);
  });

  it('refuses a typed barcode the lab never issued, and one already used; takes a pre-printed one once', async () => {
    const never = await editor.post('/api/resources/specimen', { ...values, barcode: '9999999999' });
    expect([never.status, never.body.resultMessage]).toEqual([
      400,
      '条码 9999999999 不是本实验室发放的条码，请扫描已发放的预印条码或留空自动取号',
    ]);
    const rule = (
      await admin.get<Page<{ id: number; usage: string }>>('/api/resources/barcodeRule?size=50')
    ).body.resultObject.records.find((r) => r.usage === 'tube')!;
    const issued = await admin.post<{ barcodes: string[] }>(`/api/barcodes/rules/${rule.id}/issue`, { count: 1 });
    const [printed] = issued.body.resultObject.barcodes;
    const taken = await enter(editor, { barcode: printed });
    expect(taken.barcode).toBe(printed);
    const again = await editor.post('/api/resources/specimen', { ...values, barcode: printed });
    expect([again.status, again.body.resultMessage]).toEqual([400, `条码号“${printed}”已存在`]);
    // Once issued, the barcode stays what it is, whatever an edit sends.
    await editor.put(`/api/resources/specimen/${taken.id}`, { ...taken, barcode: printed + '1', remark: '改' });
    expect(await read(taken.id)).toMatchObject({ barcode: printed, remark: '改' });
  });

  it('refuses a status written by a create, an edit or an import, and changes nothing', async () => {
    const created = await editor.post('/api/resources/specimen', { ...values, status: 'received' });
    expect([created.status, created.body.resultMessage]).toEqual([400, '状态只能通过流转操作改变，不能直接修改']);
    const s = await enter();
    const edited = await editor.put(`/api/resources/specimen/${s.id}`, { ...s, status: 'reported' });
    expect(edited.status).toBe(400);
    expect(await read(s.id)).toMatchObject({ status: 'registered', version: s.version });
    const total = async () =>
      (await admin.get<Page<Specimen>>('/api/resources/specimen?size=1')).body.resultObject.total;
    const before = await total();
    const sheet = await fetch(`${server.url}/api/resources/specimen/export.xlsx?status=received`, {
      headers: { authorization: `Bearer ${adminToken}` },
    });
    const imported = await fetch(`${server.url}/api/resources/specimen/import`, {
      method: 'POST',
      headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/octet-stream' },
      body: new Uint8Array(await sheet.arrayBuffer()),
    });
    expect(imported.status).toBe(400);
    expect(((await imported.json()) as { resultMessage: string }).resultMessage).toContain('只能通过流转操作改变');
    expect(await total()).toBe(before);
  });
});

describe('transitions', () => {
  it('takes edits until the specimen is tested, through any of its screens, and refuses them after', async () => {
    const s = await enter();
    expect((await run(s.id, 'receive')).status).toBe(200);
    const received = await read(s.id);
    // Received, at check-accept, its data may still be put right.
    const fixed = await editor.put(`/api/resources/checkAccept/${s.id}`, { ...received, remark: '补录科室' });
    expect(fixed.status, JSON.stringify(fixed.body)).toBe(200);
    expect((await run(s.id, 'startTesting')).status).toBe(200);
    const testing = await read(s.id);
    for (const screen of ['specimen', 'inspectionCombinedQuery', 'specimenCombinedQuery']) {
      const res = await admin.put(`/api/resources/${screen}/${s.id}`, { ...testing, patientName: '篡改' });
      expect([screen, res.status, res.body.resultMessage]).toEqual([screen, 400, '当前状态为「检验中」，不能修改']);
    }
    expect(await read(s.id)).toMatchObject({ patientName: testing.patientName, version: testing.version });
  });

  it('refuses every transition that does not leave the specimen’s state, and changes nothing', async () => {
    const reason = await rejectReason();
    const registered = await enter();
    const received = await enter();
    expect((await run(received.id, 'receive')).status).toBe(200);
    const rejected = await enter();
    expect((await run(rejected.id, 'reject', { rejectReason: reason })).status).toBe(200);
    for (const specimen of [registered, received, rejected]) {
      const before = await read(specimen.id);
      for (const t of transitions.filter((x) => !x.from.includes(before.status))) {
        const res = await run(specimen.id, t.name, { rejectReason: reason, cancelReason: '测试' }, admin);
        expect(res.status, `${t.name} from ${before.status}`).toBe(400);
      }
      expect(await read(specimen.id)).toEqual(before);
    }
    const wrong = await run(received.id, 'collect');
    expect(wrong.body.resultMessage).toBe('当前状态为「已接收」，不能执行「采集」');
  });

  it('stamps who and when from the signed-in user, asks a rejection its reason, and keeps the history', async () => {
    const s = await enter();
    const collected = await run(s.id, 'collect');
    expect(collected.body.resultObject).toMatchObject({ status: 'collected', collector: '王检验' });
    expect(String(collected.body.resultObject.collectedAt)).not.toBe(values.collectedAt);
    const noReason = await run(s.id, 'reject');
    expect([noReason.status, noReason.body.resultMessage]).toEqual([400, '拒收原因不能为空']);
    expect((await read(s.id)).status).toBe('collected');
    const reason = await rejectReason();
    expect((await run(s.id, 'reject', { rejectReason: reason, receiver: '别人' })).body.resultObject).toMatchObject({
      status: 'rejected',
      receiver: '王检验',
      rejectReason: reason,
    });
    const transitions = (await historyOf(s.id)).filter((e) => e.kind === 'transition');
    expect(transitions.map((e) => [e.name, e.fromState, e.toState, e.actorName])).toEqual([
      ['create', null, 'registered', '王检验'],
      ['collect', 'registered', 'collected', '王检验'],
      ['reject', 'collected', 'rejected', '王检验'],
    ]);
    // What the step was given, as a user reads it: the reason chosen, by its name in the dictionary.
    const reasonName = (await admin.get<{ name: string }>(`/api/resources/abnormalSampleType/${reason}`)).body
      .resultObject.name;
    expect((transitions.at(-1) as ShownEvent).inputs).toEqual([{ label: '拒收原因', value: reasonName }]);
    expect((transitions[1] as ShownEvent).inputs).toBeUndefined();
    // The rejection is an unqualified specimen of its own page.
    const unqualified = (
      await admin.get<Page<{ barcode: string; handling: string; foundBy: string }>>(
        `/api/resources/unqualifiedSample?barcode=${s.barcode}`,
      )
    ).body.resultObject.records;
    expect(unqualified).toMatchObject([{ barcode: s.barcode, handling: 'reject', foundBy: '王检验' }]);
  });

  it('runs a system transition only for the step that owns it', async () => {
    const s = await enter();
    const res = await run(s.id, 'send', {}, admin);
    expect([res.status, res.body.resultMessage]).toEqual([400, '「交接送出」由系统在相应环节自动完成，不能手工执行']);
  });
});

describe('a batch of specimens', () => {
  const batch = (name: string, body: Record<string, unknown>, who = editor) =>
    who.post<Specimen[]>(`/api/resources/specimenAccept/transitions/${name}`, body);
  type LogEntry = { recordId: string; action: string; userAccount: string };
  const logOf = async (ids: number[]) =>
    (
      await admin.get<{ records: LogEntry[] }>('/api/log/getLogList?resource=specimen&size=200')
    ).body.resultObject.records
      .filter((e) => ids.map(String).includes(e.recordId) && e.action === 'transition:receive')
      .map((e) => [Number(e.recordId), e.userAccount]);

  it('receives the selected tubes in one step: each stamped, in its history and in the log, the chain whole', async () => {
    const tubes = [await enter(), await enter(), await enter()];
    await run(tubes[1]!.id, 'collect');
    const ids = tubes.map((t) => t.id);
    const res = await batch('receive', { ids });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.resultObject.map((r) => [r.id, r.status, r.receiver])).toEqual(
      ids.map((id) => [id, 'received', '王检验']),
    );
    for (const t of tubes) {
      const steps = (await historyOf(t.id))
        .filter((e) => e.kind === 'transition')
        .map((e) => [e.name, e.toState, e.actorName]);
      expect(steps.at(-1)).toEqual(['receive', 'received', '王检验']);
      expect(steps.filter(([name]) => name === 'receive')).toHaveLength(1);
    }
    expect((await logOf(ids)).sort()).toEqual(ids.map((id) => [id, 'editor']).sort());
    expect((await admin.get<{ broken?: unknown }>('/api/log/verifyChain')).body.resultObject.broken).toBeUndefined();
  });

  it('takes none when one cannot take the step, naming it; asks the step its fields once for all', async () => {
    const a = await enter();
    const b = await enter();
    await run(b.id, 'receive');
    const before = [await read(a.id), await read(b.id)];
    const events = (await historyOf(a.id)).length;
    const refused = await batch('receive', { ids: [a.id, b.id] });
    expect([refused.status, refused.body.resultMessage]).toEqual([
      400,
      `${b.barcode}：当前状态为「已接收」，不能执行「接收」`,
    ]);
    expect([await read(a.id), await read(b.id)]).toEqual(before);
    expect((await historyOf(a.id)).length).toBe(events);
    const c = await enter();
    const noReason = await batch('reject', { ids: [a.id, c.id] });
    expect([noReason.status, noReason.body.resultMessage]).toEqual([400, '拒收原因不能为空']);
    const reason = await rejectReason();
    const rejected = await batch('reject', { ids: [a.id, c.id], rejectReason: reason });
    expect(rejected.body.resultObject.map((r) => [r.status, r.rejectReason])).toEqual([
      ['rejected', reason],
      ['rejected', reason],
    ]);
  });

  it('asks for a selection, finds no record outside the view, and lets only those allowed take the step', async () => {
    const none = await batch('receive', { ids: [] });
    expect([none.status, none.body.resultMessage]).toEqual([400, '请先勾选数据进行操作']);
    const a = await enter();
    const missing = await batch('receive', { ids: [a.id, 999_999_999] });
    expect(missing.status).toBe(404);
    const cancelled = await enter();
    await run(cancelled.id, 'cancel', { cancelReason: '测试' }, admin);
    // Cancelled is not a state of the receiving desk's view: that specimen is not found there.
    const outside = await batch('receive', { ids: [a.id, cancelled.id] });
    expect(outside.status).toBe(404);
    expect((await read(a.id)).status).toBe('registered');
    const system = await batch('send', { ids: [a.id] }, admin);
    expect([system.status, system.body.resultMessage]).toEqual([
      400,
      '「交接送出」由系统在相应环节自动完成，不能手工执行',
    ]);
    const screen = (await editor.get<{ actions: { batch: Record<string, unknown>[] } }>('/api/ui/screens/check-accept'))
      .body.resultObject;
    expect(screen.actions.batch[0]).toMatchObject({
      kind: 'command',
      label: { 'zh-CN': '批量接收' },
      endpoint: '/api/resources/checkAccept/transitions/receive',
      method: 'POST',
    });
  });
});

describe('views of the one specimen', () => {
  it('lists, reads and writes through a view within its condition only, keeping the fields it does not show', async () => {
    const s = await enter(editor, { remark: '前台备注', urgent: true });
    expect((await editor.get(`/api/resources/checkAccept/${s.id}`)).status).toBe(404);
    await run(s.id, 'receive');
    const seen = (await editor.get<Specimen>(`/api/resources/checkAccept/${s.id}`)).body.resultObject;
    expect(seen).toMatchObject({ barcode: s.barcode, status: 'received' });
    const character = (await admin.get<Page<{ id: number }>>('/api/resources/specimenCharacter?size=1')).body
      .resultObject.records[0]!.id;
    const saved = await editor.put<Specimen>(`/api/resources/checkAccept/${s.id}`, { ...seen, character });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(await read(s.id)).toMatchObject({ character, urgent: true, remark: '前台备注', status: 'received' });
    const list = (await editor.get<Page<Specimen>>(`/api/resources/checkAccept?barcode=${s.barcode}`)).body
      .resultObject;
    expect(list.records.map((r) => r.id)).toEqual([s.id]);
    const registered = await enter();
    expect(
      (await editor.get<Page<Specimen>>(`/api/resources/checkAccept?barcode=${registered.barcode}`)).body.resultObject
        .total,
    ).toBe(0);
  });

  it('makes a specimen entered on a view meet its condition (special entry)', async () => {
    const res = await admin.post<Specimen>('/api/resources/specialEntry', { ...values, entryReason: 'emergency' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await read(res.body.resultObject.id)).toMatchObject({ entrySource: 'special', status: 'registered' });
  });

  it('enters a specimen phoned in to customer service as the one specimen, its barcode issued', async () => {
    const res = await editor.post<Specimen>('/api/resources/customerServiceEntry', { ...values, barcode: '' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const s = await read(res.body.resultObject.id);
    expect(s).toMatchObject({ entrySource: 'customerService', status: 'registered', enteredBy: '王检验' });
    expect(s.barcode).toMatch(/^\d{10}$/);
    const listed = async (resource: string) =>
      (await admin.get<Page<Specimen>>(`/api/resources/${resource}?barcode=${s.barcode}`)).body.resultObject.records;
    expect((await listed('specimen')).map((r) => r.id)).toEqual([s.id]);
    expect((await listed('customerServiceEntry')).map((r) => r.id)).toEqual([s.id]);
    expect(await listed('specialEntry')).toEqual([]);
  });

  it('serves transition buttons as commands shown in the states they leave, the state read-only', async () => {
    const screen = (
      await editor.get<{ fields: { key: string; readOnly?: boolean }[]; actions: { row: Record<string, unknown>[] } }>(
        '/api/ui/screens/check-accept',
      )
    ).body.resultObject;
    expect(screen.fields.find((f) => f.key === 'status')?.readOnly).toBe(true);
    const reject = screen.actions.row.find((a) => String(a.endpoint).endsWith('/transitions/reject'))!;
    expect(reject).toMatchObject({
      kind: 'command',
      endpoint: '/api/resources/checkAccept/{id}/transitions/reject',
      visibleWhen: { field: 'status', op: 'in', value: ['registered', 'collected', 'inTransit', 'received'] },
      fields: [{ key: 'rejectReason', required: true }],
    });
  });
});

describe('labels', () => {
  it('prints a 50 × 30 mm label whose Code 128 encodes the barcode, and logs the print', async () => {
    const s = await enter();
    const pdf = await fetch(`${server.url}/api/specimens/labels?ids=${s.id}`, {
      headers: { authorization: `Bearer ${adminToken}` },
    });
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    const bytes = Buffer.from(await pdf.arrayBuffer());
    const text = pdfText(bytes);
    expect(text).toContain(s.barcode);
    expect(text).toContain('流转测试');
    expect(bytes.toString('latin1')).toMatch(/MediaBox \[0 0 141\.7\d* 85\.03\d*\]/);
    const png = await fetch(`${server.url}/api/specimens/${s.id}/barcode.png`, {
      headers: { authorization: `Bearer ${adminToken}` },
    });
    useLocalReader();
    const [decoded] = await readBarcodes(new Uint8Array(await png.arrayBuffer()), { formats: ['Code128'] });
    expect(decoded?.text).toBe(s.barcode);
    expect((await historyOf(s.id)).map((e) => e.kind)).toContain('print');
  });
});
