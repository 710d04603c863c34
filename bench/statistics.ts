import pg from 'pg';
import { DEMO_PASSWORD } from '../tests/support/server';
import { tokenFor } from '../tests/support/client';
import { msSpread, spread, type Bench } from './measure';
import { openBenchServer } from './resources';

/**
 * Statistics on PostgreSQL with a million specimens: each statistics call's p50 / p95 over a month and
 * over the whole year. `BENCH_STAT_DATABASE_URL` (default: a database lims_stats_bench of the local
 * server, created if missing) is filled once and kept: a later run reuses it, and a run stopped
 * half-way goes on from the first slice it had not loaded. `BENCH_STAT_SPECIMENS` changes the size.
 *
 * The data is bulk-inserted with SQL, not run through the API (a million specimens through the HTTP
 * lifecycle would take hours): specimen and result documents and the lifecycle's events shaped as the
 * lifecycle writes them (create, collect, receive, report of the specimen; record, firstReview, audit of
 * each result; the report's create), written with the triggers off, then the facts made by
 * stat_rebuild(), the same SQL that fills them for records older than migration 15.
 */
const DATABASE_URL = process.env.BENCH_STAT_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/lims_stats_bench';
const SPECIMENS = Number(process.env.BENCH_STAT_SPECIMENS) || 1_000_000;
const SLICE = 50_000;
const SAMPLES = 20;
const YEAR = 2025;

type Db = Awaited<ReturnType<typeof openBenchServer>>['db'];

/** The bench's database on its server, created when it is not there yet (a fresh machine). */
async function ensureDatabase(url: string) {
  const name = new URL(url).pathname.slice(1);
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`bench database name ${name}: letters, digits and _ only`);
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    const found = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (found.rowCount === 0) await client.query(`create database ${name}`);
  } finally {
    await client.end();
  }
}

