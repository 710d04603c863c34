import { beforeAll, describe, it } from 'vitest';
import { newPage } from '../support/browser';
import { serverAndBrowser } from '../support/e2e';
import { LEAVES, open, settle } from '../support/every-route';
import { fitAudit } from '../support/screen-fit';
import { submitLogin, tab } from '../support/shell';
import { labDay } from '../support/labDay';

/**
 * Issue 25 "done when": every menu screen at two desk sizes and on a phone, as the administrator (who
 * sees them all), checked by support/screen-fit.ts. The largest desk size, 1440×900, rides the
 * administrator's walk of every route (every-route.test.ts); the laptop and the phone walk here.
 */
const run = serverAndBrowser();
// The statistics screens count what happened: a small day of the lab, done through the API, gives them rows.
beforeAll(() => labDay(run.server.url));

const SIZES = [
  { name: 'laptop-1366x768', width: 1366, height: 768 },
  { name: 'phone-390x844', width: 390, height: 844 },
];

// The sizes side by side, each in a page of its own: most of a visit is waiting for the page.
describe.concurrent('every menu screen fits the window (issue 25)', () => {
  for (const size of SIZES) {
    it(`at ${size.width}×${size.height}: key columns and row actions in view, nothing overlapping`, async ({
      expect,
    }) => {
      const fit = fitAudit(size.name);
      const { page, consoleErrors } = await newPage(run.browser, 'zh-CN', size);
      // Signed in on the device itself: on a phone the sidebar starts closed, so the shell is up when its header is.
      await page.goto(`${run.server.url}/login`);
      await submitLogin(page, 'admin');
      await page.locator('.navbar .app-breadcrumb').waitFor();
      let previous: string | undefined;
      for (const leaf of LEAVES) {
        await open(page, leaf.path);
        await fit.route(page, leaf, await settle(page, leaf.title));
        // One view at a time in the page: the route before is closed (middle click, spec 2.3).
        if (previous && previous !== leaf.path) await tab(page, previous).click({ button: 'middle' });
        previous = leaf.path;
      }
      expect(fit.problems).toEqual([]);
      // Every menu screen was a list but the hand-written and chart-only pages.
      expect(fit.lists).toBeGreaterThan(110);
      expect(consoleErrors).toEqual([]);
      await page.context().close();
    }, 300_000);
  }
});
