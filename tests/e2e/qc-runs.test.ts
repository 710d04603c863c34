import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { DEMO_PASSWORD } from '../support/server';
import { newPage } from '../support/browser';
import { api, tokenFor } from '../support/client';
import { serverAndBrowser } from '../support/e2e';
import { eventually, signIn } from '../support/shell';

/**
 * QC runs itself, as a lab sees it: a violating QC series typed on the QC result screen is judged as
 * each run is saved (no evaluate button), the testers of the item's group get the out-of-control alert
 * at once, and the Levey-Jennings chart shows the rejected run marked with its rules over the mean
 * and the ±1, ±2 and ±3 SD lines.
 */
const shared = serverAndBrowser();

const QC_RESULT = '/laboratoryManager/qualityControlManage/qcResult';
const QC_CHART = '/laboratoryManager/qualityControlManage/qcChart';
const PLAN = 'XN-E2E WBC 水平1';
/** The chart's line colours (src/web/charts/chartOptions.ts LINE_STYLE): mean, ±2 SD, ±3 SD. */
const COLOURS = { mean: '#389e0d', twoSd: '#fa8c16', threeSd: '#f5222d' } as const;

/** The line where a new lot starts (chartOptions.ts LOT_CHANGE_COLOR). */
const LOT_CHANGE = '#722ed1';

const dialog = (page: Page) => page.locator('.record-dialog');

/** One QC run typed into the QC result screen's form and saved. */
async function enterRun(page: Page, run: { runAt: string; runNo: string; value: string }) {
  await page.getByRole('button', { name: /新\s*增/ }).click();
  await page.locator('#root_plan').click();
  await page.keyboard.type('XN-E2E');
  const offered = page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option');
  await eventually(() => offered.allTextContents()).toEqual([PLAN]);
  await offered.click();
  await page.locator('#root_runAt').click();
  await page.keyboard.type(run.runAt);
  await page.keyboard.press('Enter');
  await page.locator('#root_runNo').fill(run.runNo);
  await page.locator('#root_value').fill(run.value);
  await dialog(page)
    .getByRole('button', { name: /确\s*定/ })
    .click();
  await dialog(page).waitFor({ state: 'detached' });
}

/** How many pixels of a PNG lie within a small distance of each colour (anti-aliased lines blend at their edges). */
async function pixelsOf(page: Page, png: Buffer, colours: Record<string, string>): Promise<Record<string, number>> {
  return page.evaluate(
    async ({ base64, colours }) => {
      const image = new Image();
      image.src = `data:image/png;base64,${base64}`;
      await image.decode();
      const canvas = document.createElement('canvas');
      canvas.width = image.width;
      canvas.height = image.height;
      const context = canvas.getContext('2d')!;
      context.drawImage(image, 0, 0);
      const { data } = context.getImageData(0, 0, image.width, image.height);
      const rgb = (hex: string) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
      const counts: Record<string, number> = {};
      for (const [name, hex] of Object.entries(colours)) {
        const [r, g, b] = rgb(hex);
        let n = 0;
        for (let i = 0; i < data.length; i += 4)
          if (Math.abs(data[i]! - r!) + Math.abs(data[i + 1]! - g!) + Math.abs(data[i + 2]! - b!) <= 24) n++;
        counts[name] = n;
      }
      return counts;
    },
    { base64: png.toString('base64'), colours },
  );
}

const strokes = (canvas: Locator, colour: string) => canvas.locator(`svg path[stroke="${colour}"]`).count();

