import { beforeAll, describe, expect, it } from 'vitest';
import { newPage } from '../support/browser';
import { serverAndBrowser } from '../support/e2e';
import { signIn } from '../support/shell';
import { LEAVES, open, visitAll } from '../support/every-route';
import { labDay } from '../support/labDay';

/**
 * Issue 6 "done when": every route of the spec 2.2 tree as the editor; each admin-only route is missing
 * from the editor's sidebar and answers the 401 page when typed.
 */
const run = serverAndBrowser();
// The statistics screens count what happened: a small day of the lab, done through the API, gives them rows.
beforeAll(() => labDay(run.server.url));

describe('every route of spec 2.2', () => {
  it(
    'opens for the editor where the editor may go, and hides and refuses every admin-only route',
    { timeout: 600_000 },
    async () => {
      const allowed = LEAVES.filter((l) => !l.adminOnly);
      const closed = LEAVES.filter((l) => l.adminOnly);
      expect(allowed.length).toBeGreaterThan(50);
      expect(closed.length).toBeGreaterThan(20);
      const { page, consoleErrors } = await newPage(run.browser);
      await signIn(page, run.server.url, 'editor');
      const seen = new Set<string>();
      const problems = await visitAll(page, { role: 'editor', labType: 'main' }, consoleErrors, allowed, seen);

      // Absent from the sidebar: no entry of an admin-only route or section was ever rendered, while the
      // section holding it was (the editor visited its other pages), so the absence means something.
      for (const leaf of closed) {
        const top = leaf.adminOnlyTop!;
        const parent = top.slice(0, top.lastIndexOf('/'));
        if (seen.has(leaf.path) || seen.has(top)) problems.push(`${leaf.path}: shown in the editor's sidebar`);
        if (parent && !seen.has(parent))
          problems.push(`${leaf.path}: its section ${parent} never opened, absence unproven`);
      }
      // Typed: the address of each admin-only route answers 401; one per admin-only section by a fresh load.
      const typedFresh = new Set<string>();
      for (const leaf of closed) {
        const fresh = !typedFresh.has(leaf.adminOnlyTop!);
        typedFresh.add(leaf.adminOnlyTop!);
        if (fresh) await page.goto(run.server.url + leaf.path);
        else await open(page, leaf.path);
        const denied = await page
          .locator('.app-main .error-page.error-401')
          .filter({ visible: true })
          .waitFor({ timeout: 15_000 })
          .then(
            () => true,
            () => false,
          );
        if (!denied) problems.push(`${leaf.path}: typed by the editor, no 401 page`);
      }
      expect(problems).toEqual([]);
      expect(consoleErrors).toEqual([]);
      await page.context().close();
    },
  );
});
