import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/server/app';
import { readConfig } from '../../src/server/config';
import type { Database } from '../../src/server/kernel/db/database';
import { prepare } from '../../src/server/startup';
import { PushHub, silenceLimitSeconds } from '../../src/server/kernel/push/hub';
import { copyTemplate, DEMO_PASSWORD } from './server';

/**
 * The app built in this process, on its own PGlite directory, with a clock the test moves by hand:
 * for the few behaviours that depend on time passing (the idle limit), which a test must not sleep for.
 */
export interface InProcessApp {
  app: FastifyInstance;
  db: Database;
  clock: { now: Date; advance(seconds: number): void };
  close(): Promise<void>;
}

export async function startInProcess(env: Record<string, string> = {}): Promise<InProcessApp> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'lims-inproc-'));
  await copyTemplate(dataDir, env);
  const config = {
    ...readConfig({ ...env, LIMS_DATA_DIR: dataDir, LIMS_DEMO_PASSWORD: DEMO_PASSWORD }),
    logLevel: 'warn',
    databaseUrl: undefined,
  };
  const { db, screens } = await prepare(config);
  const clock = {
    now: new Date(),
    advance(seconds: number) {
      clock.now = new Date(clock.now.getTime() + seconds * 1000);
    },
  };
  const push = await PushHub.open(db, { now: () => clock.now, silenceLimitSeconds: silenceLimitSeconds(env) });
  const app = await buildApp({ db, config, now: () => clock.now, screens, push });
  return {
    app,
    db,
    clock,
    async close() {
      await app.close();
      await push.close();
      await db.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
