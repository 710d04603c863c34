import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildApp } from '../src/server/app';
import { readConfig } from '../src/server/kernel/config';
import { PushHub } from '../src/server/kernel/push/hub';
import { prepare } from '../src/server/startup';
import { api, tokenFor } from '../tests/support/client';
import { DEMO_PASSWORD } from '../tests/support/server';
import { processXml } from '../tests/support/bpmnModels';
import { deployXml } from '../tests/support/workflow';
import { ms, spread, type Bench } from './measure';
import { answers, POSTGRES_ADMIN_URL, scratchDatabase } from './resources';

/**
 * Timers kept in the database (issue 22): 1,000 instances each waiting on a timer of an hour, all
 * made due at one moment (their catch rows' due time set to now); then how many the poller fires per
 * second and how late each fired past its due time (p50 / p95), on PGlite and on PostgreSQL when one
 * answers. Figures only.
 */
const INSTANCES = Number(process.env.BENCH_TIMERS) || 1000;
const POLL_MS = 100;
const KEY = 'bench_timers';

const MODEL = processXml(
  KEY,
  `<startEvent id="start"/><sequenceFlow id="f1" sourceRef="start" targetRef="review"/>
   <userTask id="review" name="Review"/><sequenceFlow id="f2" sourceRef="review" targetRef="end"/>
   <boundaryEvent id="late" attachedToRef="review"><timerEventDefinition><timeDuration>PT1H</timeDuration></timerEventDefinition></boundaryEvent>
   <sequenceFlow id="f3" sourceRef="late" targetRef="escalate"/><userTask id="escalate" name="Escalate"/>
   <sequenceFlow id="f4" sourceRef="escalate" targetRef="end2"/><endEvent id="end"/><endEvent id="end2"/>`,
);

async function timerBench(databaseUrl: string | undefined): Promise<[string, string][]> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'lims-bench-timers-'));
  process.env.LIMS_TIMER_POLL_MS = String(POLL_MS);
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
    let next = 0;
    const worker = async () => {
      for (let i = next++; i < INSTANCES; i = next++) {
        const res = await client.post('/api/workflow/process/start', { modelKey: KEY, businessKey: `T${i}` });
        if (res.status !== 200) throw new Error(`start failed: ${res.body.resultMessage}`);
      }
    };
    await Promise.all(Array.from({ length: 8 }, worker));
    // Every timer due at this one moment: the backlog a server finds after a pause, or a busy hour.
    const [due] = await db.query<{ at: Date }>(
      `update workflow_catch set due_at = now() where kind = 'timer' returning now() as at`,
    );
    const dueAt = new Date(due!.at).getTime();
    const fired = async () =>
      (
        await db.query<{ at: Date }>(
          `select h.at from workflow_history h join process_instance i on i.id = h.instance_id
            where i.process_key = $1 and h.event = 'timer'`,
          [KEY],
        )
      ).map((r) => new Date(r.at).getTime() - dueAt);
    let delays = await fired();
    for (let waited = 0; delays.length < INSTANCES && waited < 600_000; waited += 250) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      delays = await fired();
    }
    const last = Math.max(...delays);
    const s = spread(delays);
    return [
      [
        `timers fired per second, ${delays.length} of ${INSTANCES} due at once (${db.kind})`,
        `${((delays.length / last) * 1000).toFixed(1)} /s`,
      ],
      [`delay past due time p50 / p95 (${db.kind}, poll ${POLL_MS} ms)`, `${ms(s.p50)} / ${ms(s.p95)}`],
    ];
  } finally {
    await app.close();
    await push.close();
    await db.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export const timersBench: Bench = {
  title: `Workflow timers: ${INSTANCES.toLocaleString()} instances with a pending timer (PGlite; PostgreSQL when it answers)`,
  async run() {
    const rows = await timerBench(undefined);
    if (!(await answers(POSTGRES_ADMIN_URL)))
      return [...rows, ['PostgreSQL', `not answering at ${new URL(POSTGRES_ADMIN_URL).host}: skipped`]];
    const scratch = await scratchDatabase(POSTGRES_ADMIN_URL);
    try {
      return [...rows, ...(await timerBench(scratch.url))];
    } finally {
      await scratch.drop();
    }
  },
};
