import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildApp } from '../src/server/app';
import { readConfig } from '../src/server/kernel/config';
import { PushHub } from '../src/server/kernel/push/hub';
import { prepare } from '../src/server/startup';
import { api, tokenFor } from '../tests/support/client';
import { DEMO_PASSWORD } from '../tests/support/server';
import { deployXml, modelXml } from '../tests/support/workflow';
import { ms, msSpread, spread, type Bench } from './measure';
import { answers, POSTGRES_ADMIN_URL, scratchDatabase } from './resources';

/**
 * The workflow engine under a lab's load (issue 5): 10,000 running instances in the database, started
 * through the real start call by several clients at once; then instances started per second and the
 * latency from completing a task to its next task being listed (p50 / p95), on PGlite and on
 * PostgreSQL when one answers. Figures only.
 */
const RUNNING = Number(process.env.BENCH_INSTANCES) || 10_000;
const CLIENTS = 8;
const SAMPLES = 200;
const KEY = 'bench_engine';

/** A lab's three-step flow with a gateway on the review result, handled by the admins (no positions). */
const MODEL = modelXml(
  KEY,
  '引擎基准流程',
  [
    { id: 'start', kind: 'startEvent' },
    { id: 'receive', kind: 'userTask', name: '标本接收' },
    { id: 'inspect', kind: 'userTask', name: '上机检验' },
    { id: 'audit', kind: 'userTask', name: '审核' },
    { id: 'gateway', kind: 'exclusiveGateway', order: ['pass', 'unpass'] },
    { id: 'end', kind: 'endEvent' },
  ],
  [
    { id: 'f1', from: 'start', to: 'receive' },
    { id: 'f2', from: 'receive', to: 'inspect' },
    { id: 'f3', from: 'inspect', to: 'audit' },
    { id: 'f4', from: 'audit', to: 'gateway' },
    { id: 'pass', from: 'gateway', to: 'end', condition: "${result == 'pass'}" },
    { id: 'unpass', from: 'gateway', to: 'inspect', condition: "${result == 'unpass'}" },
  ],
);

type Client = ReturnType<typeof api>;

/** Runs `count` jobs on `clients` concurrent workers; answers the wall time in ms. */
async function concurrently(count: number, clients: number, job: (i: number) => Promise<void>): Promise<number> {
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    for (let i = next++; i < count; i = next++) await job(i);
  };
  await Promise.all(Array.from({ length: clients }, worker));
  return performance.now() - started;
}

async function start(client: Client, businessKey: string): Promise<string> {
  const res = await client.post<{ processInstanceId: string }>('/api/workflow/process/start', {
    modelKey: KEY,
    businessKey,
    variables: { barcode: businessKey },
  });
  if (res.status !== 200) throw new Error(`start failed: ${res.body.resultMessage}`);
  return res.body.resultObject.processInstanceId;
}

/** Complete the instance's open task, then ask for its next one: what a user waits for between two steps. */
async function completeToNext(client: Client, instance: string): Promise<number> {
  const [task] = (await client.get<{ id: string }[]>(`/api/workflow/task/todo?processInstanceId=${instance}`)).body
    .resultObject;
  const t0 = performance.now();
  const done = await client.post(`/api/workflow/task/${task!.id}/complete`, {});
  if (done.status !== 200) throw new Error(`complete failed: ${done.body.resultMessage}`);
  const [next] = (await client.get<{ id: string }[]>(`/api/workflow/task/todo?processInstanceId=${instance}`)).body
    .resultObject;
  if (!next) throw new Error('no next task');
  return performance.now() - t0;
}

async function engineBench(databaseUrl: string | undefined): Promise<[string, string][]> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'lims-bench-engine-'));
  const config = {
    ...readConfig({ LIMS_DATA_DIR: dataDir, LIMS_DEMO_PASSWORD: DEMO_PASSWORD, DATABASE_URL: databaseUrl, PORT: '0' }),
    logLevel: 'error',
  };
  const { db, screens } = await prepare(config);
  const push = await PushHub.open(db, { databaseUrl: config.databaseUrl });
  const app = await buildApp({ db, config, now: () => new Date(), screens, push });
  try {
    const url = await app.listen({ port: 0, host: '127.0.0.1' });
    const token = await tokenFor(url, 'admin', DEMO_PASSWORD);
    const client = api(url, token);
    await deployXml(url, token, client, KEY, MODEL, 1);

    const seeded = await concurrently(
      RUNNING,
      CLIENTS,
      async (i) => void (await start(client, `S${String(i).padStart(6, '0')}`)),
    );
    const timed: string[] = [];
    const startMs = await concurrently(SAMPLES, CLIENTS, async (i) => void timed.push(await start(client, `T${i}`)));
    const latencies: number[] = [];
    for (const instance of timed) latencies.push(await completeToNext(client, instance));
    const [running] = await db.query<{ n: number }>(
      `select count(*)::int as n from process_instance where status = 'running'`,
    );
    return [
      [
        `seeding ${RUNNING.toLocaleString()} instances, ${CLIENTS} clients (${db.kind})`,
        `${ms(seeded)} (${((RUNNING / seeded) * 1000).toFixed(0)} /s)`,
      ],
      [
        `instances started per second, ${running?.n.toLocaleString()} running (${db.kind})`,
        `${((SAMPLES / startMs) * 1000).toFixed(1)} /s`,
      ],
      [`complete → next task listed p50 / p95 (${db.kind})`, msSpread(spread(latencies))],
    ];
  } finally {
    await app.close();
    await push.close();
    await db.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export const engineBenchmark: Bench = {
  title: `Workflow engine with ${RUNNING.toLocaleString()} running instances (PGlite; PostgreSQL when it answers)`,
  async run() {
    const rows = await engineBench(undefined);
    if (!(await answers(POSTGRES_ADMIN_URL)))
      return [...rows, ['PostgreSQL', `not answering at ${new URL(POSTGRES_ADMIN_URL).host}: skipped`]];
    const scratch = await scratchDatabase(POSTGRES_ADMIN_URL);
    try {
      return [...rows, ...(await engineBench(scratch.url))];
    } finally {
      await scratch.drop();
    }
  },
};