async function fill(db: Db): Promise<string> {
  const [org] = await db.query<{ orgId: number }>(
    `select org_id as "orgId" from app_user where user_account = 'admin'`,
  );
  const orgId = org!.orgId;
  const count = async (sql: string) => (await db.query<{ n: number }>(sql, [orgId]))[0]?.n ?? 0;
  const facts = await count(
    `select count(*)::int as n from stat_specimen where org_id = $1 and specimen_id >= 100000000`,
  );
  if (facts >= SPECIMENS) {
    await settle(db);
    return `reused (${facts.toLocaleString()} bulk specimens already there)`;
  }
  const loadedBefore = await count(
    `select count(*)::int as n from resource_record where resource = 'specimen' and org_id = $1 and id >= 100000000`,
  );
  if (loadedBefore >= SPECIMENS)
    return rebuild(db, `bulk SQL: ${loadedBefore.toLocaleString()} specimens loaded before`);
  const ids = async (resource: string) =>
    (
      await db.query<{ id: number }>(`select id from resource_record where resource = $1 and org_id = $2 order by id`, [
        resource,
        orgId,
      ])
    ).map((r) => r.id);
  const hospitals = await ids('referralHospital');
  const types = await ids('specimenType');
  const purposes = await ids('inspectionPurpose');
  const items = await db.query<{ id: number; group: number | null }>(
    `select id, stat_int(data->'professionalGroup') as group from resource_record
      where resource = 'inspectionItem' and org_id = $1 order by id`,
    [orgId],
  );
  const started = performance.now();
  let skipped = 0;
  // Specimen i: registered evenly over the year; collected 5-64 min later, received 10-249 min after
  // that, reported 30-2909 min after receipt; two tests of the lab's items; 30 staff members.
  for (let from = 1; from <= SPECIMENS; from += SLICE) {
    const to = Math.min(SPECIMENS, from + SLICE - 1);
    // A slice is one transaction: its last specimen there, all of it is (a run stopped half-way).
    const [done] = await db.query<{ n: number }>(
      `select count(*)::int as n from resource_record where id = $1 and resource = 'specimen'`,
      [100000000 + to],
    );
    if (done?.n) {
      skipped += to - from + 1;
      continue;
    }
    await db.transaction(async (tx) => {
      await tx.query('set local session_replication_role = replica');
      const p = [
        orgId,
        from,
        to,
        SPECIMENS,
        hospitals,
        types,
        purposes,
        items.map((i) => i.id),
        items.map((i) => i.group),
      ];
      const times = `
        with s as (
          select i, 100000000 + i as id, 'B' || lpad(i::text, 9, '0') as barcode,
                 make_timestamptz(${YEAR}, 1, 1, 0, 0, 0, 'Asia/Shanghai') + (i::float8 / $4 * 365 * 86400) * interval '1 second' as registered,
                 (5 + i::bigint * 7919 % 60) as c, (10 + i::bigint * 104729 % 240) as r, (30 + i::bigint * 15485863 % 2880) as t
            from generate_series($2::int, $3::int) i)
        select *, registered + c * interval '1 minute' as collected,
               registered + (c + r) * interval '1 minute' as received,
               registered + (c + r + t) * interval '1 minute' as reported,
               1000 + i % 30 as staff,
               -- every statement names all parameters (their types), whichever it reads
               cardinality($5::int[]) + cardinality($6::int[]) + cardinality($7::int[]) + cardinality($8::int[])
                 + cardinality($9::int[]) as arity
          from s`;
      await tx.query(
        `insert into resource_record (id, resource, org_id, data)
         select id, 'specimen', $1, jsonb_build_object('barcode', barcode, 'patientName', '基准患者', 'sex', 'female', 'age', 40,
                'hospital', ($5::int[])[1 + i % cardinality($5::int[])], 'specimenType', ($6::int[])[1 + i % cardinality($6::int[])],
                'purposes', jsonb_build_array(($7::int[])[1 + i % cardinality($7::int[])]), 'status', 'reported',
                'collector', '员工' || staff, 'receiver', '员工' || staff, 'enteredBy', '员工' || staff)
           from (${times}) x`,
        p,
      );
      await tx.query(
        `insert into resource_record (id, resource, org_id, data)
         select 300000000 + i * 2 + k, 'inspectionResult', $1, jsonb_build_object('barcode', barcode,
                'item', ($8::int[])[1 + (i + k) % cardinality($8::int[])],
                'professionalGroup', ($9::int[])[1 + (i + k) % cardinality($9::int[])], 'result', '1.0', 'status', 'published',
                'tester', '员工' || staff)
           from (${times}) x cross join generate_series(0, 1) k`,
        p,
      );
      const event = (resource: string, id: string, name: string, from: string, to: string, at: string) =>
        `select '${resource}', $1::int, ${id}, 'transition', '${name}', ${from}, ${to}, staff, '员工' || staff, ${at} from (${times}) x`;
      await tx.query(
        `insert into record_event (resource, org_id, record_id, kind, name, from_state, to_state, actor_id, actor_name, at)
         ${event('specimen', 'id', 'create', 'null', `'registered'`, 'registered')}
         union all ${event('specimen', 'id', 'collect', `'registered'`, `'collected'`, 'collected')}
         union all ${event('specimen', 'id', 'receive', `'collected'`, `'received'`, 'received')}
         union all ${event('specimen', 'id', 'report', `'reviewed'`, `'reported'`, 'reported')}
         union all ${event('reportRecord', '400000000 + i', 'create', 'null', `'published'`, 'reported')}
         union all select 'inspectionResult', $1::int, 300000000 + i * 2 + k, 'transition', step, null, null,
                          staff + o, '员工' || (staff + o), received + o * interval '10 minutes'
                     from (${times}) x cross join generate_series(0, 1) k
                     cross join (values ('record', 1), ('firstReview', 2), ('audit', 3)) v(step, o)`,
        p,
      );
    });
  }
  return rebuild(
    db,
    `bulk SQL: ${(SPECIMENS - skipped).toLocaleString()} specimens in ${((performance.now() - started) / 1000).toFixed(0)} s` +
      (skipped > 0 ? ` (${skipped.toLocaleString()} loaded by an earlier run)` : ''),
  );
}

