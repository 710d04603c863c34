import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startServer, DEMO_PASSWORD, type TestServer } from '../support/server';
import { launchBrowser, newPage } from '../support/browser';
import { api, tokenFor } from '../support/client';
import { signIn } from '../support/shell';
import { pdfText } from '../support/pdfText';
import { enterSpecimens } from '../support/specimens';
import { AXE_SOURCE, violations } from '../support/axe';

let server: TestServer;
let browser: Browser;
let handoverNo: string;
/** Two specimens the front desk entered (their barcodes issued): a handover takes registered specimens only. */
let barcodes: string[];
const PAGE = '/laboratoryManager/handoverManage/handover';

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  const admin = api(server.url, await tokenFor(server.url, 'admin', DEMO_PASSWORD));
  barcodes = await enterSpecimens(admin, 2);
  const created = await admin.post<{ handoverNo: string }>('/api/resources/handoverRecord', {
    fromSite: '萧山物流站',
    toGroup: 'imm',
    storage: 'cold',
    boxNo: 'XS-09',
    barcodes: barcodes.join('\n'),
  });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  handoverNo = created.body.resultObject.handoverNo;
});
afterAll(async () => {
  await browser?.close();
  await server?.dispose();
});

const row = (page: Page) =>
  page.locator('.screen-page .ant-table-tbody tr.ant-table-row').filter({ hasText: handoverNo });
const confirmDialog = (page: Page) => page.locator('.command-dialog');

/** The file a click downloads, as bytes, with the name the browser saves it under. */
async function downloadOf(page: Page, click: () => Promise<void>) {
  const [download] = await Promise.all([page.waitForEvent('download'), click()]);
  return { name: download.suggestedFilename(), body: await readFile((await download.path())!) };
}

describe('handover in the browser (spec 7.2)', () => {
  it('the receiver confirms with their own account and password, the handover shows received, and its slip downloads', async () => {
    const { page, consoleErrors } = await newPage(browser);
    await signIn(page, server.url, 'admin', DEMO_PASSWORD, PAGE);
    await row(page).getByText('待交接').waitFor();

    // A wrong password is refused in the dialog, which stays open.
    await row(page).getByRole('button', { name: '确认接收' }).click();
    await confirmDialog(page).waitFor();
    await page.locator('#root_userAccount').fill('editor');
    await page.locator('#root_passwd').fill('not-the-password');
    expect(await page.locator('#root_passwd').getAttribute('type')).toBe('password');
    await confirmDialog(page)
      .getByRole('button', { name: /确\s*定/ })
      .click();
    await page.getByText('用户名或密码错误，再错4次账号将被锁定').waitFor();
    expect(await confirmDialog(page).count()).toBe(1);
    await row(page).getByText('待交接').waitFor();

    // The right one receives; the printed slip comes back as the answer, and the success takes the
    // place of the wrong try's error (issue 25: it stayed, red, as the only message on screen).
    await page.locator('#root_passwd').fill(DEMO_PASSWORD);
    await page.locator('#root_missing').fill(barcodes[1]!);
    const messagesOnSuccess = page.waitForFunction(
      () => {
        const texts = [...document.querySelectorAll('.ant-message-notice')].map((n) => n.textContent ?? '');
        return texts.some((t) => t.startsWith('确认接收成功')) ? texts : null;
      },
      undefined,
      { polling: 'raf' },
    );
    const slip = await downloadOf(page, () =>
      confirmDialog(page)
        .getByRole('button', { name: /确\s*定/ })
        .click(),
    );
    expect(slip.name).toBe(`标本交接单_${handoverNo}.pdf`);
    expect(await (await messagesOnSuccess).jsonValue()).toEqual([`确认接收成功，已保存 ${slip.name}`]);
    expect(pdfText(slip.body)).toContain(handoverNo);
    await confirmDialog(page).waitFor({ state: 'detached' });
    await row(page).getByText('接收异常').waitFor();
    await row(page).getByText('编辑').waitFor({ state: 'detached' });
    expect(await row(page).getByRole('button', { name: '确认接收' }).count()).toBe(0);

    // The slip prints again from the row, now with the receiver and what was missing.
    const again = await downloadOf(page, () => row(page).getByRole('button', { name: '打印交接单' }).click());
    const text = pdfText(again.body);
    expect(text).toContain(handoverNo);
    expect(text).toContain(`缺失：${barcodes[1]}`);
    const admin = api(server.url, await tokenFor(server.url, 'admin', DEMO_PASSWORD));
    const stored = (
      await admin.get<{ records: Record<string, unknown>[] }>(`/api/resources/handoverRecord?handoverNo=${handoverNo}`)
    ).body.resultObject.records[0]!;
    expect(stored).toMatchObject({ status: 'discrepancy', receivedByAccount: 'editor' });
    // The browser logs the refused try (400) itself; nothing else went wrong.
    expect(consoleErrors).toEqual(['Failed to load resource: the server responded with a status of 400 (Bad Request)']);
  });
});

