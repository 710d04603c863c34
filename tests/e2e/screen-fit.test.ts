import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, it } from 'vitest';
import { newPage } from '../support/browser';
import { serverAndBrowser } from '../support/e2e';
import { LEAVES, open, settle } from '../support/every-route';
import { settledLayoutProblems } from '../support/layout';
import { submitLogin, tab } from '../support/shell';
import { keyColumns, type ScreenSchema } from '../../src/shared/screens/fields';
import { labDay } from '../support/labDay';

/**
 * Issue 25 "done when": every menu screen at two desk sizes and on a phone, as the administrator (who
 * sees them all): the key columns and each row's actions in view without scrolling the table, nothing
 * running into anything else (element boxes), and a screenshot of each kept under test-results/.
 */
const run = serverAndBrowser();
// The statistics screens count what happened: a small day of the lab, done through the API, gives them rows.
beforeAll(() => labDay(run.server.url));

const SIZES = [
  { name: 'desktop-1440x900', width: 1440, height: 900 },
  { name: 'laptop-1366x768', width: 1366, height: 768 },
  { name: 'phone-390x844', width: 390, height: 844 },
];
const ARTEFACTS = path.resolve(import.meta.dirname, '../../test-results/screen-fit');
const schemaDir = path.resolve(import.meta.dirname, '../../schemas/screens');

const schemaOf = (screenId: string) =>
  JSON.parse(readFileSync(path.join(schemaDir, `${screenId}.json`), 'utf8')) as ScreenSchema;
/**
 * What a list must show of every row, from its schema: its key columns (the rule the renderer reads:
 * marked, else the defaults), and an action where one is offered on every row to the administrator.
 */
function expectedOf(screenId: string) {
  const screen = schemaOf(screenId);
  const always = (screen.actions?.row ?? []).some(
    (a) => a.kind !== 'transition' && !a.visibleWhen && (!a.roles || a.roles.includes('admin')),
  );
  return { keys: keyColumns(screen), actions: always };
}
/** The process model list is written by hand (spec 2.4): which model, and whether it is deployed. */
const MODEL_LIST_KEYS = ['modelId', 'name', 'deploymentId'];

// The three sizes side by side, each in a page of its own: most of a visit is waiting for the page.
describe.concurrent('every menu screen fits the window (issue 25)', () => {
  for (const size of SIZES) {
    it(`at ${size.width}×${size.height}: key columns and row actions in view, nothing overlapping`, async ({
      expect,
    }) => {
      const dir = path.join(ARTEFACTS, size.name);
      mkdirSync(dir, { recursive: true });
      const { page, consoleErrors } = await newPage(run.browser, 'zh-CN', size);
      // Signed in on the device itself: on a phone the sidebar starts closed, so the shell is up when its header is.
      await page.goto(`${run.server.url}/login`);
      await submitLogin(page, 'admin');
      await page.locator('.navbar .app-breadcrumb').waitFor();
      const problems: string[] = [];
      let lists = 0;
      let previous: string | undefined;
      for (const leaf of LEAVES) {
        await open(page, leaf.path);
        let shown = await settle(page, leaf.title);
        const where = `${leaf.path} (${leaf.title})`;
        // A worksheet opens as its grid (specimens × items): it must fit too; its list is checked as every list.
        const grid = page.locator('.app-main [data-testid="worksheet-grid"]').filter({ visible: true });
        if ((await grid.count()) > 0) {
          for (const problem of await settledLayoutProblems(page, [], false))
            problems.push(`${where} grid: ${problem}`);
          await page.locator('.app-main .screen-worksheet .ant-segmented-item').filter({ hasText: '结果列表' }).click();
          await grid.waitFor({ state: 'detached' });
          shown = await settle(page, leaf.title);
        }
        if (shown.kind === 'error' || shown.kind === 'loading' || shown.kind === 'emptyTable')
          problems.push(`${where}: ${shown.kind} ${shown.detail}`);
        const modelList = await page.locator('.app-main .process-model-list').filter({ visible: true }).count();
        const expected =
          shown.kind === 'rows'
            ? expectedOf(shown.detail)
            : { keys: modelList ? MODEL_LIST_KEYS : [], actions: modelList > 0 };
        if (expected.keys.length > 0) lists++;
        for (const problem of await settledLayoutProblems(page, expected.keys, expected.actions))
          problems.push(`${where}: ${problem}`);
        await page.screenshot({
          path: path.join(dir, `${leaf.path.slice(1).replaceAll('/', '_')}.jpg`),
          type: 'jpeg',
          quality: 70,
        });
        // One view at a time in the page: the route before is closed (middle click, spec 2.3).
        if (previous && previous !== leaf.path) await tab(page, previous).click({ button: 'middle' });
        previous = leaf.path;
      }
      expect(problems).toEqual([]);
      // Every menu screen was a list but the hand-written and chart-only pages.
      expect(lists).toBeGreaterThan(110);
      expect(consoleErrors).toEqual([]);
      await page.context().close();
    }, 300_000);
  }
});
