import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { build } from 'vite';
import react from '@vitejs/plugin-react';
import { copySchemas, startServer, DEMO_PASSWORD } from '../tests/support/server';
import { launchBrowser } from '../tests/support/browser';
import { api, tokenFor } from '../tests/support/client';
import { signIn } from '../tests/support/shell';
import { buildWebApp } from '../tests/support/build-app';
import { ms, msSpread, ratio, spread, type Bench, benchContext } from './measure';

const ROWS = 500;
const COLUMNS = 12;
const FIELDS = 60;
const RUNS = 9;
/** Rounds of typing into our dialog and the comparators' forms, taken in turn. */
const ROUNDS = 3;
const PAGE = '/laboratoryManager/basic/benchGrid';

/** A screen of 60 text fields, 12 of them columns, shown 500 rows a page. */
const gridScreen = {
  schemaVersion: 2,
  id: 'bench-grid',
  menuId: 2029903,
  menu: { parentId: 202, path: 'benchGrid' },
  title: { 'zh-CN': '性能测试', 'en-US': 'Bench grid' },
  resource: { name: 'benchGrid' },
  fields: Array.from({ length: FIELDS }, (_, i) => ({
    key: `f${i + 1}`,
    type: 'text',
    label: { 'zh-CN': `字段 ${i + 1}`, 'en-US': `Field ${i + 1}` },
    column: i < COLUMNS,
    sortable: i < COLUMNS,
  })),
  filters: ['f1'],
  list: { pageSizes: [ROWS], defaultSort: { field: 'f1', order: 'asc' }, selection: 'multiple' },
  actions: { toolbar: [{ kind: 'create' }], row: [{ kind: 'edit' }, { kind: 'delete' }], batch: [{ kind: 'delete' }] },
  dialog: { width: 1000, columns: 3 },
};

const rowOf = (n: number) =>
  Object.fromEntries(
    Array.from({ length: COLUMNS }, (_, i) => [`f${i + 1}`, `R${String(n).padStart(4, '0')}-${i + 1} 标本`]),
  );

/** The plain antd Table and default @rjsf form of bench/pages, built for production into a scratch folder. */
async function buildComparators(): Promise<string> {
  const outDir = mkdtempSync(path.join(tmpdir(), 'lims-bench-pages-'));
  await build({
    configFile: false,
    root: path.resolve(import.meta.dirname, 'pages'),
    base: '/bench-pages/',
    plugins: [react()],
    logLevel: 'warn',
    build: { outDir, emptyOutDir: true, chunkSizeWarningLimit: 5000 },
  });
  return outDir;
}

/** Serves the comparator build under the app's origin, so both run with the same browser and settings. */
async function routeComparators(context: BrowserContext, dir: string) {
  await context.route('**/bench-pages/**', async (route) => {
    const url = new URL(route.request().url());
    const file = url.pathname.replace('/bench-pages/', '') || 'index.html';
    await route.fulfill({ path: path.join(dir, file) });
  });
}

/**
 * Our ScreenPage: from the list answer's arrival (resource timing) to the frame after its rows are
 * on screen, starting from an empty table each run.
 */
async function renderScreenPage(page: Page): Promise<number> {
  const query = page.getByRole('button', { name: /查\s*询/ });
  const filter = page.locator('.screen-filters').getByPlaceholder('字段 1');
  const samples: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    await filter.fill('no such row');
    await query.click();
    await page.locator('.screen-page .ant-table-row').first().waitFor({ state: 'detached' });
    await page.locator('.screen-page .ant-spin-spinning').waitFor({ state: 'detached' });
    await filter.fill('');
    const measured = page.evaluate(
      () =>
        new Promise<number>((resolve) => {
          performance.clearResourceTimings();
          const shown = () => document.querySelectorAll('.screen-page .ant-table-row').length > 0;
          const observer = new MutationObserver(() => {
            if (!shown()) return;
            observer.disconnect();
            requestAnimationFrame(() =>
              setTimeout(() => {
                const list = (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).filter((e) =>
                  e.name.includes('/api/resources/benchGrid'),
                );
                resolve(performance.now() - list[list.length - 1]!.responseEnd);
              }, 0),
            );
          });
          observer.observe(document.body, { childList: true, subtree: true });
        }),
    );
    await query.click();
    samples.push(await measured);
  }
  return spread(samples).p50;
}

