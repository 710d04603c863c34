import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { startServer, DEMO_PASSWORD, type TestServer } from '../support/server';
import { launchBrowser, newPage } from '../support/browser';
import { api, tokenFor } from '../support/client';
import { eventually, signIn } from '../support/shell';
import { enterSpecimens } from '../support/specimens';
import { idByName } from '../support/results';
import { localDateTime } from '../../src/shared/time';
import { readFile } from 'node:fs/promises';

/**
 * The statistics and QC chart screens draw their figures above the table, from the same query: a
 * statistic (specimens through the lifecycle) as bars, exported as a picture; the QC chart as one
 * Levey-Jennings chart per plan with its SD lines and the demo runs that broke a rule marked red; a new
 * period redraws both.
 */
let server: TestServer;
let browser: Browser;
let page: Page;
let consoleErrors: string[];
let admin: ReturnType<typeof api>;

const VOLUME = '/laboratoryManager/kibana/professionalGroupVolume';
const QC_CHART = '/laboratoryManager/qualityControlManage/qcChart';
/** The red of a rule violation (src/web/charts/chartOptions.ts VIOLATION_COLOR). */
const RED = '#f5222d';

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  // Specimens received today through the lifecycle (the demo rows have no history): today's figures are exactly these.
  admin = api(server.url, await tokenFor(server.url, 'admin', DEMO_PASSWORD));
  const received = async (purpose: string, n: number) => {
    const barcodes = await enterSpecimens(admin, n, {
      purposes: [await idByName(admin, 'inspectionPurpose', purpose)],
    });
    for (const barcode of barcodes) {
      const [specimen] = (await admin.get<{ records: { id: number }[] }>(`/api/resources/specimen?barcode=${barcode}`))
        .body.resultObject.records;
      expect((await admin.post(`/api/resources/specimen/${specimen!.id}/transitions/receive`, {})).status).toBe(200);
    }
  };
  await received('血常规', 2);
  await received('肝功能', 1);
  ({ page, consoleErrors } = await newPage(browser));
  await signIn(page, server.url, 'admin');
});
afterAll(async () => {
  await browser?.close();
  await server?.dispose();
});

const chartOf = (page: Page) => page.locator('.screen-chart');
/** What the chart says it draws (its accessible description), once drawn. */
const spoken = (canvas: Locator) => canvas.getAttribute('aria-label');
const words = (canvas: Locator) => canvas.locator('svg text').allTextContents();

/** Chooses a period in the screen's date-range filter and asks again. */
async function choosePeriod(page: Page, from: string, to: string) {
  const inputs = page.locator('.screen-filters .ant-picker input');
  await inputs.nth(0).click();
  await inputs.nth(0).fill(from);
  await page.keyboard.press('Enter');
  await inputs.nth(1).fill(to);
  await page.keyboard.press('Enter');
  await page
    .locator('.screen-filters')
    .getByRole('button', { name: /查\s*询/ })
    .click();
}

/** The table's rows as "专业组 标本量" (e.g. "生化组 2"), in its order. */
async function tableFigures(page: Page): Promise<string[]> {
  const headers = (await page.locator('.screen-page .ant-table-thead th').allTextContents()).map((h) => h.trim());
  const columns = [headers.indexOf('专业组'), headers.indexOf('标本量')];
  expect(columns).not.toContain(-1);
  const rows = page.locator('.screen-page .ant-table-tbody tr.ant-table-row');
  return rows.evaluateAll(
    (trs, [group, count]) => trs.map((tr) => `${tr.children[group!]!.textContent} ${tr.children[count!]!.textContent}`),
    columns,
  );
}

