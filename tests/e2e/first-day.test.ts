import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { newPage } from '../support/browser';
import { serverAndBrowser } from '../support/e2e';
import { DEMO_PASSWORD } from '../support/server';
import { eventually, openFromSidebar, signIn, waitForDashboard } from '../support/shell';

/**
 * A newcomer's first day (issue 24), from a fresh data directory: the front-desk worker (not an admin)
 * signs in, reads the day's counts on the dashboard, enters a specimen on the everyday intake screen
 * (whose dialog keeps its buttons on a 1366×768 screen), and finds its process's first task with a form;
 * the Chinese pages show no English words, the English ones no Chinese but the lab's data.
 */
const run = serverAndBrowser();
const FRONT_ENTRY = '/laboratoryManager/permission/frontEntry';
const SCREEN = { width: 1366, height: 768 };

const tileCount = async (page: Page, key: string) =>
  Number(await page.locator(`[data-tile="${key}"] .ant-statistic-content-value`).innerText());

/** Picks the option of an open antd select whose text matches, after typing to narrow the list. */
async function choose(page: Page, control: string, typed: string, option: RegExp) {
  await page.locator(control).click();
  if (typed) await page.keyboard.type(typed);
  const offered = page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option');
  await offered.filter({ hasText: option }).first().click();
  // A multiple choice stays open: a click on the first label closes it (Escape would close the dialog).
  await page.locator('label[for="root_patientName"]').click();
}

/** English words (3 letters or more) in a text; the lab's codes and units (HPV, mmol) are listed as data. */
const DATA_WORDS = new Set(['LIMS', 'HPV', 'TCT', 'Code128', 'QR', 'Excel', 'PDF', 'PNG', 'xlsx']);
const englishWords = (text: string) => (text.match(/[A-Za-z]{3,}/g) ?? []).filter((w) => !DATA_WORDS.has(w));
const hanCharacters = (text: string) => text.match(/\p{Script=Han}+/gu) ?? [];

/** The words of the page's own chrome: menu, tabs, headings, column titles, filter labels, buttons, help. */
async function chromeText(page: Page, scopes: string[]): Promise<string> {
  const texts = await Promise.all(
    scopes.map((s) =>
      page
        .locator(s)
        .allInnerTexts()
        .catch(() => [] as string[]),
    ),
  );
  return texts.flat().join('\n');
}
const CHROME = [
  '.sidebar .ant-menu',
  'nav.tags-view',
  '.dashboard-counts .ant-card-head-title',
  '.dashboard-counts .ant-statistic-title',
  '.task-panels .ant-card-head-title',
  '.task-panels th',
  '.screen-page thead th',
  '.screen-filters label',
  '.screen-toolbar button',
];

async function okButtonInView(dialog: Locator): Promise<boolean> {
  const ok = dialog.getByRole('button', { name: /确\s*定/ });
  const box = await ok.boundingBox();
  return box !== null && box.y >= 0 && box.y + box.height <= SCREEN.height;
}

