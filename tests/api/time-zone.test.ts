import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, DEMO_PASSWORD, type TestServer } from '../support/server';
import { api, tokenFor } from '../support/client';
import { databaseUrlOf } from '../support/server';
import { enterSpecimens } from '../support/specimens';
import { clinicalAuditor, idByName } from '../support/results';
import { STAFF_PASSWORD } from '../support/workflow';
import { localDateTime } from '../../src/shared/time';
import { startInProcess } from '../support/in-process';

/**
 * Issue 20, time: instants are stored with their zone; each lab has a time zone (customConfig
 * timeZone, default LIMS_TIME_ZONE, else the server's) in which its stamps and its log are shown; a
 * datetime sent with an offset is taken as that instant, in the lab's local time.
 */
/** The server process's own zone, twelve hours behind UTC. */
const SERVER_ZONE = 'Etc/GMT+12';
let server: TestServer;
let admin: ReturnType<typeof api>;
let other: ReturnType<typeof api>;
beforeAll(async () => {
  // The server process runs twelve hours behind UTC, the labs' default is UTC, and the lab below sets
  // Kiritimati (fourteen hours ahead): a time written in the wrong zone is a day or more off.
  server = await startServer({ LIMS_TIME_ZONE: 'UTC', TZ: SERVER_ZONE });
  admin = api(server.url, await tokenFor(server.url, 'admin', DEMO_PASSWORD));
  other = api(server.url, await tokenFor(server.url, 'lab2admin', DEMO_PASSWORD));
});
afterAll(() => server?.dispose());

const setZone = (client: ReturnType<typeof api>, zone: unknown) =>
  client.post('/api/customConfig/updateCustomConfig', { configKey: 'timeZone', configValue: { zone } });

describe("a lab's time zone", () => {
  it('defaults to LIMS_TIME_ZONE, is set per lab, and refuses a zone that does not exist', async () => {
    const read = await admin.get<{ configValue: { zone: string } }>(
      '/api/customConfig/getCustomConfig?configKey=timeZone',
    );
    expect(read.body.resultObject.configValue).toEqual({ zone: 'UTC' });
    const bad = await setZone(admin, 'Mars/Olympus');
    expect(bad.status).toBe(400);
    expect(bad.body.resultMessage).toContain('IANA');
    expect((await setZone(admin, 12)).status).toBe(400);
    expect((await setZone(admin, 'Asia/Shanghai')).status).toBe(200);
  });

  it("shows the operation log in each lab's own zone", async () => {
    // Sign-ins after the change: the session reads the zone of the user's lab.
    admin = api(server.url, await tokenFor(server.url, 'admin', DEMO_PASSWORD));
    const before = new Date();
    const created = await admin.post<{ id: number }>('/api/resources/specimenType', {
      code: 'TZ1',
      name: '时区',
      category: 'blood',
    });
    expect(created.body.resultCode, created.body.resultMessage).toBe(200);
    const after = new Date();
    const log = await admin.get<{ records: { at: string; recordId: string }[] }>(
      '/api/resources/operationLog?resource=specimenType&size=5',
    );
    const at = log.body.resultObject.records.find(
      (r) => String(r.recordId) === String(created.body.resultObject.id),
    )!.at;
    // Shanghai is UTC+8 the year round: the entry's time lies between the two instants read there.
    const shanghai = (d: Date) => localDateTime(d, 'Asia/Shanghai');
    expect(at >= shanghai(new Date(before.getTime() - 1000)) && at <= shanghai(new Date(after.getTime() + 1000))).toBe(
      true,
    );
    // Lab 2 has no zone of its own: its log reads in UTC, eight hours behind.
    const otherLog = await other.get<{ records: { at: string }[] }>('/api/resources/operationLog?size=1');
    const latest = otherLog.body.resultObject.records[0]!.at;
    expect(latest <= localDateTime(new Date(after.getTime() + 1000), 'UTC')).toBe(true);
  });

  it("stamps a step with the lab's local time", async () => {
    const list = await admin.get<{ records: { id: number; version: number }[] }>(
      '/api/resources/specimen?status=registered&size=1',
    );
    const specimen = list.body.resultObject.records[0]!;
    const before = new Date();
    const received = await admin.post<{ receivedAt: string }>(
      `/api/resources/specimen/${specimen.id}/transitions/receive`,
      { version: specimen.version },
    );
    expect(received.body.resultCode, received.body.resultMessage).toBe(200);
    const after = new Date();
    const at = received.body.resultObject.receivedAt;
    const shanghai = (d: Date) => localDateTime(d, 'Asia/Shanghai');
    expect(at >= shanghai(new Date(before.getTime() - 1000)) && at <= shanghai(new Date(after.getTime() + 1000))).toBe(
      true,
    );
  });

  it("takes a datetime with an offset as that instant in the lab's zone, and refuses a malformed one", async () => {
    const list = await admin.get<{ records: (Record<string, unknown> & { id: number; version: number })[] }>(
      '/api/resources/samplingInfo?size=1',
    );
    const row = list.body.resultObject.records[0]!;
    const put = (pickedAt: string, version: number) =>
      admin.put<{ pickedAt: string; version: number }>(`/api/resources/samplingInfo/${row.id}`, {
        ...row,
        pickedAt,
        version,
      });
    const utc = await put('2026-03-01T12:00:00Z', row.version);
    expect(utc.body.resultCode, utc.body.resultMessage).toBe(200);
    expect(utc.body.resultObject.pickedAt).toBe('2026-03-01 20:00:00');
    const offset = await put('2026-03-01T12:00:00-05:00', utc.body.resultObject.version);
    expect(offset.body.resultObject.pickedAt).toBe('2026-03-02 01:00:00');
    // Without an offset, the text is the lab's local time already.
    const local = await put('2026-03-01 09:30:00', offset.body.resultObject.version);
    expect(local.body.resultObject.pickedAt).toBe('2026-03-01 09:30:00');
    for (const bad of ['2026-03-01T12:00:00+25:00', '2026-13-01T12:00:00Z', 'yesterday']) {
      const res = await put(bad, local.body.resultObject.version);
      expect(res.status, bad).toBe(400);
    }
  });
});

