import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { settle, type Leaf, type RouteAudit, type Shown } from './every-route';
import { settledLayoutProblems } from './layout';
import { keyColumns, type ScreenSchema } from '../../src/shared/screens/fields';

/**
 * Issue 25's check of each menu screen at window sizes of desks and phones, as a route walk carries it
 * (visitAll): the key columns and each row's actions in view without scrolling the table, nothing
 * running into anything else (element boxes), and a screenshot kept under test-results/.
 */
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

/** A window size of the check, named for its screenshot folder (e.g. `desktop-1440x900`). */
export interface WindowSize {
  name: string;
  width: number;
  height: number;
}

/**
 * Gives the page a window of `size` and waits for the shell to follow: a phone's layout below 992 px
 * (spec 4), a desk's above it with the sidebar open again as the user left it there.
 */
async function resize(page: Page, size: WindowSize): Promise<void> {
  const now = page.viewportSize();
  if (now?.width === size.width && now.height === size.height) return;
  await page.setViewportSize({ width: size.width, height: size.height });
  await page.locator(size.width < 992 ? '.app-wrapper.mobile' : '.app-wrapper.desktop.sidebar-open').waitFor();
  // The table takes its new width from a ResizeObserver, whose turn comes with the next frames.
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
}

/**
 * The fit check at each of `sizes` in turn, on every route of a walk: the window is resized on the
 * route rather than walking the routes once per size (a visit is mostly waiting for the page). The
 * page is left at the first size, the walk's own.
 */
export function fitAudit(sizes: readonly WindowSize[]): RouteAudit & { problems: string[]; lists: number } {
  for (const size of sizes) mkdirSync(path.join(ARTEFACTS, size.name), { recursive: true });
  const audit = {
    problems: [] as string[],
    /** Routes that were lists with key columns: all but the hand-written and chart-only pages. */
    lists: 0,
    async route(page: Page, leaf: Leaf, settled: Shown) {
      const where = (size: WindowSize) => `${leaf.path} (${leaf.title}) at ${size.name}`;
      // A worksheet opens as its grid (specimens × items): it must fit too; its list is checked as every list.
      const grid = page.locator('.app-main [data-testid="worksheet-grid"]').filter({ visible: true });
      const hadGrid = (await grid.count()) > 0;
      if (hadGrid) {
        for (const size of sizes) {
          await resize(page, size);
          for (const problem of await settledLayoutProblems(page, [], false))
            audit.problems.push(`${where(size)} grid: ${problem}`);
        }
        await page.locator('.app-main .screen-worksheet .ant-segmented-item').filter({ hasText: '结果列表' }).click();
        await grid.waitFor({ state: 'detached' });
      }
      for (const size of sizes) {
        await resize(page, size);
        // The walk settled the route at the first size; after a resize or the grid, it settles again.
        const shown = size === sizes[0] && !hadGrid ? settled : await settle(page, leaf.title);
        if (shown.kind === 'error' || shown.kind === 'loading' || shown.kind === 'emptyTable')
          audit.problems.push(`${where(size)}: ${shown.kind} ${shown.detail}`);
        const modelList = await page.locator('.app-main .process-model-list').filter({ visible: true }).count();
        const expected =
          shown.kind === 'rows'
            ? expectedOf(shown.detail)
            : { keys: modelList ? MODEL_LIST_KEYS : [], actions: modelList > 0 };
        if (expected.keys.length > 0 && size === sizes[0]) audit.lists++;
        for (const problem of await settledLayoutProblems(page, expected.keys, expected.actions))
          audit.problems.push(`${where(size)}: ${problem}`);
        await page.screenshot({
          path: path.join(ARTEFACTS, size.name, `${leaf.path.slice(1).replaceAll('/', '_')}.jpg`),
          type: 'jpeg',
          quality: 70,
        });
      }
      await resize(page, sizes[0]!);
    },
    async dialog() {},
  };
  return audit;
}
