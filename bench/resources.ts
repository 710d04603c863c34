import { mkdtempSync, rmSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { buildApp } from '../src/server/app';
import { readConfig } from '../src/server/kernel/config';
import { PushHub } from '../src/server/kernel/push/hub';
import { prepare } from '../src/server/startup';
import { DEMO_PASSWORD } from '../tests/support/server';
import { tokenFor } from '../tests/support/client';
import { latency, ms, msSpread, ratio, type Bench, type Spread } from './measure';

const PGLITE_RECORDS = Number(process.env.BENCH_RECORDS) || 100_000;
const POSTGRES_RECORDS = Number(process.env.BENCH_PG_RECORDS) || 1_000_000;
/** The PostgreSQL server whose scratch database the bench uses, when it answers. */
export const POSTGRES_ADMIN_URL =
  process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';

export function answers(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = createConnection({ host: hostname, port: Number(port || 5432), timeout: 1000 });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
}

/** A scratch database on the server, dropped after the bench. */
export async function scratchDatabase(adminUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `lims_bench_${process.pid}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`drop database if exists ${name}`);
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const again = new pg.Client({ connectionString: adminUrl });
      await again.connect();
      await again.query(`drop database if exists ${name} with (force)`);
      await again.end();
    },
  };
}

/**
 * The generic list API over many specimen types: 50 rows with a filter and a sort, p50 / p95, each as
 * a ratio to a bare endpoint (/healthz) of the same server in the same run. The server runs in this
 * process; its indexes are the ones the screen schema asks for (resources/repository.ts ensureIndexes).
 */
/** The server in this process on its own data (PGlite) or a scratch PostgreSQL database, seeded with the demo. */
export async function openBenchServer(databaseUrl: string | undefined) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'lims-bench-'));
  const config = {
    ...readConfig({ LIMS_DATA_DIR: dataDir, LIMS_DEMO_PASSWORD: DEMO_PASSWORD, DATABASE_URL: databaseUrl, PORT: '0' }),
    logLevel: 'error',
  };
  const { db, screens } = await prepare(config);
  const push = await PushHub.open(db, { databaseUrl: config.databaseUrl });
  const app = await buildApp({ db, config, now: () => new Date(), screens, push });
  return {
    db,
    app,
    async close() {
      await app.close();
      await push.close();
      await db.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** /healthz of the same server in the same run, and a call's figures as a ratio to it. */
export async function againstBare(url: string) {
  const bare = await latency(`${url}/healthz`, {}, 300);
  const figures = (l: Spread) => `${msSpread(l)}  (${ratio(l.p50, bare.p50)} / ${ratio(l.p95, bare.p95)} of bare)`;
  return { row: ['GET /healthz (bare) p50 / p95', msSpread(bare)] as [string, string], figures };
}

async function listBench(records: number, databaseUrl: string | undefined): Promise<[string, string][]> {
  const { db, app, close } = await openBenchServer(databaseUrl);
  try {
    await db.query('delete from resource_record where resource = $1', ['specimenType']);
    const started = performance.now();
    // In slices of 100,000 rows: one statement of a million JSONB documents is heavy on a small machine.
    for (let from = 1; from <= records; from += 100_000) {
      await db.query(
        `insert into resource_record (resource, org_id, data)
         select 'specimenType', 1, jsonb_build_object(
           'code', 'C' || lpad(i::text, 7, '0'), 'name', (array['全血','血清','血浆','尿液','组织'])[1 + i % 5] || i,
           'category', (array['blood','urine','fluid','tissue','other'])[1 + i % 5], 'volumeMl', (i % 100) / 10.0,
           'stableHours', i % 72, 'enabled', i % 7 <> 0)
         from generate_series($1::int, $2::int) i`,
        [from, Math.min(records, from + 99_999)],
      );
    }
    await db.query('analyze resource_record');
    const seeded = performance.now() - started;
    const url = await app.listen({ port: 0, host: '127.0.0.1' });
    const auth = { authorization: `Bearer ${await tokenFor(url, 'admin', DEMO_PASSWORD)}` };
    const { row: bareRow, figures } = await againstBare(url);
    const equals = await latency(
      `${url}/api/resources/specimenType?category=blood&sort=code,desc&page=3&size=50`,
      auth,
      100,
    );
    const contains = await latency(
      `${url}/api/resources/specimenType?name=${encodeURIComponent('血清1')}&sort=code,asc&size=50`,
      auth,
      50,
    );
    const plain = await latency(`${url}/api/resources/specimenType?page=2&size=50`, auth, 100);
    return [
      [`seeding ${records.toLocaleString()} (${db.kind})`, ms(seeded)],
      bareRow,
      ['list: equals filter + sort desc, page 3', figures(equals)],
      ['list: contains filter + sort', figures(contains)],
      ['list: default sort, page 2', figures(plain)],
    ];
  } finally {
    await close();
  }
}

export const resourceBench: Bench = {
  title: `Generic resource list, 50 rows (PGlite ${PGLITE_RECORDS.toLocaleString()}; PostgreSQL ${POSTGRES_RECORDS.toLocaleString()} when it answers)`,
  async run() {
    const rows = await listBench(PGLITE_RECORDS, undefined);
    if (!(await answers(POSTGRES_ADMIN_URL)))
      return [...rows, ['PostgreSQL', `not answering at ${new URL(POSTGRES_ADMIN_URL).host}: skipped`]];
    const scratch = await scratchDatabase(POSTGRES_ADMIN_URL);
    try {
      return [...rows, ...(await listBench(POSTGRES_RECORDS, scratch.url))];
    } finally {
      await scratch.drop();
    }
  },
};