/** A zone fourteen hours ahead of UTC, 26 hours ahead of the server process's own. */
const LAB_ZONE = 'Pacific/Kiritimati';
type Rec = Record<string, unknown> & { id: number; version: number };
type Page = { records: Rec[]; total: number };
/** Whether a local time lies in the lab's zone between two instants read around the call (a second's slack). */
const within = (at: unknown, before: Date, after: Date) =>
  typeof at === 'string' &&
  at >= localDateTime(new Date(before.getTime() - 1000), LAB_ZONE) &&
  at <= localDateTime(new Date(after.getTime() + 1000), LAB_ZONE);

describe("the lab's time zone on its 组织架构 screen", () => {
  const org = async () => (await admin.get<Rec>('/api/resources/organization/1')).body.resultObject;

  it('shows the zone, refuses one that does not exist in both languages and writes nothing', async () => {
    const current = await org();
    expect(current.timeZone).toBe('Asia/Shanghai');
    const bad = await admin.put(`/api/resources/organization/1`, { ...current, timeZone: 'Mars/Olympus' });
    expect(bad.status).toBe(400);
    expect(bad.body.resultMessage).toBe('时区须为有效的IANA时区名称，如 Asia/Shanghai');
    const english = api(server.url, await tokenFor(server.url, 'admin', DEMO_PASSWORD), 'en-US');
    const badEn = await english.put(`/api/resources/organization/1`, { ...current, timeZone: 'Europe/Atlantis' });
    expect(badEn.body.resultMessage).toBe('The time zone must be a valid IANA name, such as Asia/Shanghai');
    // Nothing written: neither the zone nor the organisation's other fields sent with it.
    const again = await admin.put(`/api/resources/organization/1`, {
      ...current,
      address: '改了',
      timeZone: 'Nowhere',
    });
    expect(again.status).toBe(400);
    expect(await org()).toEqual(current);
    const config = await admin.get<{ configValue: unknown }>('/api/customConfig/getCustomConfig?configKey=timeZone');
    expect(config.body.resultObject.configValue).toEqual({ zone: 'Asia/Shanghai' });
  });

  it("sets the zone: the next time stamped, with the same sign-in, is the new zone's", async () => {
    const saved = await admin.put<Rec>(`/api/resources/organization/1`, { ...(await org()), timeZone: LAB_ZONE });
    expect(saved.body.resultCode, saved.body.resultMessage).toBe(200);
    expect(saved.body.resultObject.timeZone).toBe(LAB_ZONE);
    const list = await admin.get<Page>('/api/resources/specimen?status=registered&size=1');
    const specimen = list.body.resultObject.records[0]!;
    const before = new Date();
    const received = await admin.post<Rec>(`/api/resources/specimen/${specimen.id}/transitions/receive`, {
      version: specimen.version,
    });
    expect(received.body.resultCode, received.body.resultMessage).toBe(200);
    expect(within(received.body.resultObject.receivedAt, before, new Date())).toBe(true);
  });
});