describe('a box received by scanning its tubes', () => {
  it('shows what is scanned of the slip and what is not, and records the missing and extra tubes from the scans', async () => {
    const admin = api(server.url, await tokenFor(server.url, 'admin', DEMO_PASSWORD));
    const [first, second, third, stray] = (await enterSpecimens(admin, 4)) as [string, string, string, string];
    const created = await admin.post<{ handoverNo: string; id: number }>('/api/resources/handoverRecord', {
      fromSite: '滨江物流站',
      toGroup: 'imm',
      storage: 'cold',
      barcodes: [first, second, third].join('\n'),
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const { handoverNo: number, id } = created.body.resultObject;
    const { page, consoleErrors } = await newPage(browser, 'zh-CN', undefined, AXE_SOURCE);
    await signIn(page, server.url, 'admin', DEMO_PASSWORD, PAGE);
    const slipRow = page.locator('.screen-page .ant-table-tbody tr.ant-table-row').filter({ hasText: number });
    await slipRow.getByRole('button', { name: '确认接收' }).click();
    const dialog = confirmDialog(page);
    await dialog.waitFor();
    // Typed by hand first, then the box scanned: the scans say what is missing, the typed value is not sent.
    await dialog.locator('#root_missing').fill(second);
    const scanner = dialog.locator('#root_scanned');
    for (const code of [first, third, stray, first]) {
      await scanner.fill(code);
      await scanner.press('Enter');
    }
    // The dialog stays open through the scanner's Enters, and says what the scans found.
    const status = dialog.locator('.scan-list-status');
    await status.getByText(`已扫到 2/3 管 · 未扫到：${second} · ${first} 已扫描过`).waitFor();
    await dialog.locator('.scan-list-codes .ant-tag-error').getByText(`${stray}（不在清单中）`).waitFor();
    expect(await dialog.locator('.scan-list-codes .ant-tag').count()).toBe(3);
    // A wrong scan is taken off by keyboard, then scanned again.
    await dialog.getByRole('button', { name: `移除 ${third}` }).focus();
    await page.keyboard.press('Enter');
    await status.getByText(`已扫到 1/3 管 · 未扫到：${second}、${third}`).waitFor();
    await scanner.fill(third);
    await scanner.press('Enter');
    await status.getByText(`已扫到 2/3 管 · 未扫到：${second}`).waitFor();
    expect(await violations(page, 'the scan list of 确认接收', '.command-dialog')).toEqual([]);
    // Missing and extra come from the scans: not asked.
    for (const label of ['缺失条码', '多出条码'])
      expect(await dialog.getByText(label, { exact: true }).isVisible()).toBe(false);
    expect(await dialog.getByText('破损条码', { exact: true }).isVisible()).toBe(true);
    await page.locator('#root_userAccount').fill('editor');
    await page.locator('#root_passwd').fill(DEMO_PASSWORD);
    await dialog.getByRole('button', { name: /确\s*定/ }).click();
    await dialog.waitFor({ state: 'detached' });
    await slipRow.getByText('接收异常').waitFor();
    const lines = (
      await admin.get<{ records: { barcode: string; checkResult: string }[] }>(
        `/api/handover/getSpecimenAimList?recordId=${id}&size=50`,
      )
    ).body.resultObject.records;
    expect(Object.fromEntries(lines.map((l) => [l.barcode, l.checkResult]))).toEqual({
      [first]: 'ok',
      [second]: 'missing',
      [third]: 'ok',
      [stray]: 'extra',
    });
    expect(consoleErrors).toEqual([]);
  });
});

describe('a slip made by scanning its tubes', () => {
  it('adds each scanned tube once (a second scan is pointed out, a pasted list taken whole) and saves the slip with them', async () => {
    const admin = api(server.url, await tokenFor(server.url, 'admin', DEMO_PASSWORD));
    const [first, second, third] = (await enterSpecimens(admin, 3)) as [string, string, string];
    const { page, consoleErrors } = await newPage(browser, 'zh-CN', undefined, AXE_SOURCE);
    await signIn(page, server.url, 'admin', DEMO_PASSWORD, PAGE);
    await page.getByRole('button', { name: /新\s*增/ }).click();
    const dialog = page.locator('.record-dialog');
    await dialog.waitFor();
    await dialog.locator('#root_fromSite').fill('前处理组');
    await dialog.locator('#root_toGroup').click();
    await page.locator('.ant-select-item-option[title="免疫组"]').click();
    await dialog.locator('#root_storage').click();
    await page.locator('.ant-select-item-option[title="常温"]').click();
    const scanner = dialog.locator('#root_barcodes');
    for (const code of [first, first]) {
      await scanner.fill(code);
      await scanner.press('Enter');
    }
    await dialog.locator('.scan-list-status').getByText(`已扫描 1 管 · ${first} 已扫描过`).waitFor();
    // Two more, pasted as one line from a message.
    await scanner.fill(`${second}，${third}`);
    await scanner.press('Enter');
    await dialog.locator('.scan-list-status').getByText('已扫描 3 管', { exact: true }).waitFor();
    expect(await violations(page, 'the new slip', '.record-dialog')).toEqual([]);
    await dialog.getByRole('button', { name: /确\s*定|保\s*存/ }).click();
    await dialog.waitFor({ state: 'detached' });
    const slips = (
      await admin.get<{ records: { barcodes: string; specimenCount: number; fromSite: string }[] }>(
        '/api/resources/handoverRecord?fromSite=前处理组&size=50',
      )
    ).body.resultObject.records;
    const made = slips.find((s) => s.barcodes.includes(first))!;
    expect(made).toMatchObject({ specimenCount: 3, barcodes: [first, second, third].join('\n') });
    expect(consoleErrors).toEqual([]);
  });
});
