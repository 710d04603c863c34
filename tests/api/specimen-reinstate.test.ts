import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, DEMO_PASSWORD, type TestServer } from '../support/server';
import { api, tokenFor } from '../support/client';
import { enterSpecimens } from '../support/specimens';
import type { RecordEvent } from '../../src/shared/lifecycle/events';

/**
 * A request cancelled by mistake is reinstated (恢复, domain: "cancel, reinstate"): with a reason, back
 * to the state it was cancelled from, stamped with who and when; charged again, and counted again in
 * the statistics.
 */
type Specimen = Record<string, unknown> & { id: number; barcode: string; status: string; hospital: number };
type Page<T> = { records: T[]; total: number };
type Line = { reason: string; payable: number };

let server: TestServer;
let admin: ReturnType<typeof api>;
let editor: ReturnType<typeof api>;

beforeAll(async () => {
  server = await startServer();
  admin = api(server.url, await tokenFor(server.url, 'admin', DEMO_PASSWORD));
  editor = api(server.url, await tokenFor(server.url, 'editor', DEMO_PASSWORD));
});
afterAll(() => server?.dispose());

const specimen = async (barcode: string) =>
  (await admin.get<Page<Specimen>>(`/api/resources/specimen?barcode=${barcode}`)).body.resultObject.records[0]!;
const run = (s: Specimen, name: string, body: Record<string, unknown> = {}) =>
  editor.post<Specimen>(`/api/resources/specimen/${s.id}/transitions/${name}`, body);
const lines = async (barcode: string) =>
  (await admin.get<Page<Line>>(`/api/finance/chargeLines?barcode=${barcode}&size=100`)).body.resultObject.records;
const owed = (all: Line[]) => Math.round(all.reduce((sum, l) => sum + Number(l.payable), 0) * 100) / 100;

describe('a cancelled request reinstated', () => {
  it('returns to the state it was cancelled from, with its reason, who and when; refused without a reason or when not cancelled', async () => {
    const [barcode] = await enterSpecimens(editor, 1, { patientName: '误取消' });
    const entered = await specimen(barcode!);
    expect((await run(entered, 'collect')).status).toBe(200);
    const collected = await specimen(barcode!);
    // Not cancelled: nothing to reinstate.
    const early = await run(collected, 'reinstate', { reinstateReason: '误操作' });
    expect([early.status, early.body.resultMessage]).toEqual([400, '当前状态为「已采集」，不能执行「恢复」']);
    expect((await run(collected, 'cancel', { cancelReason: '医生撤销医嘱' })).status).toBe(200);

    const bare = await run(collected, 'reinstate', {});
    expect(bare.status).toBe(400);
    expect((await specimen(barcode!)).status).toBe('cancelled');

    const res = await run(collected, 'reinstate', { reinstateReason: '误取消，医生确认继续检验' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const back = await specimen(barcode!);
    expect(back).toMatchObject({
      status: 'collected',
      reinstateReason: '误取消，医生确认继续检验',
      reinstatedBy: '王检验',
      // The collection stands as it was: who collected it and when.
      collector: collected.collector,
      collectedAt: collected.collectedAt,
    });
    expect(String(back.reinstatedAt)).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    const history = (await admin.get<RecordEvent[]>(`/api/resources/specimen/${back.id}/events`)).body.resultObject;
    expect(history.filter((e) => e.kind === 'transition').map((e) => [e.name, e.fromState, e.toState])).toEqual([
      ['create', null, 'registered'],
      ['collect', 'registered', 'collected'],
      ['cancel', 'collected', 'cancelled'],
      ['reinstate', 'cancelled', 'collected'],
    ]);
  });

  it('is charged again for what it orders, and counted again in the specimen volume', async () => {
    const [barcode] = await enterSpecimens(editor, 1, { patientName: '恢复计费' });
    const entered = await specimen(barcode!);
    const day = String(entered.enteredAt).slice(0, 10);
    const volume = async () => {
      const rows = (
        await admin.get<Page<{ key: number; count: number }>>(
          `/api/statistics/hospitalSubmissionVolume?registeredAtFrom=${day}&registeredAtTo=${day}`,
        )
      ).body.resultObject.records;
      return rows.find((r) => r.key === entered.hospital)?.count ?? 0;
    };
    const charged = owed(await lines(barcode!));
    expect(charged).toBeGreaterThan(0);
    const counted = await volume();

    expect((await run(entered, 'cancel', { cancelReason: '重复登记' })).status).toBe(200);
    expect(owed(await lines(barcode!))).toBe(0);
    expect(await volume()).toBe(counted - 1);

    expect((await run(entered, 'reinstate', { reinstateReason: '并非重复' })).status).toBe(200);
    expect((await specimen(barcode!)).status).toBe('registered');
    expect(owed(await lines(barcode!))).toBe(charged);
    expect((await lines(barcode!)).map((l) => l.reason)).toEqual(expect.arrayContaining(['ordered', 'cancelled']));
    expect(await volume()).toBe(counted);
  });
});
