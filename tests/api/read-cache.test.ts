import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInProcess, type InProcessApp } from '../support/in-process';
import { startSecondProcess, startServer, DEMO_PASSWORD, type TestServer } from '../support/server';
import { api, tokenFor } from '../support/client';
import { leafPaths } from '../../src/shared/menu/filter';
import type { MenuNode } from '../../src/shared/menu/types';

/**
 * The signed-in user and list pages are kept in memory between writes (kernel/db/readCache.ts). Here
 * they are kept for ten minutes, so that only a write can explain a fresh answer: the page must show
 * every write at once, whether this server's own, another process's, or one made in the database
 * behind the server's back.
 */
const KEPT_LONG = { LIMS_READ_CACHE_MS: String(10 * 60_000) };

const LIST = '/api/resources/specimenType?name=缓存&sort=code,asc&page=1&size=50';
interface Page {
  records: { id: number; code: string; name: string }[];
  total: number;
}

describe('answers kept between writes (one server)', () => {
  let lims: InProcessApp;
  let token: string;
  let adminId: number;
  beforeAll(async () => {
    lims = await startInProcess(KEPT_LONG);
    ({ token, id: adminId } = await lims.signIn('admin'));
  }, 120_000);
  afterAll(() => lims?.close());

  const get = async <T>(url: string) => {
    const res = await lims.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
    expect(res.statusCode).toBe(200);
    return (res.json() as { resultObject: T }).resultObject;
  };
  const post = (url: string, payload: object) =>
    lims.app.inject({ method: 'POST', url, payload, headers: { authorization: `Bearer ${token}` } });

  it('lists every table of lab data among those whose writes are told to every process', async () => {
    const unheard = await lims.db.query<{ name: string }>(
      `select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = current_schema() and c.relkind in ('r', 'p') and not c.relispartition
          and c.relname <> 'session_token'
          and not exists (select 1 from pg_trigger t where t.tgrelid = c.oid and t.tgname = 'write_notice')
        order by 1`,
    );
    // A table made by a later migration calls notice_writes() on itself (migration 25).
    expect(unheard.map((t) => t.name)).toEqual([]);
  });

  it("shows this server's own write on the next page asked", async () => {
    expect((await get<Page>(LIST)).total).toBe(0);
    const created = await post('/api/resources/specimenType', {
      code: 'RC001',
      name: '缓存一',
      category: 'blood',
      stableHours: 4,
      enabled: true,
    });
    expect(created.statusCode).toBe(200);
    expect((await get<Page>(LIST)).records.map((r) => r.code)).toEqual(['RC001']);
  });

  it('shows a write made in the database behind the server (another tool, another process)', async () => {
    const before = await get<Page>(LIST);
    expect(before.records[0]?.name).toBe('缓存一');
    await lims.db.query(
      `update resource_record set data = jsonb_set(data, '{name}', '"缓存改"') where resource = 'specimenType' and id = $1`,
      [before.records[0]!.id],
    );
    await expect.poll(async () => (await get<Page>(LIST)).records[0]?.name, { timeout: 5_000 }).toBe('缓存改');
  });

  it("shows the signed-in user's changed account, and nothing of a rolled-back one", async () => {
    const me = async () => (await get<{ phone: string | null }>('/api/user/me')).phone;
    const first = await me();
    await lims.db.query(`update app_user set phone = '13900000001' where id = $1`, [adminId]);
    await expect.poll(me, { timeout: 5_000 }).toBe('13900000001');
    await lims.db
      .transaction(async (tx) => {
        await tx.query(`update app_user set phone = '13900000002' where id = $1`, [adminId]);
        throw new Error('rolled back');
      })
      .catch(() => undefined);
    expect(await me()).toBe('13900000001');
    expect(first).not.toBe('13900000001');
  });
});

// Skipped on PGlite (plain `npm test`): a second server process needs a database both can reach, and
// PGlite serves one process. Runs where TEST_DATABASE_URL names a PostgreSQL server (.ci/run's second pass).
describe.runIf(process.env.TEST_DATABASE_URL)('answers kept between writes (two server processes)', () => {
  let first: TestServer;
  let second: TestServer;
  beforeAll(async () => {
    first = await startServer(KEPT_LONG);
    second = await startSecondProcess(first);
  }, 120_000);
  afterAll(async () => {
    await second?.dispose();
    await first?.dispose();
  });

  it("shows on one process a record written through the other, and the user's new name", async () => {
    const token = await tokenFor(first.url, 'admin', DEMO_PASSWORD);
    const there = api(second.url, token);
    const page = async () => (await there.get<Page>(LIST)).body.resultObject;
    const me = async () => (await there.get<{ userName: string }>('/api/user/me')).body.resultObject;
    expect((await page()).total).toBe(0);
    const oldName = (await me()).userName;

    const here = api(first.url, token);
    const created = await here.post('/api/resources/specimenType', {
      code: 'RC101',
      name: '缓存跨进程',
      category: 'urine',
      stableHours: 2,
      enabled: true,
    });
    expect(created.status).toBe(200);
    await expect.poll(async () => (await page()).records.map((r) => r.code), { timeout: 5_000 }).toEqual(['RC101']);

    const admin = (await here.get<Record<string, unknown>>('/api/user/me')).body.resultObject;
    const renamed = await here.put('/api/user', { ...pick(admin), userName: `${oldName}（改）` });
    expect(renamed.status).toBe(200);
    await expect.poll(async () => (await me()).userName, { timeout: 5_000 }).toBe(`${oldName}（改）`);
  });

  it("shows a change of the role's menus made on the other process at once, and is the same after a sign-in", async () => {
    const admin = api(first.url, await tokenFor(first.url, 'admin', DEMO_PASSWORD));
    const role = (await admin.post<{ id: number }>('/api/resources/role', { name: '缓存菜单', code: 'editor' })).body
      .resultObject;
    const created = await admin.post('/api/resources/user', {
      userAccount: 'huancun01',
      userName: '缓存',
      password: 'Cache@2026x',
      roleIds: [role.id],
    });
    expect(created.body).toMatchObject({ resultCode: 200 });
    const menuThere = async () =>
      leafPaths(
        (
          await api(second.url, await tokenFor(second.url, 'huancun01', 'Cache@2026x')).get<{ routes: MenuNode[] }>(
            '/api/ui/menu',
          )
        ).body.resultObject.routes,
      );
    // Each read signs in afresh on the second process: the sign-in's writes leave the menu as it was.
    expect(await menuThere()).toEqual(['/dashboard']);
    expect(await menuThere()).toEqual(['/dashboard']);
    await admin.put(`/api/resources/roleMenu/${role.id}`, { menuIds: [20901], version: 0 });
    // 20901 is the form list (表单列表).
    await expect
      .poll(async () => (await menuThere()).filter((p) => p.endsWith('/formList')).length, { timeout: 5_000 })
      .toBe(1);
  });
});

/** The fields of a user the update call takes back. */
function pick(user: Record<string, unknown>) {
  const { id, userAccount, userName, phone, email, orgId, roleIds, version } = user;
  return { id, userAccount, userName, phone, email, orgId, roleIds, version };
}
