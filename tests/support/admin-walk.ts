import { beforeAll, describe, expect, it } from 'vitest';
import { newPage } from './browser';
import { serverAndBrowser } from './e2e';
import { signIn } from './shell';
import { allOf, LEAVES, visitAll, type Leaf, type Outcome } from './every-route';
import { fitAudit } from './screen-fit';
import { labDay } from './labDay';
import { AXE_SOURCE, axeAudit, once } from './axe';

/**
 * Issue 6 "done when": every route of the spec 2.2 tree as the administrator (the editor's walk is
 * every-route-editor). The same walk carries issue 23's accessibility check (support/axe.ts) and issue
 * 25's check that each menu screen fits two desk sizes and a phone (support/screen-fit.ts; the
 * administrator sees them all): one visit of each route serves all of them, the window resized on it.
 *
 * The walk is the longest test of `npm test` (~150 routes at three sizes with axe): as one test no
 * second worker could share it and it alone set the run's wall time. It is cut into PARTS files of
 * consecutive routes (every-route-1..3), each with its own server, browser and lab day.
 */
export const PARTS = 3;

/** The routes of part `n` (1-based) of PARTS: consecutive, sizes differing by one at most. */
export function partOf(leaves: readonly Leaf[], n: number, parts = PARTS): Leaf[] {
  const size = Math.ceil(leaves.length / parts);
  return leaves.slice((n - 1) * size, n * size);
}

/** The walk's own window first: axe and the create dialog are checked at it. */
const SIZES = [
  { name: 'desktop-1440x900', width: 1440, height: 900 },
  { name: 'laptop-1366x768', width: 1366, height: 768 },
  { name: 'phone-390x844', width: 390, height: 844 },
];

/** Registers part `n` of the administrator's walk in the calling test file; its server and browser, for the file's other tests. */
export function adminWalk(n: number) {
  const run = serverAndBrowser();
  // The statistics screens count what happened, and lists show rows: a small day of the lab, done through the API.
  beforeAll(() => labDay(run.server.url));
  const leaves = partOf(LEAVES, n);

  describe(`every route of spec 2.2, part ${n} of ${PARTS}: ${leaves[0]!.title} … ${leaves.at(-1)!.title}`, () => {
    it(
      'opens for the administrator with its rows and create dialog, or its hand-written page, and no console error; axe finds nothing serious on any route, the shell around it, nor in a create dialog; every screen fits 1440×900, 1366×768 and 390×844: key columns and row actions in view, nothing overlapping (issue 25)',
      // ~50 routes, each at three window sizes with axe and a create dialog: ~100 s alone on a 2-core
      // machine, two to three times that beside the rest of `npm test`.
      { timeout: 900_000 },
      async () => {
        expect(LEAVES.length).toBeGreaterThan(100);
        const { page, consoleErrors } = await newPage(run.browser, undefined, SIZES[0]!, AXE_SOURCE);
        await signIn(page, run.server.url, 'admin');
        const axe = axeAudit();
        // Fit first: on a worksheet it switches from the grid to the list, which axe then checks.
        const fit = fitAudit(SIZES);
        const outcomes = new Map<string, Outcome>();
        const problems = await visitAll(
          page,
          { role: 'admin', labType: 'main' },
          consoleErrors,
          leaves,
          new Set(),
          outcomes,
          allOf(fit, axe),
        );
        expect.soft(problems).toEqual([]);
        expect.soft(axe.dialogChecked).toBe(true);
        expect.soft(once(axe.problems)).toEqual([]);
        expect.soft(fit.problems).toEqual([]);
        // Every menu screen was a list with its key columns checked, but the hand-written and chart-only pages.
        const listed = [...outcomes.values()].filter((o) => o === 'rows' || o === 'created').length;
        expect.soft(listed).toBeGreaterThan(leaves.length * 0.75);
        expect.soft(fit.lists).toBeGreaterThanOrEqual(listed);
        // visitAll names console errors per route; this also catches those of the sign-in before it.
        expect(consoleErrors).toEqual([]);
        await page.context().close();
      },
    );
  });
  return run;
}
