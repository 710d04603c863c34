import { beforeAll, describe, expect, it } from 'vitest';
import { newPage } from '../support/browser';
import { serverAndBrowser } from '../support/e2e';
import { signIn } from '../support/shell';
import { allOf, LEAVES, visitAll } from '../support/every-route';
import { fitAudit } from '../support/screen-fit';
import { labDay } from '../support/labDay';
import { AXE_SOURCE, axeAudit, once, violations } from '../support/axe';

/**
 * Issue 6 "done when": every route of the spec 2.2 tree as the administrator (the editor: every-route-editor).
 * The same walk carries issue 23's accessibility check (support/axe.ts) and issue 25's check that each
 * menu screen fits two desk sizes and a phone (support/screen-fit.ts; the administrator sees them all):
 * one visit of each route serves all of them, the window resized on the route.
 */
const run = serverAndBrowser();
// The statistics screens count what happened: a small day of the lab, done through the API, gives them rows.
beforeAll(() => labDay(run.server.url));

/** The walk's own window first: axe and the create dialog are checked at it. */
const SIZES = [
  { name: 'desktop-1440x900', width: 1440, height: 900 },
  { name: 'laptop-1366x768', width: 1366, height: 768 },
  { name: 'phone-390x844', width: 390, height: 844 },
];

describe('every route of spec 2.2', () => {
  it(
    'opens for the administrator with its rows and create dialog, or its hand-written page, and no console error; axe finds nothing serious on any route, the shell around it, nor in a create dialog; every screen fits 1440×900, 1366×768 and 390×844: key columns and row actions in view, nothing overlapping (issue 25)',
    // ~150 routes, each at three window sizes with axe and a create dialog: 250–280 s alone on a 2-core
    // machine; beside the rest of `npm test` 470–683 s with three workers, and once 926 s with two on a slow day.
    { timeout: 1_500_000 },
    async () => {
      expect(LEAVES.length).toBeGreaterThan(100);
      const { page, consoleErrors } = await newPage(run.browser, undefined, SIZES[0]!, AXE_SOURCE);
      await signIn(page, run.server.url, 'admin');
      const seen = new Set<string>();
      const axe = axeAudit();
      // Fit first: on a worksheet it switches from the grid to the list, which axe then checks.
      const fit = fitAudit(SIZES);
      const problems = await visitAll(
        page,
        { role: 'admin', labType: 'main' },
        consoleErrors,
        LEAVES,
        seen,
        undefined,
        allOf(fit, axe),
      );
      expect.soft(problems).toEqual([]);
      expect.soft(axe.dialogChecked).toBe(true);
      expect.soft(once(axe.problems)).toEqual([]);
      expect.soft(fit.problems).toEqual([]);
      // Every menu screen was a list but the hand-written and chart-only pages.
      expect.soft(fit.lists).toBeGreaterThan(110);
      // visitAll names console errors per route; this also catches those of the sign-in before it.
      expect(consoleErrors).toEqual([]);
      await page.context().close();
    },
  );
});

describe('accessibility (axe-core, serious and critical)', () => {
  it('finds nothing on the login page', async () => {
    const { page } = await newPage(run.browser, undefined, undefined, AXE_SOURCE);
    await page.goto(`${run.server.url}/login`);
    await page.getByPlaceholder('用户名').waitFor();
    expect(once(await violations(page, '/login'))).toEqual([]);
    await page.context().close();
  });
});
