import { afterAll, beforeAll } from 'vitest';
import type { Browser } from 'playwright-core';
import { startServer, type TestServer } from './server';
import { launchBrowser } from './browser';

/**
 * The set-up most e2e files share: one server of their own (fresh data) and one Chromium, started
 * together before the file's tests and ended after them. Read `server` and `browser` inside tests.
 */
export function serverAndBrowser(env: Record<string, string> = {}): { server: TestServer; browser: Browser } {
  const shared = {} as { server: TestServer; browser: Browser };
  beforeAll(async () => {
    [shared.server, shared.browser] = await Promise.all([startServer(env), launchBrowser()]);
  });
  afterAll(async () => {
    await shared.browser?.close();
    await shared.server?.dispose();
  });
  return shared;
}
