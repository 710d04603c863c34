import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { startServer, DEMO_PASSWORD, type TestServer } from '../support/server';
import { launchBrowser, newPage } from '../support/browser';
import { api, tokenFor } from '../support/client';
import { eventually, signIn } from '../support/shell';

/**
 * The statistics and QC chart screens draw their figures above the table, from the same query: a
 * statistic as bars, the QC chart as one Levey-Jennings chart per plan with its SD lines and the demo
 * runs that broke a rule marked red; a new period redraws both.
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
  // Reports of a period no demo row falls in, so the figures of that period are exactly these.
  admin = api(server.url, await tokenFor(server.url, 'admin', DEMO_PASSWORD));
  const hospitals = await admin.get<{ records: { id: number }[] }>('/api/resources/agentHospital?size=1');
  const hospital = hospitals.body.resultObject.records[0]!.id;
  const report = async (no: string, group: string, day: string) => {
    const res = await admin.post('/api/resources/reportRecord', {
      reportNo: no,
      barcode: no,
      patientName: '图表患者',
      hospital,
      itemNames: '血常规',
      professionalGroup: group,
      reportedAt: `${day} 10:00:00`,
      reviewer: '孙磊',
      status: 'published',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  };
  await report('TC-1', 'T甲组', '2030-03-01');
  await report('TC-2', 'T甲组', '2030-03-01');
  await report('TC-3', 'T乙组', '2030-03-01');
  await report('TC-4', 'T丙组', '2030-03-02');
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
  it('draws a statistic as bars of the same figures as its table, and redraws them for another period', async () => {
    await page.goto(server.url + VOLUME);
    const canvas = chartOf(page).locator('.screen-chart-canvas');
    await canvas.locator('svg').waitFor();
    await expect.poll(() => chartOf(page).getAttribute('data-chart-kind')).toBe('bar');
    // Every figure of the table is a bar, named on the axis; the legend names the value.
    await eventually(async () => (await tableFigures(page)).length).toBeGreaterThan(0);
    const figures = await tableFigures(page);
    await eventually(() => spoken(canvas)).toBe(`标本量：${figures.join('，')}`);
    await eventually(() => words(canvas)).toEqual(
      expect.arrayContaining(['标本量', ...figures.map((f) => f.split(' ')[0]!)]),
    );

    await choosePeriod(page, '2030-03-01', '2030-03-01');
    await eventually(() => spoken(canvas)).toBe('标本量：T甲组 2，T乙组 1');
    expect(await tableFigures(page)).toEqual(['T甲组 2', 'T乙组 1']);
    await eventually(() => words(canvas)).toEqual(expect.arrayContaining(['T甲组', 'T乙组']));
    await eventually(() => words(canvas)).not.toContain('T丙组');

    await choosePeriod(page, '2030-03-02', '2030-03-02');
    await eventually(() => spoken(canvas)).toBe('标本量：T丙组 1');
    await eventually(() => words(canvas)).not.toContain('T甲组');
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
