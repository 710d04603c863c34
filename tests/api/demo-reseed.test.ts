import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database, Queryable } from '../../src/server/kernel/db/database';
import { seedDemoRecords } from '../../src/server/kernel/resources/demoRecords';
import { prepareData, type PreparedData } from '../support/in-process';

/**
 * A start after the demo files changed (an upgrade) seeds what is new and skips what was seeded before.
 * In a working lab the specimens and the operation log are millions of rows: finding what was seeded
 * must look up the demo's own rows, not read the lab's. Checked by what the seeding reads, and by the
 * plans of its operation-log statements, before and after the lab has piled up thousands of records.
 */
let prepared: PreparedData;
let db: Database;
let reseed: (q: Queryable) => Promise<number>;

beforeAll(async () => {
  prepared = await prepareData('lims-reseed-');
  db = prepared.db;
  const labs = await db.query<{ id: number }>("select id from organization where lab_type <> 'base' order by id");
  reseed = (q) =>
    seedDemoRecords(
      q,
      prepared.schemaDir,
      prepared.screens.list(),
      labs.map((l) => l.id),
    );
});
afterAll(() => prepared?.close());

/** The seeding run again, counting the rows its statements read, and keeping those on the operation log. */
async function watchedReseed() {
  const seen = { rows: 0, onLog: [] as { sql: string; params?: unknown[] }[] };
  const watched: Queryable = {
    async query<Row>(sql: string, params?: unknown[]) {
      const rows = await db.query<Row>(sql, params);
      seen.rows += rows.length;
      if (/from operation_log/.test(sql)) seen.onLog.push({ sql, params });
      return rows;
    },
    exec: (sql) => db.exec(sql),
  };
  const inserted = await reseed(watched);
  return { inserted, ...seen };
}

describe('the demo seeded again after an upgrade', () => {
  it('inserts nothing seeded before, and reads no more for a lab that holds thousands more records', async () => {
    const before = await watchedReseed();
    expect(before.inserted).toBe(0);
    // A working lab: thousands of specimens, results and log lines since the demo was seeded.
    await db.query(
      `insert into resource_record (resource, org_id, data)
       select r, 1, jsonb_build_object('barcode', 'LAB' || i, 'patientName', '患者' || i, 'name', 'N' || i, 'code', 'C' || i)
         from generate_series(1, 3000) i cross join unnest(array['specimen', 'inspectionResult']) r`,
    );
    await db.query(
      `insert into operation_log (user_id, user_account, org_id, resource, record_id, action, after)
       select 1, 'admin', 1, r, i, 'create', jsonb_build_object('barcode', 'LAB' || i)
         from generate_series(1, 20000) i cross join unnest(array['specimen', 'inspectionResult']) r`,
    );
    await db.query('analyze');
    const after = await watchedReseed();
    expect(after.inserted).toBe(0);
    expect(after.rows).toBe(before.rows);
    // Its look-ups in the operation log are answered off an index, not by reading the log.
    expect(after.onLog.length).toBeGreaterThan(0);
    for (const { sql, params } of after.onLog) {
      const plan = (await db.query<{ 'QUERY PLAN': string }>(`explain ${sql}`, params)).map((r) => r['QUERY PLAN']);
      expect(plan.join('\n')).not.toMatch(/Seq Scan on operation_log/);
    }
  });
});
