import { beforeAll, describe, expect, it } from 'vitest';
import { newPage } from '../support/browser';
import { serverAndBrowser } from '../support/e2e';
import { signIn } from '../support/shell';
import { LEAVES, visitAll } from '../support/every-route';
import { labDay } from '../support/labDay';

/** Issue 6 "done when": every route of the spec 2.2 tree as the administrator (the editor: every-route-editor). */
const run = serverAndBrowser();
// The statistics screens count what happened: a small day of the lab, done through the API, gives them rows.
beforeAll(() => labDay(run.server.url));

describe('every route of spec 2.2', () => {
  it(
    'opens for the administrator with its rows and create dialog, or its hand-written page, and no console error',
    { timeout: 600_000 },
    async () => {
      expect(LEAVES.length).toBeGreaterThan(100);
      const { page, consoleErrors } = await newPage(run.browser);
      await signIn(page, run.server.url, 'admin');
      const seen = new Set<string>();
      expect(await visitAll(page, { role: 'admin', labType: 'main' }, consoleErrors, LEAVES, seen)).toEqual([]);
      // visitAll names console errors per route; this also catches those of the sign-in before it.
      expect(consoleErrors).toEqual([]);
      await page.context().close();
    },
  );
});
