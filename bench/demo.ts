import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildApp } from '../src/server/app';
import { runDemoMonth } from '../src/server/demo/month';
import { monthSizeOf } from '../src/server/demo/size';
import { LabClock } from '../src/server/kernel/clock';
import { readConfig } from '../src/server/kernel/config';
import { PushHub } from '../src/server/kernel/push/hub';
import { PeopleFirst } from '../src/server/demo/peopleFirst';
import type { FastifyInstance } from 'fastify';
import { prepare } from '../src/server/startup';
import { DEMO_PASSWORD } from '../tests/support/server';
import { ms, msSpread, personReading, spread, type Bench } from './measure';
import { answers, POSTGRES_ADMIN_URL, scratchDatabase } from './resources';

/**
 * The demo month's generator (issue 19): how many specimens a second it takes through their whole
 * life by the API (registration to signed report), on PGlite and on PostgreSQL. BENCH_DEMO_MONTH sets
 * the size (DAYSxPER_DAY, default 2x30); the staff and QC set-up before the first specimen is timed apart.
 */
const SIZE = monthSizeOf(process.env.BENCH_DEMO_MONTH || '2x30', 1)!;

/**
 * A person at the work list while the month is made: a list page asked every PERSON_PAUSE_MS, its
 * times kept, as `npm start` runs the generator behind people (PeopleFirst).
 */
const PERSON_PAUSE_MS = 300;

async function personAtWork(app: FastifyInstance) {
  const signIn = await app.inject({
    method: 'POST',
    url: '/oauth/token?client_id=laboratory',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: `grant_type=password&scope=all&username=editor&password=${encodeURIComponent(DEMO_PASSWORD)}`,
  });
  const authorization = `Bearer ${(signIn.json() as { access_token: string }).access_token}`;
  const person = personReading(
    () => app.inject({ method: 'GET', url: '/api/resources/specimen?page=1&size=50', headers: { authorization } }),
    PERSON_PAUSE_MS,
  );
  return {
    async stop() {
      const times = await person.stop();
      return `${msSpread(spread(times))} / ${ms(Math.max(...times))} (${times.length} calls)`;
    },
  };
}

/**
 * The generator's run on one database: as `npm start` runs it, behind a person at the work list, or in
 * bulk mode (the same calls, fewer and larger: batch task completions, trays of signatures) with no one
 * beside it, as a big stretch for the benchmarks would be made.
 */
async function generate(databaseUrl: string | undefined, bulk = false): Promise<[string, string][]> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'lims-bench-demo-'));
  const config = {
    ...readConfig({ LIMS_DATA_DIR: dataDir, LIMS_DEMO_PASSWORD: DEMO_PASSWORD, DATABASE_URL: databaseUrl, PORT: '0' }),
    logLevel: 'error',
  };
  const { db, screens } = await prepare(config);
  const push = await PushHub.open(db, { databaseUrl: config.databaseUrl });
  const clock = new LabClock(() => new Date());
  const app = await buildApp({ db, config, now: clock.wallNow, clock, screens, push });
  const people = new PeopleFirst().watch(app);
  const where = `${databaseUrl ? 'PostgreSQL' : 'PGlite'}${bulk ? ', bulk mode' : ''}`;
  try {
    const started = performance.now();
    let firstSpecimen = 0;
    const person = bulk ? undefined : await personAtWork(app);
    const result = await runDemoMonth({
      app,
      clock,
      db,
      password: DEMO_PASSWORD,
      size: SIZE,
      turn: bulk ? undefined : people.turn,
      bulk,
      onProgress: () => {
        firstSpecimen ||= performance.now();
      },
    });
    const seconds = (performance.now() - firstSpecimen) / 1000;
    const rows: [string, string][] = [
      [`${where}: staff, QC plans set up`, `${((firstSpecimen - started) / 1000).toFixed(1)} s`],
      [
        `${where}: ${result.specimens} specimens, ${result.results} results, reported`,
        `${seconds.toFixed(1)} s = ${(result.specimens / seconds).toFixed(2)} specimens/s`,
      ],
    ];
    if (person)
      rows.push([
        `${where}: meanwhile a person's list page every ${PERSON_PAUSE_MS} ms, p50 / p95 / max`,
        await person.stop(),
      ]);
    return rows;
  } finally {
    await app.close();
    await push.close();
    await db.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Each run on a scratch PostgreSQL database of its own. */
async function onPostgres(bulk: boolean) {
  const scratch = await scratchDatabase(POSTGRES_ADMIN_URL);
  try {
    return await generate(scratch.url, bulk);
  } finally {
    await scratch.drop();
  }
}

export const demoBench: Bench = {
  title: `Demo month generator: ${SIZE.days} days × ${SIZE.perDay} specimens through the API (PGlite, PostgreSQL; as npm start runs it and in bulk mode)`,
  async run() {
    const rows = [...(await generate(undefined)), ...(await generate(undefined, true))];
    if (!(await answers(POSTGRES_ADMIN_URL)))
      return [...rows, ['PostgreSQL', `not answering at ${new URL(POSTGRES_ADMIN_URL).host}: skipped`]];
    return [...rows, ...(await onPostgres(false)), ...(await onPostgres(true))];
  },
};
