import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, DEMO_PASSWORD, type TestServer } from '../support/server';
import { api, tokenFor } from '../support/client';

/** 病理标本核查: who checked a specimen and when it was received are the sign-in and the server's clock, never typed. */
let server: TestServer;
let editor: ReturnType<typeof api>;

beforeAll(async () => {
  server = await startServer();
  editor = api(server.url, await tokenFor(server.url, 'editor', DEMO_PASSWORD));
});
afterAll(() => server?.dispose());

describe('a pathology specimen checked on receipt', () => {
  it('is stamped with the checker and the receipt time, whatever was typed for them', async () => {
    const res = await editor.post<{ id: number }>('/api/resources/pathologyInspection', {
      barcode: 'P2611290001',
      patientName: '病理病人',
      site: '左乳腺肿物',
      containerCount: 1,
      fixative: 'nbf',
      qualified: 'qualified',
      inspector: '冒名',
      receivedAt: '2020-01-01 00:00:00',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const checked = (
      await editor.get<Record<string, unknown>>(`/api/resources/pathologyInspection/${res.body.resultObject.id}`)
    ).body.resultObject;
    expect(checked.inspector).toBe('王检验');
    expect(Date.now() - new Date(String(checked.receivedAt).replace(' ', 'T')).getTime()).toBeLessThan(10 * 60_000);
  });
});
