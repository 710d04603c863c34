// @vitest-environment node
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/server/kernel/db/database';
import { migrations } from '../../src/server/kernel/db/migrations';
import { openPglite } from '../../src/server/kernel/db/pglite';
import { ensurePartitions } from '../../src/server/kernel/resources/repository';

/**
 * A lab upgrading to resource records partitioned by resource (migration 23): every record keeps its
 * id and data, each resource's rows sit in its own partition, the statistics triggers and views work
 * on the new table, and a query of one resource is planned on its partition alone.
 */
let db: Database;
let dataDir: string;

async function record(resource: string, data: Record<string, unknown>): Promise<number> {
  const [row] = await db.query<{ id: number }>(
    'insert into resource_record (resource, org_id, data) values ($1, 1, $2) returning id',
    [resource, JSON.stringify(data)],
  );
  return row!.id;
}
const partitionOfRow = async (resource: string, id: number) =>
  (
    await db.query<{ part: string }>(
      'select tableoid::regclass::text as part from resource_record where resource = $1 and id = $2',
      [resource, id],
    )
  )[0]?.part;
const specimenFacts = async () => (await db.query<{ n: number }>('select count(*)::int as n from stat_specimen'))[0]!.n;

let before: { id: number; resource: string; data: unknown }[];
beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'lims-partitions-'));
  db = await openPglite(dataDir);
  for (const m of migrations.filter((m) => m.version < 23)) await db.exec(m.sql);
  await record('specimen', { barcode: 'S0001', state: 'registered' });
  await record('inspectionItem', { code: 'WBC', name: '白细胞计数' });
  await record('handoverRecord', { handoverNo: 'H1' });
  await record('specimen', { barcode: 'S0002', state: 'registered' });
  before = await db.query('select id, resource, data from resource_record order by id');
  for (const m of migrations.filter((m) => m.version === 23)) await db.exec(m.sql);
}, 60_000);

afterAll(async () => {
  await db?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('resource records partitioned by resource (migration 23)', () => {
  it('keeps every record with its id and data, each in its resource’s partition', async () => {
    expect(await db.query('select id, resource, data from resource_record order by id')).toEqual(before);
    expect(await partitionOfRow('specimen', before[0]!.id)).toBe('"rr$specimen"');
    expect(await partitionOfRow('inspectionItem', before[1]!.id)).toBe('"rr$inspectionItem"');
  });

  it('numbers new records after the old ones and still counts a new specimen in the statistics', async () => {
    const facts = await specimenFacts();
    const id = await record('specimen', { barcode: 'S0003', state: 'registered' });
    expect(id).toBeGreaterThan(Math.max(...before.map((r) => r.id)));
    expect(await specimenFacts()).toBe(facts + 1);
    // The statistics views read the new table.
    await expect(db.query('select count(*) from stat_report')).resolves.toBeDefined();
  });

  it('gives a resource its own partition later, moving the rows it had among the others', async () => {
    const kept = await record('qcLot', { lotNo: 'L-2026-01' });
    expect(await partitionOfRow('qcLot', kept)).toBe('resource_record_other');
    await ensurePartitions(db, ['qcLot', 'qcLot', 'specimen']);
    expect(await partitionOfRow('qcLot', kept)).toBe('"rr$qcLot"');
    expect(await db.query('select data from resource_record where resource = $1', ['qcLot'])).toEqual([
      { data: { lotNo: 'L-2026-01' } },
    ]);
  });

  it('plans a query of one resource on that resource’s partition alone', async () => {
    const plan = await db.query<{ 'QUERY PLAN': string }>(
      'explain select data from resource_record where resource = $1 and org_id = $2 order by id desc limit 50',
      ['specimen', 1],
    );
    const text = plan.map((r) => r['QUERY PLAN']).join('\n');
    expect(text).toContain('"rr$specimen"');
    expect(text).not.toMatch(/rr\$inspectionItem|resource_record_other/);
  });
});
