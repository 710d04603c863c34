import { describe, expect, it } from 'vitest';
import type { Locator } from 'playwright-core';
import { newPage } from '../support/browser';
import { api, tokenFor } from '../support/client';
import { serverAndBrowser } from '../support/e2e';
import { DEMO_PASSWORD } from '../support/server';
import { eventually, signIn } from '../support/shell';

/**
 * Issue 25, as a user works with a list: a command shows what it answered; a form's controls are as
 * wide as their values; a table wider than the window says it scrolls; the columns a user hides stay
 * hidden for that user.
 */
const run = serverAndBrowser();

const BARCODE_RULES = '/laboratoryManager/barcode/barcodeRule';
const FRONT_ENTRY = '/laboratoryManager/permission/frontEntry';
const HANDOVERS = '/laboratoryManager/handoverManage/handover';

const widthOf = async (locator: Locator) => (await locator.boundingBox())!.width;

describe('the outcome of a command', () => {
  it('取号 shows the number it issued, the one the rule now records, until the user closes it', async () => {
    const { page, consoleErrors } = await newPage(run.browser);
    await signIn(page, run.server.url, 'admin', DEMO_PASSWORD, BARCODE_RULES);
    const row = page.locator('.screen-page tr.ant-table-row').first();
    const code = (await row.locator('td.screen-col-code').innerText()).trim();
    const admin = api(run.server.url, await tokenFor(run.server.url, 'admin', DEMO_PASSWORD));
    const ruleNow = async () =>
      (await admin.get<{ records: { lastBarcode?: string }[] }>(`/api/resources/barcodeRule?code=${code}`)).body
        .resultObject.records[0]!;

    const issued: string[] = [];
    for (let i = 0; i < 2; i++) {
      await row.getByRole('button', { name: '取号' }).click();
      const box = page.locator('.command-result');
      await box.waitFor();
      expect(await box.locator('.ant-modal-confirm-title').innerText()).toBe('取号成功');
      const value = box.locator('.command-result-value');
      expect(await value.locator('dt').innerText()).toBe('条码号');
      issued.push((await value.locator('dd .ant-typography').innerText()).trim());
      // The box stays until closed: a number is copied onto a form, not read in a second.
      await box.getByRole('button', { name: /关\s*闭/ }).click();
      await box.waitFor({ state: 'detached' });
    }
    expect(issued[0]).toMatch(/\d{4,}$/);
    expect(issued[1]).not.toBe(issued[0]);
    expect((await ruleNow()).lastBarcode).toBe(issued[1]);
    // The list, reloaded, says the same.
    await row.locator('td.screen-col-lastBarcode').getByText(issued[1]!).waitFor();
    expect(consoleErrors).toEqual([]);
    await page.context().close();
  });
});

describe('a form’s controls', () => {
  it('are as wide as their values: a switch, a number and a date beside a text filling its column', async () => {
    const { page, consoleErrors } = await newPage(run.browser);
    await signIn(page, run.server.url, 'admin', DEMO_PASSWORD, BARCODE_RULES);
    await page
      .locator('.screen-page .screen-toolbar')
      .getByRole('button', { name: /新\s*增/ })
      .click();
    const dialog = page.locator('.record-dialog');
    await dialog.waitFor();
    const column = await widthOf(dialog.locator('.screen-field').filter({ has: page.locator('#root_name') }));
    const nameInput = dialog.locator('.ant-input-affix-wrapper').filter({ has: page.locator('#root_name') });
    expect(await widthOf(nameInput)).toBeGreaterThan(column * 0.95);
    expect(await widthOf(page.locator('button#root_enabled'))).toBeLessThan(80);
    expect(await widthOf(dialog.locator('.control-number .ant-input-number'))).toBeLessThanOrEqual(180);
    await dialog.getByRole('button', { name: /取\s*消/ }).click();
    await dialog.waitFor({ state: 'detached' });

    await page.goto(`${run.server.url}${FRONT_ENTRY}`);
    await page
      .locator('.screen-page .screen-toolbar')
      .getByRole('button', { name: /新\s*增/ })
      .click();
    await page.locator('.record-dialog').waitFor();
    const picker = page.locator('.record-dialog .control-datetime .ant-picker').first();
    expect(await widthOf(picker)).toBeLessThanOrEqual(220);
    expect(consoleErrors).toEqual([]);
    await page.context().close();
  });
});

describe('a table wider than the window', () => {
  it('shows a shadow at the edge that has more, pinned key columns beside it, and hides the columns a user chose, per user', async () => {
    const { page, consoleErrors } = await newPage(run.browser, 'zh-CN', { width: 1366, height: 768 });
    await signIn(page, run.server.url, 'admin', DEMO_PASSWORD, HANDOVERS);
    const table = page.locator('.screen-page .ant-table-wrapper');
    await table.locator('tr.ant-table-row').first().waitFor();
    const shadows = () =>
      table.evaluate((t) => ({
        right: t.querySelectorAll('.ant-table-cell-fix-end-shadow-show').length > 0,
        left: t.querySelectorAll('.ant-table-cell-fix-start-shadow-show').length > 0,
      }));
    // As it opens, more lies to the right; scrolled to its end, more lies to the left.
    await eventually(shadows).toEqual({ right: true, left: false });
    await table.locator('.ant-table-body').evaluate((body) => body.scrollTo({ left: body.scrollWidth }));
    await eventually(shadows).toEqual({ right: false, left: true });
    const status = table.locator('thead th.screen-col-status');
    expect(await status.getAttribute('class')).toMatch(/ant-table-cell-fix/);

    // The column picker: a key column cannot be hidden, another can, and stays hidden after a reload.
    const header = (key: string) => table.locator(`thead th.screen-col-${key}`);
    await page.getByRole('button', { name: '列设置' }).click();
    const picker = page.locator('.column-picker');
    await picker.waitFor();
    expect(await picker.getByRole('checkbox', { name: '交接单号' }).isDisabled()).toBe(true);
    await picker.getByRole('checkbox', { name: '封签号' }).uncheck();
    await header('sealNo').waitFor({ state: 'detached' });
    await page.reload();
    await table.locator('tr.ant-table-row').first().waitFor();
    expect(await header('sealNo').count()).toBe(0);

    // Another user of the same browser sees every column; the first finds them as they left them.
    const signOut = async () => {
      await page.getByRole('button', { name: 'user-menu' }).click();
      await page.getByRole('menuitem', { name: '退出登录' }).click();
      await page.waitForURL(/\/login/);
    };
    await signOut();
    await signIn(page, run.server.url, 'editor', DEMO_PASSWORD, HANDOVERS);
    await header('sealNo').waitFor();
    await signOut();
    await signIn(page, run.server.url, 'admin', DEMO_PASSWORD, HANDOVERS);
    await table.locator('tr.ant-table-row').first().waitFor();
    expect(await header('sealNo').count()).toBe(0);
    expect(consoleErrors).toEqual([]);
    await page.context().close();
  });
});
