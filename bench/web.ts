import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { startServer, DEMO_PASSWORD } from '../tests/support/server';
import { launchBrowser } from '../tests/support/browser';
import setupBuild, { webRoot } from '../tests/support/build-app';
import { ms, type Bench, benchContext } from './measure';

const dist = webRoot;

/** Every script the page fetched, by URL path. */
function recordScripts(page: Page): Set<string> {
  const scripts = new Set<string>();
  page.on('response', (response) => {
    const url = new URL(response.url());
    if (url.pathname.endsWith('.js')) scripts.add(url.pathname);
  });
  return scripts;
}

function gzippedKb(files: Iterable<string>): string {
  let bytes = 0;
  for (const file of files) bytes += gzipSync(readFileSync(path.join(dist, file))).length;
  return `${(bytes / 1024).toFixed(1)} KB`;
}

/** Gzipped JavaScript of the login route and of shell + dashboard, and how soon the dashboard is usable. */
export const webBench: Bench = {
  title: 'Browser app (production build, headless Chromium)',
  async run() {
    setupBuild();
    const [server, browser] = await Promise.all([startServer({ LOG_LEVEL: 'error' }), launchBrowser()]);
    try {
      const rows: [string, string][] = [];
      const timings: number[] = [];
      for (let run = 0; run < 5; run++) {
        const context = await benchContext(browser);
        const page = await context.newPage();
        const scripts = recordScripts(page);
        await page.goto(`${server.url}/login`, { waitUntil: 'networkidle' });
        if (run === 0)
          rows.push(['login route JS (gzip; goal ≤ 200 KB)', `${gzippedKb(scripts)} in ${scripts.size} files`]);
        await page.getByPlaceholder('用户名').fill('admin');
        await page.getByPlaceholder('密码').fill(DEMO_PASSWORD);
        const start = performance.now();
        await page.getByRole('button', { name: /登\s*录/ }).click();
        // Interactive: the welcome is shown and the sidebar answers a click.
        await page.locator('.dashboard-welcome').waitFor();
        await page.locator('.sidebar .ant-menu-submenu-title').first().click();
        timings.push(performance.now() - start);
        await page.waitForLoadState('networkidle');
        const icons = [...scripts].filter((s) => /(Outlined|Filled|TwoTone)-/.test(s));
        const code = [...scripts].filter((s) => !icons.includes(s));
        if (run === 0) {
          rows.push(['shell + dashboard JS (gzip; goal ≤ 350 KB)', `${gzippedKb(code)} in ${code.length} files`]);
          rows.push(['  + menu icons loaded on demand', `${gzippedKb(icons)} in ${icons.length} files`]);
        }
        await context.close();
      }
      timings.sort((a, b) => a - b);
      rows.push(['dashboard interactive after sign-in click (median of 5)', ms(timings[2]!)]);
      return rows;
    } finally {
      await browser.close();
      await server.dispose();
    }
  },
};
