// @vitest-environment node
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/server/kernel/db/database';
import { migrations } from '../../src/server/kernel/db/migrations';
import { openPglite } from '../../src/server/kernel/db/pglite';

/**
 * A lab upgrading from finance's own hospital list (agentHospital) to the one hospital record: its
 * finance hospitals land on the referral hospitals, merged with the same hospital where there is one,
 * and the call records that named them still name the same hospital.
 */
let db: Database;
let dataDir: string;
const ORG = 1;

async function record(resource: string, data: Record<string, unknown>, id?: number): Promise<number> {
  const [row] = await db.query<{ id: number }>(
    `insert into resource_record (${id ? 'id, ' : ''}resource, org_id, data)
     values (${id ? `${id}, ` : ''}$1, $2, $3) returning id`,
    [resource, ORG, JSON.stringify(data)],
  );
  return row!.id;
}
const dataOf = async (id: number) =>
  (
    await db.query<{ resource: string; data: Record<string, unknown> }>(
      'select resource, data from resource_record where id = $1',
      [id],
    )
  )[0];

let ids: Record<string, number>;
beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'lims-hospitals-'));
  db = await openPglite(dataDir);
  for (const m of migrations.filter((m) => m.version < 17)) await db.exec(m.sql);
  const wang = await record('salesman', { code: 'YW001', name: '王建国', phone: '13857112345' });
  const agent = await record('agentCustomer', { name: '杭州康源医疗器械有限公司' });
  ids = {
    wang,
    agent,
    first: await record('referralHospital', { code: 'H001', name: '杭州市第一人民医院', salesman: '王建国' }),
    clinic: await record('referralHospital', { code: 'H002', name: '滨江区社区卫生服务中心', salesman: '张伟' }),
    financeFirst: await record('agentHospital', {
      code: 'YY0001',
      name: '杭州市第一人民医院',
      agent,
      salesman: wang,
      contactPerson: '徐芳',
      cooperationStart: '2019-06-01',
      settlementCycle: 'quarterly',
    }),
    financeOnly: await record('agentHospital', {
      code: 'YY0005',
      name: '杭州美年大健康体检中心',
      level: 'checkup',
      salesman: wang,
      contactPhone: '0571-88231234',
      settlementCycle: 'monthly',
      enabled: true,
    }),
  };
  ids.callFirst = await record('callRecord', { callNo: 'C1', hospital: ids.financeFirst });
  ids.callOnly = await record('callRecord', { callNo: 'C2', hospital: ids.financeOnly });
  await db.exec(migrations.find((m) => m.version === 17)!.sql);
}, 120_000);
afterAll(async () => {
  await db?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('one hospital record (migration 17)', () => {
  it('merges a finance hospital into the referral hospital of the same name, keeping what the lab typed there', async () => {
    const merged = await dataOf(ids.first!);
    expect(merged?.data).toMatchObject({
      code: 'H001',
      name: '杭州市第一人民医院',
      salesman: ids.wang,
      agent: ids.agent,
      contact: '徐芳',
      cooperationStart: '2019-06-01',
      settlementCycle: 'quarterly',
    });
    expect(await dataOf(ids.financeFirst!)).toBeUndefined();
    expect((await dataOf(ids.callFirst!))?.data.hospital).toBe(ids.first);
  });

  it('turns a hospital only finance knew into a referral hospital under the same id', async () => {
    const moved = await dataOf(ids.financeOnly!);
    expect(moved?.resource).toBe('referralHospital');
    expect(moved?.data).toMatchObject({
      code: 'YY0005',
      level: 'exam',
      phone: '0571-88231234',
      settlement: 'monthly',
      salesman: ids.wang,
    });
    expect((await dataOf(ids.callOnly!))?.data.hospital).toBe(ids.financeOnly);
  });

  it('points a typed salesman name at the salesman record, and keeps a name no record has in the remark', async () => {
    expect((await dataOf(ids.first!))?.data.salesman).toBe(ids.wang);
    const clinic = await dataOf(ids.clinic!);
    expect(clinic?.data.salesman).toBeUndefined();
    expect(clinic?.data.remark).toBe('原业务员：张伟');
    const left = await db.query(`select id from resource_record where resource = 'agentHospital'`);
    expect(left).toEqual([]);
  });
});
