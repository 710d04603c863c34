import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { settle, type Leaf, type RouteAudit, type Shown } from './every-route';
import { settledLayoutProblems } from './layout';
import { keyColumns, type ScreenSchema } from '../../src/shared/screens/fields';

/**
 * Issue 25's check of each menu screen at one window size, as a route walk carries it (visitAll, or
 * screen-fit.test.ts's own walks): the key columns and each row's actions in view without scrolling the
 * table, nothing running into anything else (element boxes), and a screenshot kept under test-results/.
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

/** The fit check of one window size, named for its screenshot folder (e.g. `desktop-1440x900`). */
export function fitAudit(size: string): RouteAudit & { problems: string[]; lists: number } {
  const dir = path.join(ARTEFACTS, size);
  mkdirSync(dir, { recursive: true });
  const audit = {
    problems: [] as string[],
    /** Routes that were lists with key columns: all but the hand-written and chart-only pages. */
    lists: 0,
    async route(page: Page, leaf: Leaf, settled: Shown) {
      let shown = settled;
      const where = `${leaf.path} (${leaf.title})`;
      // A worksheet opens as its grid (specimens × items): it must fit too; its list is checked as every list.
      const grid = page.locator('.app-main [data-testid="worksheet-grid"]').filter({ visible: true });
      if ((await grid.count()) > 0) {
        for (const problem of await settledLayoutProblems(page, [], false))
          audit.problems.push(`${where} grid: ${problem}`);
        await page.locator('.app-main .screen-worksheet .ant-segmented-item').filter({ hasText: '结果列表' }).click();
        await grid.waitFor({ state: 'detached' });
        shown = await settle(page, leaf.title);
      }
      if (shown.kind === 'error' || shown.kind === 'loading' || shown.kind === 'emptyTable')
        audit.problems.push(`${where}: ${shown.kind} ${shown.detail}`);
      const modelList = await page.locator('.app-main .process-model-list').filter({ visible: true }).count();
      const expected =
        shown.kind === 'rows'
          ? expectedOf(shown.detail)
          : { keys: modelList ? MODEL_LIST_KEYS : [], actions: modelList > 0 };
      if (expected.keys.length > 0) audit.lists++;
      for (const problem of await settledLayoutProblems(page, expected.keys, expected.actions))
        audit.problems.push(`${where}: ${problem}`);
      await page.screenshot({
        path: path.join(dir, `${leaf.path.slice(1).replaceAll('/', '_')}.jpg`),
        type: 'jpeg',
        quality: 70,
      });
    },
    async dialog() {},
  };
  return audit;
}