/** The facts made from the bulk-loaded records and events, as for records older than migration 15. */
async function rebuild(db: Db, loaded: string): Promise<string> {
  const started = performance.now();
  await db.query('select stat_rebuild()');
  await settle(db);
  return `${loaded}; facts rebuilt by stat_rebuild() in ${((performance.now() - started) / 1000).toFixed(0)} s`;
}

/**
 * The fact tables vacuumed and analysed, as autovacuum soon does on a lab's server (where it is on): a
 * bulk load's pages are not yet all-visible, so index-only scans would visit the table for every row,
 * and a table never analysed (the month counts) is planned as if empty, sorted on disk. Cheap when
 * already done.
 */
async function settle(db: Db) {
  const facts = [
    'stat_specimen',
    'stat_specimen_item',
    'stat_work_hour',
    'stat_turnaround_month',
    'stat_turnaround_span',
  ];
  for (const table of [...facts, 'record_event']) await db.query(`vacuum (analyze) ${table}`);
}

/** p50 / p95 of one call, asked SAMPLES times after two warm-ups. */
async function timed(url: string, token: string): Promise<string> {
  const samples: number[] = [];
  for (let i = 0; i < SAMPLES + 2; i++) {
    const start = performance.now();
    const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
    const body = (await res.json()) as { resultCode: number; resultObject?: { total: number } };
    if (body.resultCode !== 200) throw new Error(`${url}: ${JSON.stringify(body).slice(0, 300)}`);
    if (i >= 2) samples.push(performance.now() - start);
  }
  return msSpread(spread(samples));
}

export const statisticsBench: Bench = {
  title: `Statistics on PostgreSQL, ${SPECIMENS.toLocaleString()} specimens over ${YEAR} (bulk-inserted with SQL, shaped as the lifecycle writes it)`,
  async run() {
    await ensureDatabase(DATABASE_URL);
    const { db, app, close } = await openBenchServer(DATABASE_URL);
    try {
      const rows: [string, string][] = [['data', await fill(db)]];
      const url = await app.listen({ port: 0, host: '127.0.0.1' });
      const token = await tokenFor(url, 'admin', DEMO_PASSWORD);
      const month = (key: string) => `${key}From=${YEAR}-06-01&${key}To=${YEAR}-06-30`;
      const year = (key: string) => `${key}From=${YEAR}-01-01&${key}To=${YEAR}-12-31`;
      const calls: [string, string][] = [
        ['professionalGroupVolume', 'registeredAt'],
        ['inspectionPurposeVolume', 'registeredAt'],
        ['specimenTypeVolume', 'registeredAt'],
        ['hospitalSubmissionVolume', 'registeredAt'],
        ['hospitalSubmissionVolume?by=test', 'registeredAt'],
        ['hospitalSubmissionVolume?by=day', 'registeredAt'],
        ['preInspectionTat', 'receivedAt'],
        ['preInspectionTat?by=hospital', 'receivedAt'],
        ['inLabTat', 'reportedAt'],
        ['inLabTat?by=group', 'reportedAt'],
        ['inLabTat?by=month', 'reportedAt'],
        ['inLabTat?by=test', 'reportedAt'],
        ['inLabTat?by=day', 'reportedAt'],
        ['inLabTat?by=week', 'reportedAt'],
        ['workload', 'at'],
        ['groupAnalysis', 'at'],
      ];
      for (const [call, key] of calls)
        for (const [span, range] of [
          ['month', month(key)],
          ['year', year(key)],
        ] as const) {
          const path = `/api/statistics/${call}${call.includes('?') ? '&' : '?'}${range}`;
          rows.push([`GET ${call} (${span}) p50 / p95`, await timed(url + path, token)]);
          // Each figure as it is measured (the table comes at the end): a long run shows how far it got.
          console.error(rows.at(-1)!.join('  '));
        }
      return rows;
    } finally {
      await close();
    }
  },
};
