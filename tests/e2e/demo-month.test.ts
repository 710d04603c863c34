import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { startServer, DEMO_PASSWORD, type TestServer } from '../support/server';
import { launchBrowser, newPage } from '../support/browser';
import { api, tokenFor } from '../support/client';
import { eventually, signIn } from '../support/shell';
import { localDateTime } from '../../src/shared/time';

/**
 * Issue 19 "done when": a fresh start makes the demo month in the background (here 2 days × 12
 * specimens, LIMS_DEMO_MONTH, small enough for a busy test machine), the app usable meanwhile; once it
 * is done the screens a lab manager evaluates show it: the work list, the statistics chart, the QC
 * chart, the report query and the statements, each a screenshot kept under the temp folder and
 * checked for drawn figures and table rows.
 */
let server: TestServer;
let browser: Browser;
let page: Page;
let consoleErrors: string[];
// Kept as the run's artefacts, beside the screen-fit ones.
const SHOTS = path.resolve(import.meta.dirname, '../../test-results/demo-month');

const wall = new Date();
const lastDay = localDateTime(new Date(wall.getTime() - 6 * 3600_000 - 86_400_000)).slice(0, 10);
const firstDay = localDateTime(new Date(wall.getTime() - 6 * 3600_000 - 2 * 86_400_000)).slice(0, 10);

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  [server, browser] = await Promise.all([startServer({ LIMS_DEMO_MONTH: '2x12' }), launchBrowser()]);
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await server?.dispose();
});

const rows = (page: Page) => page.locator('.screen-page .ant-table-tbody tr.ant-table-row');
const chartOf = (page: Page) => page.locator('.screen-chart');
const spoken = (canvas: Locator) => canvas.getAttribute('aria-label');

/** Chooses a period in the screen's date-range filter and asks again. */
async function choosePeriod(from: string, to: string) {
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

/** A screen with rows in its table, photographed. */
async function listed(route: string, name: string): Promise<number> {
  await page.goto(server.url + route);
  await eventually(() => rows(page).count(), 30_000).toBeGreaterThan(0);
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
  return rows(page).count();
}

describe('a fresh start with the demo month', () => {
  it('is usable at once, logs its progress, and fills the lab in the background', { timeout: 900_000 }, async () => {
    // Signed in and answered while the month is still being made.
    const admin = api(server.url, await tokenFor(server.url, 'admin', DEMO_PASSWORD));
    expect((await admin.get('/api/user/me')).status).toBe(200);
    expect(server.output()).toContain('Demo month: 2 days × 12 specimens being made in the background');
    expect(server.output()).not.toContain('Demo month done');
    await expect
      .poll(() => server.output(), { timeout: 840_000, interval: 2000 })
      .toMatch(/Demo month done: 24 specimens|Demo month stopped/);
    expect(server.output()).toContain('Demo month done: 24 specimens');
    expect(server.output()).toMatch(/Demo month: 100% \(24\/24 specimens, day 2 of 2/);
    // A restart finds the month made and makes nothing more.
    server = await server.restart();
    expect(server.output()).not.toContain('Demo month:');
  });

  it(
    'shows the month on the work list, statistics, QC chart, report query and statements',
    { timeout: 300_000 },
    async () => {
      ({ page, consoleErrors } = await newPage(browser));
      await signIn(page, server.url, 'admin');
      await page.screenshot({ path: path.join(SHOTS, 'dashboard.png'), fullPage: true });

      expect(await listed('/laboratoryManager/inspection/generalInspection', 'work-list')).toBeGreaterThan(10);
      expect(await listed('/laboratoryManager/reportCard/index', 'report-query')).toBeGreaterThan(10);
      expect(await listed('/laboratoryManager/financialProcessing/reconciliation', 'statements')).toBeGreaterThan(0);

      await page.goto(server.url + '/laboratoryManager/kibana/professionalGroupVolume');
      await choosePeriod(firstDay, lastDay);
      const volume = chartOf(page).locator('.screen-chart-canvas');
      await volume.locator('svg').waitFor();
      // Bars per group for the two days: the blood counts, the chemistry and the thyroid tests.
      await eventually(() => spoken(volume), 30_000).toMatch(/^标本量：.*临检组 \d+/);
      expect(await rows(page).count()).toBeGreaterThan(1);
      await page.screenshot({ path: path.join(SHOTS, 'statistics.png'), fullPage: true });

      await page.goto(server.url + '/laboratoryManager/qualityControlManage/qcChart');
      await choosePeriod(firstDay, lastDay);
      const panels = page.locator('.screen-chart-panel figcaption');
      // The period's plans only: the demo data's January runs (HBA1C) are left out once the period applies.
      await eventually(() => panels.allTextContents(), 30_000).not.toContain('D-100 HBA1C 水平1');
      await eventually(() => panels.allTextContents(), 30_000).toEqual(
        expect.arrayContaining(['BC-6800 WBC 水平2', 'AU5800-1 ALT 水平1', 'Cobas e601 TSH 水平2']),
      );
      // Two runs a day on each plan's Levey-Jennings chart.
      const wbc = page
        .locator('.screen-chart-panel')
        .filter({ has: page.locator('figcaption', { hasText: 'BC-6800 WBC 水平2' }) })
        .locator('.screen-chart-canvas');
      await eventually(async () => ((await spoken(wbc)) ?? '').split('，').length, 30_000).toBeGreaterThanOrEqual(4);
      await page.screenshot({ path: path.join(SHOTS, 'qc-chart.png'), fullPage: true });
      expect(consoleErrors).toEqual([]);
    },
  );
});
