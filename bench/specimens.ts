import { DEMO_PASSWORD } from '../tests/support/server';
import { api, tokenFor } from '../tests/support/client';
import { enterSpecimens } from '../tests/support/specimens';
import { latency, ms, type Bench } from './measure';
import { againstBare, answers, openBenchServer, POSTGRES_ADMIN_URL, scratchDatabase } from './resources';

const ENTERED = Number(process.env.BENCH_ENTERED) || 200;
const PG_SPECIMENS = Number(process.env.BENCH_PG_SPECIMENS) || 1_000_000;
/** A lab's specimens by state, per hundred: most are long reported, a few are on their way or at a bench. */
const STATES = [
  ...Array<string>(2).fill('registered'),
  'collected',
  'inTransit',
  ...Array<string>(3).fill('received'),
  ...Array<string>(2).fill('inTesting'),
  'reviewed',
  ...Array<string>(90).fill('reported'),
];
const GROUPS = ['bio', 'clin', 'imm', 'micro', 'histo', 'cyto', 'mol'];

/**
 * The specimen: entries per second through the whole write path (issued barcode, lifecycle, history,
 * process start), and the inspection work list (the view of received specimens: 50 rows, status and
 * group filter, newest received first) over many specimens, as a ratio to /healthz in the same run.
 */
async function specimenBench(specimens: number, databaseUrl: string | undefined): Promise<[string, string][]> {
  const { db, app, close } = await openBenchServer(databaseUrl);
  try {
    const url = await app.listen({ port: 0, host: '127.0.0.1' });
    const token = await tokenFor(url, 'admin', DEMO_PASSWORD);
    const auth = { authorization: `Bearer ${token}` };
    const started = performance.now();
    await enterSpecimens(api(url, token), ENTERED);
    const perSecond = ENTERED / ((performance.now() - started) / 1000);
    const rows: [string, string][] = [
      [`specimens entered, one after another (${db.kind})`, `${perSecond.toFixed(1)} /s`],
    ];
    if (specimens === 0) return rows;
    const seedStart = performance.now();
    for (let from = 1; from <= specimens; from += 100_000) {
      await db.query(
        `insert into resource_record (resource, org_id, data)
         select 'specimen', 1, jsonb_build_object('barcode', 'B' || lpad(i::text, 9, '0'), 'patientName', '患者' || i,
           'sex', 'female', 'status', ($3::text[])[1 + i % 100], 'receivedGroup', ($4::text[])[1 + (i / 100) % 7],
           'receivedAt', to_char(timestamp '2026-01-01' + (i || ' minutes')::interval, 'YYYY-MM-DD HH24:MI:SS'),
           'collectedAt', '2026-01-01 08:00:00')
         from generate_series($1::int, $2::int) i`,
        [from, Math.min(specimens, from + 99_999), STATES, GROUPS],
      );
    }
    await db.query('analyze resource_record');
    const seeded = performance.now() - seedStart;
    const { row: bareRow, figures } = await againstBare(url);
    const workList = await latency(
      `${url}/api/resources/inspectionCombinedQuery?status=received&receivedGroup=bio&sort=receivedAt,desc&size=50`,
      auth,
      200,
    );
    return [
      ...rows,
      [`seeding ${specimens.toLocaleString()} specimens (${db.kind})`, ms(seeded)],
      bareRow,
      ['inspection work list: status + group, newest received', figures(workList)],
    ];
  } finally {
    await close();
  }
}

export const specimensBench: Bench = {
  title: `Specimens: entry rate (PGlite, PostgreSQL) and the inspection work list over ${PG_SPECIMENS.toLocaleString()} specimens (PostgreSQL)`,
  async run() {
    const rows = await specimenBench(0, undefined);
    if (!(await answers(POSTGRES_ADMIN_URL)))
      return [...rows, ['PostgreSQL', `not answering at ${new URL(POSTGRES_ADMIN_URL).host}: skipped`]];
    const scratch = await scratchDatabase(POSTGRES_ADMIN_URL);
    try {
      return [...rows, ...(await specimenBench(PG_SPECIMENS, scratch.url))];
    } finally {
      await scratch.drop();
    }
  },
};