describe("what the lab's capabilities write, in the lab's zone", () => {
  let editor: ReturnType<typeof api>;
  beforeAll(async () => {
    editor = api(server.url, await tokenFor(server.url, 'editor', DEMO_PASSWORD));
  });

  it("stamps a result's test time and a report's number and issue time in the lab's zone", async () => {
    const { auditor } = await clinicalAuditor(server.url, admin);
    const purpose = await idByName(admin, 'inspectionPurpose', '血常规');
    const [barcode] = await enterSpecimens(editor, 1, { purposes: [purpose], sex: 'male', age: 50 });
    const specimen = (await admin.get<Page>(`/api/resources/specimen?barcode=${barcode}`)).body.resultObject
      .records[0]!;
    await editor.post(`/api/resources/specimen/${specimen.id}/transitions/receive`, {});
    const results = (await admin.get<Page>(`/api/resources/inspectionResult?barcode=${barcode}`)).body.resultObject
      .records;
    const ids = results.map((r) => r.id);
    // WBC high but not critical: no automatic release, no critical value to acknowledge first.
    const value = (r: Rec) => ((r.labels as { item: string }).item === '白细胞计数' ? '12.3' : '140');
    const before = new Date();
    const saved = await editor.post('/api/results/worksheet', {
      rows: results.map((r) => ({ id: r.id, result: value(r) })),
    });
    expect(saved.body.resultCode, saved.body.resultMessage).toBe(200);
    const reviewed = await admin.post('/api/results/approve/firstReview', { ids, password: DEMO_PASSWORD });
    expect(reviewed.body.resultCode, reviewed.body.resultMessage).toBe(200);
    const audited = await auditor.post('/api/results/approve/audit', { ids, password: STAFF_PASSWORD });
    expect(audited.body.resultCode, audited.body.resultMessage).toBe(200);
    const after = new Date();
    const result = (await admin.get<Rec>(`/api/resources/inspectionResult/${ids[0]}`)).body.resultObject;
    expect(within(result.testedAt, before, after), String(result.testedAt)).toBe(true);
    expect(within(result.reviewedAt, before, after), String(result.reviewedAt)).toBe(true);
    const [report] = (await admin.get<Page>(`/api/resources/reportRecord?barcode=${barcode}`)).body.resultObject
      .records;
    expect(within(report!.reportedAt, before, after), String(report!.reportedAt)).toBe(true);
    expect(String(report!.reportNo).slice(2, 10)).toBe(String(report!.reportedAt).slice(0, 10).replaceAll('-', ''));
    // The specimen's charges are dated the lab's day: what its statement covers.
    const lines = await admin.get<{ records: { serviceDate: string }[] }>(
      `/api/finance/chargeLines?barcode=${barcode}`,
    );
    const days = new Set(lines.body.resultObject.records.map((l) => String(l.serviceDate).slice(0, 10)));
    expect([...days]).toEqual([localDateTime(before, LAB_ZONE).slice(0, 10)]);
  });

  it("keeps a QC run measured now on the lab's day, whatever instant the analyser sends", async () => {
    const plan = (await admin.get<Page>('/api/resources/qcPlan?size=1')).body.resultObject.records[0]!;
    const now = new Date();
    const run = await editor.post<Rec>('/api/resources/qcResult', {
      plan: plan.id,
      runAt: now.toISOString(),
      runNo: 'TZ-1',
      value: 5,
      operator: '王检验',
    });
    expect(run.body.resultCode, run.body.resultMessage).toBe(200);
    expect(run.body.resultObject.runAt).toBe(
      localDateTime(new Date(Math.floor(now.getTime() / 1000) * 1000), LAB_ZONE),
    );
    // Its day is the lab's, a day or more from the server process's own.
    expect(String(run.body.resultObject.runAt).slice(0, 10)).not.toBe(localDateTime(now, SERVER_ZONE).slice(0, 10));
  });

  it("numbers a serial print by the lab's day", async () => {
    const [barcode] = await enterSpecimens(admin, 1);
    const group = await idByName(admin, 'professionalGroup', '生化组');
    const before = new Date();
    const printed = await admin.post<Rec>('/api/resources/serialPrint', {
      barcode,
      professionalGroup: group,
      copies: 1,
    });
    expect(printed.body.resultCode, printed.body.resultMessage).toBe(200);
    const day = localDateTime(before, LAB_ZONE).slice(0, 10).replaceAll('-', '');
    expect(String(printed.body.resultObject.serialNo)).toMatch(new RegExp(`^SH-${day}-\\d{3}$`));
  });
});

describe('storage', () => {
  it('keeps every timestamp column of every table with its zone', async () => {
    // Records' datetime fields are the lab's wall-clock text (views over them read it as such); the
    // columns that keep instants (created, updated, logged, signed in…) carry their zone.
    const query = `select c.table_name || '.' || c.column_name as name from information_schema.columns c
        join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
       where c.table_schema = 'public' and t.table_type = 'BASE TABLE'
         and c.data_type like 'timestamp%'`;
    const zoned = `${query} and c.data_type = 'timestamp with time zone'`;
    const url = databaseUrlOf(server);
    let all: string[];
    let withZone: string[];
    if (url) {
      const pg = (await import('pg')).default;
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      all = (await client.query<{ name: string }>(query)).rows.map((r) => r.name);
      withZone = (await client.query<{ name: string }>(zoned)).rows.map((r) => r.name);
      await client.end();
    } else {
      const lims = await startInProcess();
      try {
        all = (await lims.db.query<{ name: string }>(query)).map((r) => r.name);
        withZone = (await lims.db.query<{ name: string }>(zoned)).map((r) => r.name);
      } finally {
        await lims.close();
      }
    }
    expect(all.length).toBeGreaterThan(20);
    expect(all.filter((c) => !withZone.includes(c))).toEqual([]);
  }, 120_000);
});
