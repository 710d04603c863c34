import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, startSecondProcess, DEMO_PASSWORD, type TestServer } from '../support/server';
import { api, tokenFor } from '../support/client';

const TOTAL = 1000;
const CLIENTS_PER_PROCESS = 8;

// Skipped on PGlite (plain `npm test`): two server processes need a database both can reach, and PGlite
// serves one process. Runs where TEST_DATABASE_URL names a PostgreSQL server (.ci/run's second pass).
describe.runIf(process.env.TEST_DATABASE_URL)('barcodes issued by two server processes (PostgreSQL)', () => {
  let first: TestServer;
  let second: TestServer;
  beforeAll(async () => {
    first = await startServer();
    second = await startSecondProcess(first);
  }, 240_000);
  afterAll(async () => {
    await second?.dispose();
    await first?.dispose();
  });

  it(`enters ${TOTAL} specimens at once through both and issues ${TOTAL} distinct barcodes with no gap`, async () => {
    const clients = await Promise.all(
      [first, second].map(async (s) => api(s.url, await tokenFor(s.url, 'editor', DEMO_PASSWORD))),
    );
    const one = async (resource: string) =>
      (await clients[0]!.get<{ records: { id: number }[] }>(`/api/resources/${resource}?size=1`)).body.resultObject
        .records[0]!.id;
    const values = {
      patientName: '并发测试',
      sex: 'male',
      hospital: await one('referralHospital'),
      purposes: [await one('inspectionPurpose')],
      specimenType: await one('specimenType'),
      collectedAt: '2026-11-24 08:00:00',
    };
    const barcodes: string[] = [];
    let next = 0;
    // Every client enters specimens one after another until the total is reached, all of them at once.
    const worker = async (client: (typeof clients)[number]) => {
      while (next < TOTAL) {
        next++;
        const res = await client.post<{ barcode: string }>('/api/resources/specimen', values);
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        barcodes.push(res.body.resultObject.barcode);
      }
    };
    await Promise.all(clients.flatMap((c) => Array.from({ length: CLIENTS_PER_PROCESS }, () => worker(c))));
    expect(new Set(barcodes).size).toBe(TOTAL);
    const sequences = barcodes.map((b) => Number(b.slice(-4))).sort((a, b) => a - b);
    expect(sequences.at(-1)! - sequences[0]!).toBe(TOTAL - 1);
  }, 300_000);
});
