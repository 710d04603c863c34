import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { startServer, type TestServer } from '../support/server';
import { launchBrowser, newPage } from '../support/browser';
import { signIn } from '../support/shell';
import { LEAVES, visitAll } from '../support/every-route';

/** Issue 6 "done when": every route of the spec 2.2 tree as the administrator (the editor: every-route-editor). */
let server: TestServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer(), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.dispose();
});

describe('every route of spec 2.2', () => {
  it('opens for the administrator with its rows and create dialog, or its hand-written page, and no console error', { timeout: 600_000 }, async () => {
    expect(LEAVES.length).toBeGreaterThan(100);
    const { page, consoleErrors } = await newPage(browser);
    await signIn(page, server.url, 'admin');
    const seen = new Set<string>();
    expect(await visitAll(page, consoleErrors, LEAVES, seen)).toEqual([]);
    await page.context().close();
  });
});