/**
 * A plain antd Table of bench/pages: from handing it the rows to the frame after they are on screen,
 * emptied and filled again in one page, so that, like ours, every run but the first is warm.
 */
async function renderPlainTable(
  page: Page,
  url: string,
  rows: Record<string, unknown>[],
  view: 'columns' | 'page' | 'virtual',
): Promise<number> {
  await page.goto(`${url}/bench-pages/index.html?view=${view}`);
  await page.waitForFunction(() => typeof window.showRows === 'function');
  await page.evaluate(
    ({ rows, columns }) => {
      window.benchRows = rows;
      window.benchColumns = columns;
    },
    { rows, columns: Array.from({ length: COLUMNS }, (_, i) => `f${i + 1}`) },
  );
  const samples: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    await page.evaluate(() => {
      window.benchRendered = undefined;
      window.clearRows!();
    });
    await page.waitForFunction(() => window.benchRendered === 0);
    await page.evaluate(() => {
      window.benchRendered = undefined;
      window.showRows!();
    });
    samples.push(
      Number(
        await (await page.waitForFunction(() => window.benchRendered, undefined, { timeout: 60_000 })).jsonValue(),
      ),
    );
  }
  return spread(samples).p50;
}

/** Per keystroke in a field (the form's first): from the key event to the frame after the page answered it, once nothing animates. */
async function keystrokes(page: Page, selector = '#root_f1'): Promise<number[]> {
  const field = page.locator(selector);
  await field.waitFor();
  await page.evaluate(() => {
    const w = window as unknown as { keyLatency?: number[] };
    // One listener a document: our page is typed into again each round.
    if (!w.keyLatency)
      document.addEventListener(
        'keydown',
        (event) =>
          requestAnimationFrame(() => setTimeout(() => w.keyLatency!.push(performance.now() - event.timeStamp), 0)),
        true,
      );
    w.keyLatency = [];
  });
  await field.click();
  // Typing starts once the dialog is open and the focus styling has settled, in every form measured:
  // a keystroke during antd's open animation (zoom, ~0.3 s) measures the animation, not the form.
  await page.waitForFunction(() => document.getAnimations().length === 0);
  await page.keyboard.type(TYPED, { delay: 60 });
  await page.waitForFunction(
    (n) => (window as unknown as { keyLatency: number[] }).keyLatency.length >= n,
    TYPED.length,
  );
  return page.evaluate(() => (window as unknown as { keyLatency: number[] }).keyLatency);
}

const TYPED = 'HE-stain-4um-ABCDEFGHIJKLMNOPQRSTUVWXYZ-IHC-Ki67-CD20-CD3-PAS-Masson';
const COMPARATOR_FORMS = ['dialog', 'form', 'input'] as const;
type KeystrokeView = 'ours' | 'inDialog' | (typeof COMPARATOR_FORMS)[number];

/**
 * A bare input put into our open dialog beside its fields: what a keystroke costs the browser in that
 * page (the modal, its 60 fields, the list behind) with no component of ours answering it, the floor
 * our dialog's keystroke is to be read against.
 */
async function bareInputInDialog(page: Page): Promise<number[]> {
  await page.locator('#root_f1').waitFor();
  await page.evaluate(() => {
    const input = document.createElement('input');
    input.id = 'bench-bare-input';
    document.querySelector('.record-dialog .ant-modal-body')!.prepend(input);
  });
  return keystrokes(page, '#bench-bare-input');
}

/**
 * Our record dialog and each comparator typed into in turn, ROUNDS times, each in its own tab of one
 * browser: a drift of the machine during the bench weighs on all of them alike. p50 / p95 of each one's
 * keystrokes over all rounds.
 */
async function keystrokeRounds(app: Page, comparators: Page, url: string) {
  const samples: Record<KeystrokeView, number[]> = { ours: [], inDialog: [], dialog: [], form: [], input: [] };
  for (let round = 0; round < ROUNDS; round++) {
    await app.bringToFront();
    await app.getByRole('button', { name: /新\s*增/ }).click();
    samples.ours.push(...(await keystrokes(app)));
    await app.keyboard.press('Escape');
    await app.locator('.record-dialog').waitFor({ state: 'hidden' });
    await app.getByRole('button', { name: /新\s*增/ }).click();
    samples.inDialog.push(...(await bareInputInDialog(app)));
    await app.keyboard.press('Escape');
    await app.locator('.record-dialog').waitFor({ state: 'hidden' });
    await comparators.bringToFront();
    for (const view of COMPARATOR_FORMS) {
      await comparators.goto(`${url}/bench-pages/index.html?view=${view}`);
      samples[view].push(...(await keystrokes(comparators)));
    }
  }
  return {
    ours: spread(samples.ours),
    inDialog: spread(samples.inDialog),
    dialog: spread(samples.dialog),
    form: spread(samples.form),
    input: spread(samples.input),
  };
}

