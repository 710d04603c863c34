import { rmSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/server/app';
import { LabClock } from '../../src/server/kernel/clock';
import { readConfig } from '../../src/server/kernel/config';
import type { Database } from '../../src/server/kernel/db/database';
import { PushHub } from '../../src/server/kernel/push/hub';
import { prepare } from '../../src/server/startup';
import { runDemoMonth, type MonthResult } from '../../src/server/demo/month';
import type { MonthSize } from '../../src/server/demo/plan';
import { DEMO_PASSWORD, freshData, GENEROUS_LIMITS } from './server';

export interface MadeMonth {
  db: Database;
  app: FastifyInstance;
  clock: LabClock;
  result: MonthResult;
  dispose(): Promise<void>;
}

/** A lab of its own in this process (fresh database, the app answering in process), no month made yet. */
export async function openLab(): Promise<Omit<MadeMonth, 'result'>> {
  const data = await freshData({}, 'lims-demo-month-');
  const config = {
    ...readConfig({ ...GENEROUS_LIMITS, LIMS_DATA_DIR: data.dataDir, LIMS_DEMO_PASSWORD: DEMO_PASSWORD }),
    logLevel: 'warn',
    databaseUrl: data.databaseUrl,
  };
  const { db, screens } = await prepare(config);
  const clock = new LabClock(() => new Date());
  const push = await PushHub.open(db, { databaseUrl: data.databaseUrl });
  const app = await buildApp({ db, config, now: clock.wallNow, clock, screens, push });
  return {
    db,
    app,
    clock,
    async dispose() {
      await app.close();
      await push.close();
      await db.close();
      await data.dropDatabase?.();
      rmSync(data.dataDir, { recursive: true, force: true });
    },
  };
}

/** A stretch of the demo month made through the API in this process (in bulk mode if asked), on a fresh database of its own. */
export async function makeMonth(size: MonthSize, bulk = false): Promise<MadeMonth> {
  const lab = await openLab();
  const { app, clock, db } = lab;
  return { ...lab, result: await runDemoMonth({ app, clock, db, password: DEMO_PASSWORD, size, bulk }) };
}