describe('a violating QC series entered on the QC result screen', () => {
  it('is judged as it is saved, alerts the group, and shows on the L-J chart over its SD lines', async () => {
    const { server, browser } = shared;
    const admin = api(server.url, await tokenFor(server.url, 'admin', DEMO_PASSWORD));
    const created = async (resource: string, body: Record<string, unknown>) => {
      const res = await admin.post<{ id: number }>(`/api/resources/${resource}`, body);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.resultObject.id;
    };
    const westgard = await admin.get<{ records: { id: number }[] }>(`/api/resources/qcRuleCombination?code=WG6&size=1`);
    const material = await created('qcMaterial', {
      name: 'E2E WBC 质控 水平1',
      lotNo: 'E2E-1',
      itemCode: 'WBC',
      level: 'L1',
      targetMean: 7,
      targetSd: 0.3,
      receivedDate: '2026-01-01',
      expiryDate: '2099-12-31',
    });
    await created('qcPlan', {
      name: PLAN,
      material,
      ruleCombination: westgard.body.resultObject.records[0]!.id,
      instrument: 'XN-E2E',
      frequency: 'daily',
      startDate: '2026-01-01',
    });

    const { page, consoleErrors } = await newPage(browser);
    await signIn(page, server.url, 'admin');
    await page.goto(server.url + QC_RESULT);
    await page.locator('.screen-page[data-screen="qc-result"]').waitFor();

    // In control, then beyond +2 SD (a warning), then beyond +2 SD again: 2-2s rejects the run.
    await enterRun(page, { runAt: '2026-05-01 08:00:00', runNo: 'E2E-0501', value: '7.1' });
    await enterRun(page, { runAt: '2026-05-02 08:00:00', runNo: 'E2E-0502', value: '7.7' });
    await enterRun(page, { runAt: '2026-05-03 08:00:00', runNo: 'E2E-0503', value: '7.75' });

    // The admin tests the white count's group (临检组): the alert comes at once.
    const alert = page.locator('.ant-notification-notice').filter({ hasText: '质控失控' });
    await alert.waitFor();
    expect(await alert.textContent()).toContain(`${PLAN} E2E-0503`);
    expect(await alert.textContent()).toContain('违背 1-2s, 2-2s');
    // The list shows the server's judgement of each run, and who entered it as its operator.
    const row = page.locator('.ant-table-row').filter({ hasText: 'E2E-0503' });
    await row.getByText('1-2s, 2-2s').waitFor();
    await row.getByText('失控').waitFor();
    await row.getByText('系统管理员').waitFor();

    await page.goto(server.url + QC_CHART);
    const panel = page.locator('.screen-chart-panel').filter({ has: page.locator('figcaption', { hasText: PLAN }) });
    const canvas = panel.locator('.screen-chart-canvas');
    await canvas.locator('svg').waitFor();
    await eventually(() => canvas.getAttribute('aria-label')).toBe(
      '测定值：2026-05-01 08:00 7.1，2026-05-02 08:00 7.7，2026-05-03 08:00 7.75；违背规则：2026-05-02 08:00 1-2s，2026-05-03 08:00 1-2s, 2-2s',
    );
    await eventually(() => canvas.locator('svg text').allTextContents()).toEqual(
      expect.arrayContaining(['靶值', '+1SD', '-1SD', '+2SD', '-2SD', '+3SD', '-3SD', '1-2s, 2-2s']),
    );
    // The chart's own SVG: the mean line, the two ±2 SD and two ±3 SD lines (three runs each).
    expect(await strokes(canvas, COLOURS.mean)).toBeGreaterThanOrEqual(1);
    expect(await strokes(canvas, COLOURS.twoSd)).toBeGreaterThanOrEqual(2);
    expect(await strokes(canvas, COLOURS.threeSd)).toBeGreaterThanOrEqual(2);

    // And the picture a user sees: the lines' colours are there in the screenshot.
    const png = await canvas.screenshot({ path: 'test-results/qc-runs-lj-chart.png' });
    const pixels = await pixelsOf(page, png, COLOURS);
    expect(pixels.mean, JSON.stringify(pixels)).toBeGreaterThan(100);
    expect(pixels.twoSd, JSON.stringify(pixels)).toBeGreaterThan(100);
    expect(pixels.threeSd, JSON.stringify(pixels)).toBeGreaterThan(100);

    // A new lot, establishing its own target from its first two in-control runs: the chart draws a
    // line where the lot changes, named by the new lot, and shades the establishing runs.
    const plan = (await admin.get<{ records: Record<string, unknown>[] }>(`/api/resources/qcPlan?name=${PLAN}`)).body
      .resultObject.records[0]!;
    const next = await created('qcMaterial', {
      name: 'E2E WBC 质控 水平1 新批',
      lotNo: 'E2E-2',
      itemCode: 'WBC',
      level: 'L1',
      runsForTarget: 2,
      receivedDate: '2026-05-04',
      expiryDate: '2099-12-31',
    });
    expect((await admin.put(`/api/resources/qcPlan/${plan.id}`, { ...plan, material: next })).status).toBe(200);
    for (const [day, value] of [
      ['05', 7.2],
      ['06', 7.4],
      ['07', 7.3],
    ] as const)
      await created('qcResult', {
        plan: plan.id,
        runAt: `2026-05-${day} 08:00:00`,
        runNo: `E2E-05${day}`,
        value,
      });
    await page.reload();
    await canvas.locator('svg').waitFor();
    await eventually(() => canvas.getAttribute('aria-label')).toContain(
      '批号：2026-05-01 08:00 E2E-1，2026-05-05 08:00 E2E-2；定值期：2026-05-05 08:00 – 2026-05-06 08:00',
    );
    await eventually(() => canvas.locator('svg text').allTextContents()).toEqual(
      expect.arrayContaining(['E2E-2', '定值期']),
    );
    expect(await strokes(canvas, LOT_CHANGE)).toBeGreaterThanOrEqual(1);
    await canvas.screenshot({ path: 'test-results/qc-runs-lj-lot-change.png' });
    expect(consoleErrors).toEqual([]);
  });
});
