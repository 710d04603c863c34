import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startServer, DEMO_PASSWORD, type TestServer } from '../support/server';
import { launchBrowser, newPage } from '../support/browser';
import { api, tokenFor } from '../support/client';
import { signIn } from '../support/shell';
import { pdfText } from '../support/pdfText';
import { enterSpecimens } from '../support/specimens';
import { createRole, createStaff, OWN_PASSWORD } from '../support/workflow';
import { grantAuthority, idByName } from '../support/results';

/**
 * Results to report in the browser (issue 17): values typed on the group's worksheet, flagged by the
 * server; a critical value alerted to a second user who acknowledges it; the tester's own signature
 * refused, the others' signatures accepted; the report issued with values, flags, ranges and signers;
 * invalidated and reissued as a corrected version 2, version 1 still there to download.
 */
let server: TestServer;
let browser: Browser;
let admin: ReturnType<typeof api>;
let editor: ReturnType<typeof api>;

const idOf = (resource: string, name: string) => idByName(admin, resource, name);

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  admin = api(server.url, await tokenFor(server.url, 'admin', DEMO_PASSWORD));
  editor = api(server.url, await tokenFor(server.url, 'editor', DEMO_PASSWORD));
  // An auditor of the clinical group, with pages to work on results and reports.
  await createStaff(server.url, admin, 'shenhe', [await createRole(admin, '审核岗', [20701, 210])]);
  await grantAuthority(admin, 'shenhe', await idOf('professionalGroup', '临检组'), { canAudit: true });
});
afterAll(async () => {
  await browser?.close();
  await server?.dispose();
});

const WORKSHEET = '/laboratoryManager/inspection/generalInspection';
const REPORTS = '/laboratoryManager/reportCard/index';
const rowsOf = (page: Page, barcode: string) =>
  page.locator('.screen-page .ant-table-tbody tr.ant-table-row').filter({ hasText: barcode });

async function filterBarcode(page: Page, barcode: string) {
  const filter = page.locator('.screen-filters input').first();
  await filter.fill(barcode);
  await filter.press('Enter');
  await rowsOf(page, barcode).first().waitFor();
}

/** From the worksheet's grid (specimens × items, where it opens) to the result list, where results are signed. */
async function listView(page: Page) {
  await page.locator('.screen-worksheet .ant-segmented-item').filter({ hasText: '结果列表' }).click();
  await page.locator('[data-testid="worksheet-grid"]').waitFor({ state: 'detached' });
}

/** Selects the rows of the barcode and signs the step with a password in the command's dialog. */
async function sign(page: Page, barcode: string, step: string, password: string) {
  for (const box of await rowsOf(page, barcode).locator('.ant-checkbox-input').all()) await box.check();
  await page.getByRole('button', { name: step }).click();
  const dialog = page.locator('.command-dialog');
  await dialog.waitFor();
  await dialog.locator('input[type="password"]').fill(password);
  await dialog.getByRole('button', { name: /确\s*定/ }).click();
}

async function download(page: Page, row: ReturnType<typeof rowsOf>, name: string): Promise<string> {
  const [file] = await Promise.all([page.waitForEvent('download'), row.getByRole('button', { name }).click()]);
  return pdfText(await readFile((await file.path())!));
}

