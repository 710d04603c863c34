import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, DEMO_PASSWORD, type TestServer } from '../support/server';
import { api, tokenFor } from '../support/client';

interface Issued {
  barcodes: string[];
  first: string;
  last: string;
  rule: { lastSequence: number; currentPeriod: string; lastBarcode: string };
}
type Rule = { id: number; version: number };

let server: TestServer;
let admin: ReturnType<typeof api>;
let adminEn: ReturnType<typeof api>;
let editor: ReturnType<typeof api>;

beforeAll(async () => {
  server = await startServer();
  const token = await tokenFor(server.url, 'admin', DEMO_PASSWORD);
  admin = api(server.url, token);
  adminEn = api(server.url, token, 'en-US');
  editor = api(server.url, await tokenFor(server.url, 'editor', DEMO_PASSWORD));
});
afterAll(() => server?.dispose());

async function rule(body: Record<string, unknown>): Promise<Rule> {
  const res = await admin.post<Rule>('/api/resources/barcodeRule', { usage: 'tube', symbology: 'code128', ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.resultObject;
}
const issue = (who: ReturnType<typeof api>, id: number, count?: number) =>
  who.post<Issued>(`/api/barcodes/rules/${id}/issue`, count === undefined ? {} : { count });

/** Today's date part as the server writes it (same machine, same clock). */
function yyMMdd(d = new Date()) {
  return `${String(d.getFullYear()).slice(2)}${String(d.getMonth() + 1).padStart(2, '0')}${String(d.getDate()).padStart(2, '0')}`;
}

describe('custom barcode rules (spec 2.2 barcode management)', () => {
  it('issues numbers of prefix + date + fixed-width sequence, continuing where the last call stopped', async () => {
    const { id } = await rule({
      code: 'T-A',
      name: 'T 试管',
      prefix: 'T',
      datePart: 'yyMMdd',
      sequenceWidth: 4,
      resetPeriod: 'daily',
    });
    const first = await issue(admin, id, 3);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const day = yyMMdd();
    expect(first.body.resultObject.barcodes).toEqual([`T${day}0001`, `T${day}0002`, `T${day}0003`]);
    // An editor prints labels too; the next number follows without a gap.
    const next = await issue(editor, id);
    expect(next.body.resultObject.barcodes).toEqual([`T${day}0004`]);
    const stored = await admin.get<{ lastSequence: number; lastBarcode: string }>(`/api/resources/barcodeRule/${id}`);
    expect(stored.body.resultObject).toMatchObject({ lastSequence: 4, lastBarcode: `T${day}0004` });
  });

  it('gives parallel callers distinct numbers with no gaps', async () => {
    const { id } = await rule({
      code: 'T-B',
      name: 'T 并发',
      prefix: 'P',
      datePart: 'none',
      sequenceWidth: 5,
      resetPeriod: 'never',
    });
    const results = await Promise.all(Array.from({ length: 8 }, () => issue(admin, id, 2)));
    const numbers = results.flatMap((r) => r.body.resultObject.barcodes).sort();
    expect(numbers).toEqual(Array.from({ length: 16 }, (_, i) => `P${String(i + 1).padStart(5, '0')}`));
  });

  it('refuses a rule whose numbers would repeat, a used-up sequence and a bad count, changing nothing', async () => {
    const repeating = await rule({
      code: 'T-C',
      name: 'T 重复',
      datePart: 'yyMM',
      sequenceWidth: 4,
      resetPeriod: 'daily',
    });
    const refused = await issue(admin, repeating.id);
    expect(refused.status).toBe(400);
    expect(refused.body.resultMessage).toBe('日期部分不包含重置周期，重置后条码会重复，请修改规则');

    const small = await rule({
      code: 'T-D',
      name: 'T 三位',
      datePart: 'yyyyMMdd',
      sequenceWidth: 3,
      resetPeriod: 'daily',
    });
    expect((await issue(admin, small.id, 999)).status).toBe(200);
    const full = await issueEn(small.id);
    expect(full.status).toBe(400);
    expect(full.body.resultMessage).toBe('The sequence of this period is used up; widen the sequence');
    expect((await issue(admin, small.id, 0)).body.resultMessage).toBe('取号数量须为1到1000之间的整数');
    const stored = await admin.get<{ lastSequence: number }>(`/api/resources/barcodeRule/${small.id}`);
    expect(stored.body.resultObject.lastSequence).toBe(999);
  });

  it('keeps every issued range in the operation log, and needs a signed-in user', async () => {
    const log = await admin.get<{ records: { action: string; userAccount: string }[] }>(
      '/api/log/getLogList?resource=barcodeRule',
    );
    expect(
      log.body.resultObject.records.filter((r) => r.action === 'barcodeIssue').map((r) => r.userAccount),
    ).toContain('editor');
    expect((await api(server.url).post('/api/barcodes/rules/1/issue', {})).status).toBe(401);
  });
});

const issueEn = (id: number) => adminEn.post<Issued>(`/api/barcodes/rules/${id}/issue`, {});