export const screenBench: Bench = {
  title: `Screen renderer (production build, headless Chromium; ${ROWS} rows × ${COLUMNS} columns, ${FIELDS}-field dialog)`,
  async run() {
    await buildWebApp();
    const schemaDir = copySchemas();
    writeFileSync(path.join(schemaDir, 'screens', 'bench-grid.json'), JSON.stringify(gridScreen));
    const [comparators, server, browser] = await Promise.all([
      buildComparators(),
      startServer({ LIMS_SCHEMA_DIR: schemaDir, LOG_LEVEL: 'error' }),
      launchBrowser(),
    ]);
    try {
      const admin = api(server.url, await tokenFor(server.url, 'admin', DEMO_PASSWORD));
      const rows = Array.from({ length: ROWS }, (_, i) => rowOf(i + 1));
      for (let i = 0; i < rows.length; i += 10)
        await Promise.all(rows.slice(i, i + 10).map((row) => admin.post('/api/resources/benchGrid', row)));

      const context = await benchContext(browser, { viewport: { width: 1600, height: 900 } });
      const page = await context.newPage();
      await routeComparators(context, comparators);
      await signIn(page, server.url, 'admin', DEMO_PASSWORD, PAGE);
      await page.locator('.screen-page .ant-table-row').first().waitFor();
      const ours = await renderScreenPage(page);

      const withIds = rows.map((r, i) => ({ id: i + 1, ...r }));
      const comparatorPage = await context.newPage();
      const plain = await renderPlainTable(comparatorPage, server.url, withIds, 'page');
      const columnsOnly = await renderPlainTable(comparatorPage, server.url, withIds, 'columns');
      const virtual = await renderPlainTable(comparatorPage, server.url, withIds, 'virtual');
      const keys = await keystrokeRounds(page, comparatorPage, server.url);
      await context.close();
      return [
        [`ScreenPage ${ROWS}×${COLUMNS} render, median of ${RUNS} (goal ≤ 150 ms)`, ms(ours)],
        [`plain antd Table, same page (selection, ${COLUMNS} columns, row actions), median of ${RUNS}`, ms(plain)],
        ['  ScreenPage / plain antd Table (goal ≤ 0.15x)', ratio(ours, plain)],
        [
          `plain antd Table, the ${COLUMNS} columns alone, median of ${RUNS}`,
          `${ms(columnsOnly)} (ScreenPage ${ratio(ours, columnsOnly)} of it)`,
        ],
        [
          `antd Table with virtual rows, same page, median of ${RUNS} (antd's floor)`,
          `${ms(virtual)} (${ratio(virtual, plain)} of plain)`,
        ],
        [`RecordDialog ${FIELDS} fields, keystroke p50 / p95 (goal ≤ 16 ms)`, msSpread(keys.ours)],
        [`default @rjsf antd form ${FIELDS} fields in an antd Modal, keystroke p50 / p95`, msSpread(keys.dialog)],
        [
          '  RecordDialog / default @rjsf (goal ≤ 0.3x)',
          `${ratio(keys.ours.p50, keys.dialog.p50)} / ${ratio(keys.ours.p95, keys.dialog.p95)}`,
        ],
        [
          `default @rjsf antd form ${FIELDS} fields alone on a page, keystroke p50 / p95`,
          `${msSpread(keys.form)} (RecordDialog ${ratio(keys.ours.p50, keys.form.p50)} of p50)`,
        ],
        ['bare <input>, keystroke p50 / p95 (the frame itself)', msSpread(keys.input)],
        [
          'bare <input> in our open dialog, keystroke p50 / p95 (the frame of that page)',
          `${msSpread(keys.inDialog)} (${ratio(keys.inDialog.p50, keys.dialog.p50)} of default @rjsf's p50)`,
        ],
      ];
    } finally {
      await browser.close();
      await server.dispose();
      rmSync(comparators, { recursive: true, force: true });
      rmSync(schemaDir, { recursive: true, force: true });
    }
  },
};
