import { rmSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/server/app';
import { CAPABILITIES } from '../../src/server/capabilities';
import type { Capability } from '../../src/server/kernel/capability';
import { readConfig } from '../../src/server/kernel/config';
import type { Database } from '../../src/server/kernel/db/database';
import { prepare } from '../../src/server/startup';
import type { ScreenRegistry } from '../../src/server/kernel/screens/registry';
import { PushHub, silenceLimitSeconds } from '../../src/server/kernel/push/hub';
import { DEMO_PASSWORD, freshData, GENEROUS_LIMITS } from './server';

/**
 * The app built in this process, on its own PGlite directory (or scratch PostgreSQL database, on a
 * PostgreSQL run), with a clock the test moves by hand:
 * for the few behaviours that depend on time passing (the idle limit), which a test must not sleep for.
 */
export interface InProcessApp {
  app: FastifyInstance;
  db: Database;
  clock: { now: Date; advance(seconds: number): void };
  /** Signs a demo account in through the spec's token call; answers its token and user id. */
  signIn(account?: string): Promise<{ token: string; id: number }>;
  close(): Promise<void>;
}

/** `extra` capabilities join the product's own, after them (a test's probe of the kernel's contract). */
export async function startInProcess(
  env: Record<string, string> = {},
  extra: readonly Capability[] = [],
): Promise<InProcessApp> {
  const data = await freshData(env, 'lims-inproc-');
  const config = {
    ...readConfig({ ...GENEROUS_LIMITS, ...env, LIMS_DATA_DIR: data.dataDir, LIMS_DEMO_PASSWORD: DEMO_PASSWORD }),
    logLevel: 'warn',
    databaseUrl: data.databaseUrl,
  };
  const { db, screens } = await prepare(config);
  const clock = {
    now: new Date(),
    advance(seconds: number) {
      clock.now = new Date(clock.now.getTime() + seconds * 1000);
    },
  };
  const push = await PushHub.open(db, {
    now: () => clock.now,
    silenceLimitSeconds: silenceLimitSeconds(env),
    databaseUrl: data.databaseUrl,
  });
  const app = await buildApp({ db, config, now: () => clock.now, screens, push }, [...CAPABILITIES, ...extra]);
  return {
    app,
    db,
    clock,
    async signIn(account = 'admin') {
      const res = await app.inject({
        method: 'POST',
        url: '/oauth/token?client_id=laboratory',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({
          grant_type: 'password',
          scope: 'all',
          username: account,
          password: DEMO_PASSWORD,
        }).toString(),
      });
      const body = res.json() as { access_token: string; principal: { id: number } };
      return { token: body.access_token, id: body.principal.id };
    },
    async close() {
      await app.close();
      await push.close();
      await db.close();
      await data.dropDatabase?.();
      rmSync(data.dataDir, { recursive: true, force: true });
    },
  };
}

/** A fresh data directory (or scratch database) prepared as a server start would, without the app. */
export interface PreparedData {
  db: Database;
  screens: ScreenRegistry;
  schemaDir: string;
  close(): Promise<void>;
}

/** For a test of what the server's own code reads and writes, below its routes (seeding, look-ups). */
export async function prepareData(prefix: string): Promise<PreparedData> {
  const data = await freshData({}, prefix);
  const config = {
    ...readConfig({ LIMS_DATA_DIR: data.dataDir, LIMS_DEMO_PASSWORD: DEMO_PASSWORD }),
    logLevel: 'warn',
    databaseUrl: data.databaseUrl,
  };
  const { db, screens } = await prepare(config);
  return {
    db,
    screens,
    schemaDir: config.schemaDir,
    async close() {
      await db.close();
      await data.dropDatabase?.();
      rmSync(data.dataDir, { recursive: true, force: true });
    },
  };
}
