import { describe, expect, it } from 'vitest';
import { newPage } from '../support/browser';
import { serverAndBrowser } from '../support/e2e';
import { signIn } from '../support/shell';
import { LEAVES, visitAll, type Outcome } from '../support/every-route';

/**
 * Issue 6 "done when", for the public-platform routes (meta.isBasic, spec 6): only the base organisation
 * writes their data, so the main lab's administrator and editor (every-route, every-route-editor) only
 * read them. Here the base organisation's administrator opens each, sees its rows and its create dialog.
 */
const run = serverAndBrowser();

/** The one public-platform route drawn by a hand-written page, not a screen (MenuPage's HAND_WRITTEN). */
const HAND_WRITTEN = '/groupManager/publicWorkflow/workflowDesign';

describe('every public-platform route of spec 2.2', () => {
  it(
    'opens for the base organisation administrator with its rows and create dialog, and no console error',
    { timeout: 300_000 },
    async () => {
      const basic = LEAVES.filter((l) => l.basic);
      expect(basic.length).toBeGreaterThan(10);
      const { page, consoleErrors } = await newPage(run.browser);
      await signIn(page, run.server.url, 'baseadmin');
      const seen = new Set<string>();
      const outcomes = new Map<string, Outcome>();
      expect(await visitAll(page, { role: 'admin', labType: 'base' }, consoleErrors, basic, seen, outcomes)).toEqual(
        [],
      );

      // Each route is in the base administrator's sidebar, and each screen went as far as its create
      // dialog: no route passed only because the schema let nobody create there.
      expect(basic.filter((l) => !seen.has(l.path)).map((l) => l.path)).toEqual([]);
      const expected = new Map<string, Outcome>(
        basic.map((l) => [l.path, l.path === HAND_WRITTEN ? 'page' : 'created']),
      );
      expect(outcomes).toEqual(expected);
      expect(consoleErrors).toEqual([]);
      await page.context().close();
    },
  );
});
