import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copySchemas, startServer, DEMO_PASSWORD, type TestServer } from '../support/server';
import { api, tokenFor } from '../support/client';
import { DEMO_USERS } from '../../src/server/users/demo';
import type { ScreenSchema } from '../../src/shared/screens/fields';

type Row = Record<string, unknown> & { id: number; version: number };
interface DemoFile {
  resource: string;
  orgIds?: number[];
  records: Record<string, unknown>[];
}

const schemaDir = path.resolve(import.meta.dirname, '../../schemas');
const LAB_ORGS = [1, 2, 3, 4];
const screenOf = (id: string) =>
  JSON.parse(readFileSync(path.join(schemaDir, 'screens', `${id}.json`), 'utf8')) as ScreenSchema;
const demos = readdirSync(path.join(schemaDir, 'demo'))
  .filter((f) => f.endsWith('.json'))
  .map((f) => ({
    id: f.replace(/\.json$/, ''),
    demo: JSON.parse(readFileSync(path.join(schemaDir, 'demo', f), 'utf8')) as DemoFile,
  }));
/** The administrator who signs in for each organisation. */
const adminOf = (orgId: number) => DEMO_USERS.find((u) => u.orgId === orgId && u.role === 'admin')!.account;

let server: TestServer;
const clients = new Map<number, ReturnType<typeof api>>();
async function as(orgId: number) {
  if (!clients.has(orgId))
    clients.set(orgId, api(server.url, await tokenFor(server.url, adminOf(orgId), DEMO_PASSWORD)));
  return clients.get(orgId)!;
}
async function list(orgId: number, resource: string) {
  const res = await (await as(orgId)).get<{ records: Row[]; total: number }>(`/api/resources/${resource}?size=1000`);
  expect(res.status, `${resource} for org ${orgId}: ${JSON.stringify(res.body)}`).toBe(200);
  return res.body.resultObject;
}

beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server?.dispose());

describe('demo rows of the screens (schemas/demo)', () => {
  it('every demo file seeds, and each screen lists its rows for the organisations named', async () => {
    expect(demos.length).toBeGreaterThan(0);
    const missing: string[] = [];
    for (const { id, demo } of demos) {
      const screen = screenOf(id);
      const key = screen.resource.titleField ?? screen.fields.find((f) => f.unique)?.key;
      const orgs = screen.resource.scope === 'global' ? [1] : (demo.orgIds ?? LAB_ORGS);
      for (const orgId of orgs) {
        const { records } = await list(orgId, demo.resource);
        if (!key) {
          if (records.length < demo.records.length)
            missing.push(`${id} org ${orgId}: ${records.length} of ${demo.records.length} rows`);
          continue;
        }
        const shown = new Set(records.map((r) => String(r[key])));
        for (const r of demo.records)
          if (!shown.has(String(r[key]))) missing.push(`${id} org ${orgId}: ${String(r[key])}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('resolves a reference written as a title to the record of the same organisation', async () => {
    const file = demos.find(({ id }) =>
      screenOf(id).fields.some((f) => f.type === 'reference' && !f.reference?.multiple),
    );
    expect(file, 'a demo file with a reference field').toBeDefined();
    const screen = screenOf(file!.id);
    const field = screen.fields.find((f) => f.type === 'reference' && !f.reference?.multiple)!;
    const orgId = (file!.demo.orgIds ?? LAB_ORGS)[0]!;
    const target = (await list(orgId, field.reference!.resource)).records;
    const rows = (await list(orgId, file!.demo.resource)).records.filter((r) => typeof r[field.key] === 'number');
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(target.map((t) => t.id)).toContain(row[field.key]);
  });

  it('a restart adds nothing, and a demo row a user deleted stays deleted', async () => {
    const { id, demo } = demos.find(({ demo }) => !demo.orgIds || demo.orgIds.includes(1))!;
    const before = await list(1, demo.resource);
    const admin = await as(1);
    expect((await admin.delete(`/api/resources/${demo.resource}/${before.records[0]!.id}`)).status, id).toBe(200);
    server = await server.restart();
    clients.clear();
    const after = await list(1, demo.resource);
    expect(after.total).toBe(before.total - 1);
    expect(after.records.map((r) => r.id)).not.toContain(before.records[0]!.id);
  });
});

describe('listing demo rows', () => {
  it('sorts by a field keyed "sort" without taking the sort parameter for a filter', async () => {
    const withSort = demos.find(
      ({ id, demo }) => screenOf(id).fields.some((f) => f.key === 'sort') && (!demo.orgIds || demo.orgIds.includes(1)),
    );
    expect(withSort, 'a demo screen with a field keyed sort').toBeDefined();
    const res = await (
      await as(1)
    ).get<{ total: number }>(`/api/resources/${withSort!.demo.resource}?sort=sort,asc&page=1&size=10`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.resultObject.total).toBeGreaterThan(0);
  });
});

describe('a broken demo file', () => {
  it('stops the start with the file, the row and the problem', async () => {
    const dir = copySchemas();
    try {
      const { id, demo } = demos.find(({ id }) => screenOf(id).fields.some((f) => f.required && f.type === 'text'))!;
      const required = screenOf(id).fields.find((f) => f.required && f.type === 'text')!;
      const records = [demo.records[0], { ...demo.records[1], [required.key]: '' }];
      writeFileSync(path.join(dir, 'demo', `${id}.json`), JSON.stringify({ ...demo, records }));
      const started = startServer({ LIMS_SCHEMA_DIR: dir });
      await expect(started).rejects.toThrow(new RegExp(`demo/${id}\\.json row 2 \\(org \\d\\): ${required.key}: `));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 90_000); // A whole server start inside the test: the time a start is given in a hook.
});