describe('statistics charts', () => {
  it('draws a statistic as bars of the same figures as its table, redraws them for another period, and exports its picture', async () => {
    await page.goto(server.url + VOLUME);
    const canvas = chartOf(page).locator('.screen-chart-canvas');
    await canvas.locator('svg').waitFor();
    await expect.poll(() => chartOf(page).getAttribute('data-chart-kind')).toBe('bar');
    // Every figure of the table is a bar, named on the axis: the specimens received per group.
    await eventually(() => tableFigures(page)).toEqual(['临检组 2', '生化组 1']);
    await eventually(() => spoken(canvas)).toBe('标本量：临检组 2，生化组 1');
    await eventually(() => words(canvas)).toEqual(expect.arrayContaining(['标本量', '临检组', '生化组']));

    const today = localDateTime(new Date()).slice(0, 10);
    await choosePeriod(page, today, today);
    await eventually(() => spoken(canvas)).toBe('标本量：临检组 2，生化组 1');
    // The picture as the chart draws it, a PNG.
    const [picture] = await Promise.all([
      page.waitForEvent('download'),
      chartOf(page).getByRole('button', { name: '导出图片 (PNG)' }).click(),
    ]);
    const png = await readFile((await picture.path())!);
    expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
    expect(png.length).toBeGreaterThan(2000);

    await choosePeriod(page, '2020-01-01', '2020-01-01');
    await chartOf(page).locator('.ant-empty').waitFor();
    await eventually(() => tableFigures(page)).toEqual([]);
    expect(consoleErrors).toEqual([]);
  });

  it('draws a Levey-Jennings chart per QC plan with its mean and SD lines, marks the runs that broke a rule, and redraws for a period', async () => {
    await page.goto(server.url + QC_CHART);
    const panels = page.locator('.screen-chart-panel');
    const panel = (plan: string) => panels.filter({ has: page.locator('figcaption', { hasText: plan }) });
    const glu = panel('AU5800-1 GLU 水平1').locator('.screen-chart-canvas');
    await glu.locator('svg').waitFor();
    await eventually(() => page.locator('.screen-chart-panel figcaption').allTextContents()).toEqual(
      expect.arrayContaining(['AU5800-1 GLU 水平1', 'AU5800-1 GLU 水平2', 'AU5800-1 K 水平1']),
    );
    // The demo's GLU level 1 runs: a 1-2s warning, then 1-2s with 2-2s (rejected).
    await eventually(() => spoken(glu)).toBe(
      '测定值：2026-01-18 08:05 5.18，2026-01-19 08:02 5.47，2026-01-20 08:04 5.49；违背规则：2026-01-19 08:02 1-2s，2026-01-20 08:04 1-2s, 2-2s',
    );
    // The ±1 SD lines come with the figures: mean 5.2, SD 0.12.
    const points = await admin.get<{ records: Record<string, unknown>[] }>(
      '/api/qc/chart?runAtFrom=2026-01-18&runAtTo=2026-01-18',
    );
    expect(points.body.resultObject.records).toEqual([
      expect.objectContaining({ value: 5.18, lower1s: 5.08, upper1s: 5.32 }),
    ]);
    await eventually(() => words(glu)).toEqual(
      expect.arrayContaining([
        '测定值',
        '违背规则',
        '靶值',
        '+1SD',
        '-1SD',
        '+2SD',
        '-2SD',
        '+3SD',
        '-3SD',
        '1-2s',
        '1-2s, 2-2s',
      ]),
    );
    // Two red marks on the chart, and the legend's.
    await eventually(() => glu.locator(`svg path[fill="${RED}"]`).count()).toBe(3);
    const k = panel('AU5800-1 K 水平1').locator('.screen-chart-canvas');
    await eventually(() => words(k)).toContain('1-3s');
    await eventually(() => k.locator(`svg path[fill="${RED}"]`).count()).toBe(2);

    await choosePeriod(page, '2026-01-18', '2026-01-19');
    await eventually(() => page.locator('.screen-chart-panel figcaption').allTextContents()).toEqual([
      'AU5800-1 GLU 水平1',
    ]);
    await eventually(() => spoken(glu)).toBe(
      '测定值：2026-01-18 08:05 5.18，2026-01-19 08:02 5.47；违背规则：2026-01-19 08:02 1-2s',
    );
    await eventually(() => words(glu)).not.toContain('1-2s, 2-2s');
    // A removed mark fades out: wait for it to go.
    await eventually(() => glu.locator(`svg path[fill="${RED}"]`).count()).toBe(2);
    expect(consoleErrors).toEqual([]);
  });
});