describe("a newcomer's first day", () => {
  it('enters a specimen on the everyday intake screen and finds its first task with a form, all in Chinese', async () => {
    const { page, consoleErrors } = await newPage(run.browser, 'zh-CN', SCREEN);
    await signIn(page, run.server.url, 'editor', DEMO_PASSWORD, '/dashboard');
    await waitForDashboard(page);
    await page.locator('[data-tile="specimens.entered"]').waitFor();
    const before = await tileCount(page, 'specimens.entered');
    expect(englishWords(await chromeText(page, CHROME))).toEqual([]);

    await openFromSidebar(page, FRONT_ENTRY);
    await page
      .locator('.screen-page')
      .getByRole('button', { name: /新\s*增/ })
      .click();
    const dialog = page.locator('.record-dialog');
    await dialog.waitFor();
    // The whole form is in the dialog's body, which scrolls; 确定 stays on the screen.
    expect(await okButtonInView(dialog)).toBe(true);
    const help = await dialog.locator('.screen-field-help').allInnerTexts();
    expect(help.length).toBeGreaterThan(3);
    expect(englishWords(help.join('\n'))).toEqual([]);
    expect(englishWords(await chromeText(page, CHROME))).toEqual([]);

    await page.locator('#root_patientName').fill('第一天');
    await choose(page, '#root_sex', '', /^女$/);
    await choose(page, '#root_hospital', '', /./);
    await choose(page, '#root_purposes', '组织病理', /组织病理检查/);
    await choose(page, '#root_specimenType', '', /./);
    await page.locator('#root_collectedAt').click();
    await page.keyboard.type('2026-11-26 08:00:00');
    await page.keyboard.press('Enter');
    await dialog.getByRole('button', { name: /确\s*定/ }).click();
    await dialog.waitFor({ state: 'detached' });
    const row = page.locator('.screen-page tr.ant-table-row').filter({ hasText: '第一天' });
    await row.getByText('已登记').waitFor();
    const barcode = (await row.locator('td.screen-col-barcode').innerText()).trim();
    expect(barcode).toMatch(/^\d{10}$/);

    // Back on the dashboard: the count moved (push news), and the specimen's process waits at 取材.
    await page.locator(`nav.tags-view .tags-view-item[data-path="/dashboard"]`).click();
    await eventually(() => tileCount(page, 'specimens.entered')).toBe(before + 1);
    const task = page.locator('[data-testid="todo-tasks"] .task-row').filter({ hasText: barcode });
    await eventually(() => task.count()).toBe(1);
    expect(await task.innerText()).toContain('取材');
    await task.getByRole('button', { name: /办\s*理/ }).click();
    const taskDialog = page.locator('.task-dialog');
    await taskDialog.getByText('取材部位').waitFor();
    expect(await taskDialog.getByText('该任务没有表单').count()).toBe(0);
    expect(await okButtonInView(taskDialog).catch(() => true)).toBe(true);

    // The count links to the intake list, filtered to what it counted.
    await taskDialog.getByRole('button', { name: /取\s*消/ }).click();
    const registered = await tileCount(page, 'specimens.registered');
    await page.locator('[data-tile="specimens.registered"] a').click();
    await page.waitForURL((u) => u.pathname === FRONT_ENTRY && u.searchParams.get('status') === 'registered');
    // Filtered as counted: registered, entered today, ordering what the editor's groups test (by name).
    const filters = page.locator('.screen-filters');
    await filters.getByText('已登记').waitFor();
    await filters.getByText('组织病理检查').waitFor();
    await eventually(() => page.locator('.screen-page tr.ant-table-row').count()).toBe(registered);
    expect(registered).toBeGreaterThan(0);
    expect(consoleErrors).toEqual([]);
    await page.context().close();
  }, 150_000); // The whole walk, intake to task form: a minute on a quiet machine.

  it('shows the English pages with no Chinese words but the lab’s data', async () => {
    const { page, consoleErrors } = await newPage(run.browser, 'en-US', SCREEN);
    await page.addInitScript(() => localStorage.setItem('lims-locale', 'en-US'));
    await page.goto(`${run.server.url}/login`);
    await page.getByPlaceholder('User name').fill('editor');
    await page.getByPlaceholder('Password').fill(DEMO_PASSWORD);
    await page.locator('button.login-submit').click();
    await page.waitForURL((u) => u.pathname !== '/login');
    await waitForDashboard(page);
    await page.locator('[data-tile="specimens.entered"]').waitFor();
    expect(hanCharacters(await chromeText(page, CHROME))).toEqual([]);

    await openFromSidebar(page, FRONT_ENTRY);
    await page.locator('.screen-page thead th').first().waitFor();
    expect(hanCharacters(await chromeText(page, CHROME))).toEqual([]);
    await page.locator('.screen-page').getByRole('button', { name: /^Add$/ }).click();
    await page.locator('.record-dialog .screen-field-help').first().waitFor();
    const help = await page.locator('.record-dialog .screen-field-help').allInnerTexts();
    expect(help.length).toBeGreaterThan(3);
    expect(hanCharacters(help.join('\n'))).toEqual([]);
    expect(consoleErrors).toEqual([]);
    await page.context().close();
  });
});