describe('results on the worksheet to a signed, corrected report', () => {
  // Three people's browsers through a whole report and its correction: over a minute on a 2-core machine.
  it(
    'flags, alerts, signs and reports what the tester typed, and reissues it corrected',
    { timeout: 150_000 },
    async () => {
      const purpose = await idOf('inspectionPurpose', '血常规');
      const [barcode] = await enterSpecimens(editor, 1, {
        patientName: '罗一鸣',
        sex: 'male',
        age: 45,
        purposes: [purpose],
      });
      const specimen = (await admin.get<{ records: { id: number }[] }>(`/api/resources/specimen?barcode=${barcode}`))
        .body.resultObject.records[0]!;
      expect((await editor.post(`/api/resources/specimen/${specimen.id}/transitions/receive`, {})).status).toBe(200);

      // The auditor is signed in elsewhere: the critical value reaches them at once.
      const { page: second } = await newPage(browser);
      await signIn(second, server.url, 'shenhe', OWN_PASSWORD, WORKSHEET);
      await listView(second);

      // The tester types both values on the worksheet's grid, one line per specimen: Tab to the next item.
      const { page: bench, consoleErrors } = await newPage(browser);
      await signIn(bench, server.url, 'editor', DEMO_PASSWORD, WORKSHEET);
      await filterBarcode(bench, barcode!);
      const line = rowsOf(bench, barcode!);
      const wbcInput = line.getByLabel(`${barcode} 白细胞计数`);
      const hgbInput = line.getByLabel(`${barcode} 血红蛋白`);
      await wbcInput.fill('12.3');
      await wbcInput.press('Tab');
      await expect.poll(() => hgbInput.evaluate((el) => el === document.activeElement)).toBe(true);
      await hgbInput.fill('45');
      await bench.getByRole('button', { name: '保存结果（2）' }).click();
      // The flags come from the server, nobody typed them.
      await line.getByText('偏高').waitFor();
      await line.getByText('危急偏低').waitFor();
      // Still open to correction until reviewed: the rounded value stands in the worksheet's input.
      await expect.poll(() => wbcInput.inputValue()).toBe('12.30');
      await listView(bench);

      await second.locator('.ant-notification-notice').filter({ hasText: '血红蛋白 45 g/L' }).waitFor();
      await filterBarcode(second, barcode!);
      await rowsOf(second, barcode!)
        .filter({ hasText: '血红蛋白' })
        .getByRole('button', { name: '危急值确认' })
        .click();
      const ack = second.locator('.command-dialog');
      await ack.waitFor();
      await ack.locator('input').first().fill('心内科 李护士');
      await ack.getByRole('button', { name: /确\s*定/ }).click();
      await ack.waitFor({ state: 'hidden' });

      // The tester may not sign their own results; the admin signs the first review, the auditor the audit.
      await sign(bench, barcode!, '初审签名', DEMO_PASSWORD);
      await bench
        .locator('.ant-message')
        .getByText(/不能审核自己检验的结果/)
        .waitFor();
      const { page: reviewer } = await newPage(browser);
      await signIn(reviewer, server.url, 'admin', DEMO_PASSWORD, WORKSHEET);
      await listView(reviewer);
      await filterBarcode(reviewer, barcode!);
      await sign(reviewer, barcode!, '初审签名', DEMO_PASSWORD);
      await rowsOf(reviewer, barcode!).filter({ hasText: '已初审' }).nth(1).waitFor();
      await second.reload();
      await listView(second);
      await filterBarcode(second, barcode!);
      await sign(second, barcode!, '审核签名', OWN_PASSWORD);
      await rowsOf(second, barcode!).filter({ hasText: '已发布' }).nth(1).waitFor();

      // The report: values, flags, ranges and both signers, as issued.
      await second.goto(`${server.url}${REPORTS}`);
      await filterBarcode(second, barcode!);
      const v1 = rowsOf(second, barcode!);
      const text = await download(second, v1, '查看报告');
      for (const expected of [
        '罗一鸣',
        '白细胞计数',
        '12.30',
        'H ↑',
        '3.5-9.5',
        '血红蛋白',
        '45',
        'LL ↓↓',
        '130-175',
        '系统管理员',
        'shenhe',
      ])
        expect(text).toContain(expected);

      // The lab's administrator invalidates it with its reason and reissues it as version 2, marked
      // corrected; version 1 still downloads.
      await reviewer.goto(`${server.url}${REPORTS}`);
      await filterBarcode(reviewer, barcode!);
      const issued = rowsOf(reviewer, barcode!);
      await issued.getByRole('button', { name: '作废' }).click();
      const invalidate = reviewer.locator('.command-dialog');
      await invalidate.locator('textarea').fill('患者年龄录入错误');
      await invalidate.getByRole('button', { name: /确\s*定/ }).click();
      await issued.getByText('已作废').waitFor();
      await issued.getByRole('button', { name: '重新发布' }).click();
      await reviewer
        .locator('.ant-modal-confirm')
        .getByRole('button', { name: /确\s*定/ })
        .click();
      await expect.poll(() => rowsOf(reviewer, barcode!).count()).toBe(2);
      const corrected = rowsOf(reviewer, barcode!).filter({ hasNotText: '已作废' });
      expect(await download(reviewer, corrected, '查看报告')).toContain('第2版（更正报告');
      const first = rowsOf(reviewer, barcode!).filter({ hasText: '已作废' });
      expect(await download(reviewer, first, '查看报告')).toContain('第1版');
      // The one refused signature answered 400, which the browser logs; nothing else went wrong.
      expect(consoleErrors.filter((e) => !e.includes('status of 400'))).toEqual([]);
    },
  );
});

describe('a tube refused at the bench', () => {
  it('leaves the worksheet with nothing to type: its cells read 已作废', async () => {
    const purpose = await idOf('inspectionPurpose', '血常规');
    const [barcode] = await enterSpecimens(editor, 1, {
      patientName: '溶血管',
      sex: 'female',
      age: 33,
      purposes: [purpose],
    });
    const specimen = (await admin.get<{ records: { id: number }[] }>(`/api/resources/specimen?barcode=${barcode}`)).body
      .resultObject.records[0]!;
    expect((await editor.post(`/api/resources/specimen/${specimen.id}/transitions/receive`, {})).status).toBe(200);
    const reason = (await admin.get<{ records: { id: number }[] }>('/api/resources/abnormalSampleType?size=1')).body
      .resultObject.records[0]!.id;
    const reject = await editor.post(`/api/resources/specimen/${specimen.id}/transitions/reject`, {
      rejectReason: reason,
    });
    expect(reject.status).toBe(200);

    const { page, consoleErrors } = await newPage(browser);
    await signIn(page, server.url, 'editor', DEMO_PASSWORD, WORKSHEET);
    await filterBarcode(page, barcode!);
    const line = rowsOf(page, barcode!);
    await expect.poll(() => line.locator('.worksheet-grid-state').allTextContents()).toEqual(['已作废', '已作废']);
    expect(await line.locator('input').count()).toBe(0);
    expect(consoleErrors).toEqual([]);
  });
});
