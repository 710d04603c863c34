import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import type { Leaf, RouteAudit } from './every-route';

/**
 * Issue 23's accessibility check: axe-core run in Chromium on what the page shows. axe-core itself is
 * injected (@axe-core/playwright needs a newer Node than ours), as a page's init script (newPage).
 * Only serious and critical violations count: those stop a user (a field without a name, text too
 * faint to read, no way to tell a button's purpose).
 */
export const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[]; html: string }[];
}

/** The serious and critical violations axe finds in what is visible now, one line each. */
export async function violations(page: Page, where: string, within = 'html'): Promise<string[]> {
  const found = (await page.evaluate(async (selector) => {
    const axe = (window as unknown as { axe: { run(c: unknown, o: unknown): Promise<{ violations: unknown[] }> } }).axe;
    // antd's measuring row of a fixed-layout table is an invisible copy of the header (aria-hidden by
    // antd, zero height), not something a user meets.
    const result = await axe.run(
      { include: [[selector]], exclude: [['.ant-table-measure-row']] },
      {
        runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
        resultTypes: ['violations'],
        // The page's stylesheets are read into axe's CSSOM only for css-orientation-lock, an experimental
        // rule these tags leave out: fetching and parsing antd's whole stylesheet again on every route was
        // a third of each check. Media stay preloaded for the audio and video rules.
        preload: { assets: ['media'] },
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
export function once(problems: string[]): string[] {
  const seen = new Map<string, string>();
  for (const p of problems) {
    const key = p.replace(/ {2}\[first at .*\]$/, '').replace(/_r_\w+_/g, '');
    if (!seen.has(key)) seen.set(key, p);
  }
  return [...seen.values()];
}

/**
 * The check a route walk (visitAll) carries: the whole page on the first route; after it the route's
 * own view, since the shell around it is the same on every route; and the first create dialog.
 */
export function axeAudit(): RouteAudit & { problems: string[]; dialogChecked: boolean } {
  let first = true;
  const audit = {
    problems: [] as string[],
    dialogChecked: false,
    async route(page: Page, leaf: Leaf) {
      audit.problems.push(...(await violations(page, leaf.path, first ? 'html' : '.app-main')));
      first = false;
    },
    async dialog(page: Page, leaf: Leaf) {
      if (audit.dialogChecked) return;
      audit.problems.push(...(await violations(page, `${leaf.path} create dialog`)));
      audit.dialogChecked = true;
    },
  };
  return audit;
}
