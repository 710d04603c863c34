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
import { deployXml, modelXml } from '../support/workflow';

/**
 * One specimen through the lab in the browser (issue 16): entered at the front desk with its barcode
 * issued, its label printed, handed over and received by a user of another group, scanned at the
 * bench, in the inspection work list of its group with its whole timeline; a second one rejected at
 * the bench, an unqualified specimen, its submitter alerted; tubes collected together from the list,
 * and their receipt tasks completed together from the work list.
 */
let server: TestServer;
let browser: Browser;
let editor: ReturnType<typeof api>;
let admin: ReturnType<typeof api>;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  editor = api(server.url, await tokenFor(server.url, 'editor', DEMO_PASSWORD));
  admin = api(server.url, await tokenFor(server.url, 'admin', DEMO_PASSWORD));
});
afterAll(async () => {
  await browser?.close();
  await server?.dispose();
});

const rowOf = (page: Page, barcode: string) =>
  page.locator('.screen-page .ant-table-tbody tr.ant-table-row').filter({ hasText: barcode });

async function scan(page: Page, barcode: string) {
  const input = page.locator('.screen-scan input');
  await input.fill(barcode);
  await input.press('Enter');
  await rowOf(page, barcode).waitFor();
}

describe('a specimen from entry to the inspection work list', () => {
  it('is issued a barcode, labelled, handed over, received by another group, scanned and traced', async () => {
    // The front desk (editor) enters it: no barcode typed, the lab's tube rule issues one.
    const [barcode] = await enterSpecimens(editor, 1, { patientName: '林小满' });
    expect(barcode).toMatch(/^\d{10}$/);

    const { page, consoleErrors } = await newPage(browser);
    await signIn(page, server.url, 'editor', DEMO_PASSWORD, '/laboratoryManager/permission/frontEntry');
    const row = rowOf(page, barcode!);
    await row.getByText('已登记').waitFor();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      row.getByRole('button', { name: '打印标签' }).click(),
    ]);
    const label = await readFile((await download.path())!);
    const text = pdfText(label);
    expect(text).toContain(barcode);
    expect(text).toContain('林小满');

    // Handed over by the front desk to the biochemistry group, received there by another user.
    const sent = await editor.post<{ id: number; handoverNo: string }>('/api/resources/handoverRecord', {
      fromSite: '前台',
      toGroup: 'bio',
      storage: 'cold',
      barcodes: barcode,
    });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const received = await admin.post(`/api/handover/confirmReceive?recordId=${sent.body.resultObject.id}`, {
      userAccount: 'admin',
      passwd: DEMO_PASSWORD,
    });
    expect(received.status, JSON.stringify(received.body)).toBe(200);

    // Scanned at the bench: there it is, received; its timeline tells every step with who and where.
    await page.goto(`${server.url}/frontInpuit/scanCode`);
    await scan(page, barcode!);
    await rowOf(page, barcode!).getByText('已接收').waitFor();
    await rowOf(page, barcode!).getByRole('button', { name: '履历' }).click();
    const timeline = page.locator('.record-history');
    await timeline.locator('.record-event').nth(3).waitFor();
    const steps = await timeline.locator('.record-event').allInnerTexts();
    expect(steps[0]).toContain('登记');
    expect(steps[0]).toContain('王检验');
    expect(steps.some((s) => s.includes('打印标签'))).toBe(true);
    const handover = sent.body.resultObject.handoverNo;
    expect(steps.some((s) => s.includes('交接送出') && s.includes('运送中') && s.includes(handover))).toBe(true);
    expect(
      steps.some((s) => s.includes('接收') && s.includes('系统管理员') && s.includes('华康医学检验中心实验室')),
    ).toBe(true);

    expect(consoleErrors).toEqual([]);

    // In the inspection work list of the group that received it.
    const { page: lab } = await newPage(browser);
    await signIn(lab, server.url, 'admin', DEMO_PASSWORD, '/laboratoryManager/inspection/combinedQuery');
    await rowOf(lab, barcode!).getByText('生化组').waitFor();
  });
});

describe('a specimen rejected at the bench', () => {
  it('is refused with its reason, becomes an unqualified specimen, and its submitter is alerted', async () => {
    const [barcode] = await enterSpecimens(editor, 1, { patientName: '钟离秋' });
    // The front desk that entered it is signed in: the alert reaches them.
    const { page: desk } = await newPage(browser);
    await signIn(desk, server.url, 'editor', DEMO_PASSWORD, '/dashboard');

    const { page: bench } = await newPage(browser);
    await signIn(bench, server.url, 'admin', DEMO_PASSWORD, '/frontInpuit/accept');
    await scan(bench, barcode!);
    await rowOf(bench, barcode!).getByRole('button', { name: '拒收' }).click();
    const dialog = bench.locator('.command-dialog');
    await dialog.waitFor();
    await bench.locator('#root_rejectReason').click();
    await bench.locator('.ant-select-item-option[title="抗凝标本凝固"]').click();
    await dialog.getByRole('button', { name: /确\s*定/ }).click();
    await rowOf(bench, barcode!).getByText('已拒收').waitFor();

    await desk
      .locator('.ant-notification-notice')
      .filter({ hasText: `标本 ${barcode} 被拒收：抗凝标本凝固` })
      .waitFor();

    await bench.goto(`${server.url}/laboratoryManager/permission/unqualifiedSample`);
    await rowOf(bench, barcode!).getByText('抗凝标本凝固').waitFor();
  });
});

describe('a request cancelled by mistake', () => {
  it('is reinstated at the front desk with its reason, back to the state it was cancelled from', async () => {
    const [barcode] = (await enterSpecimens(editor, 1, { patientName: '误取消' })) as [string];
    const { page, consoleErrors } = await newPage(browser);
    await signIn(page, server.url, 'editor', DEMO_PASSWORD, '/laboratoryManager/permission/frontEntry');
    const row = rowOf(page, barcode);
    const step = async (action: string, field: string, text: string) => {
      await row.getByRole('button', { name: action }).click();
      const dialog = page.locator('.command-dialog');
      await dialog.locator(`#root_${field}`).fill(text);
      await dialog.getByRole('button', { name: /确\s*定/ }).click();
      await dialog.waitFor({ state: 'hidden' });
    };
    await step('取消', 'cancelReason', '患者未到');
    await row.getByText('已取消').waitFor();
    // Only a cancelled request offers 恢复; it asks why.
    await step('恢复', 'reinstateReason', '误取消，患者已到');
    await row.getByText('已登记').waitFor();
    expect(await row.getByRole('button', { name: '恢复' }).count()).toBe(0);
    await row.getByRole('button', { name: '履历' }).click();
    // The timeline says what each step was given.
    const steps = page.locator('.record-history .record-event[data-kind=transition]');
    await steps.filter({ hasText: '恢复' }).getByText('恢复原因：误取消，患者已到').waitFor();
    await steps.filter({ hasText: '已登记 → 已取消' }).getByText('取消原因：患者未到').waitFor();
    expect(consoleErrors).toEqual([]);
  });
});

describe('tubes received as they are scanned', () => {
  it('receives each scanned tube with 扫码即接收 on, tallying what it received and what it could not and why; the switch is remembered', async () => {
    const [first, second] = (await enterSpecimens(editor, 2, { patientName: '扫码接收' })) as [string, string];
    const { page, consoleErrors } = await newPage(browser, 'zh-CN', undefined, AXE_SOURCE);
    // The tones the page plays, counted: a refusal is heard, a tube received is not.
    await page.addInitScript(() => {
      const counted = window as unknown as { beeps: number };
      counted.beeps = 0;
      const start = OscillatorNode.prototype.start;
      OscillatorNode.prototype.start = function (...args: Parameters<typeof start>) {
        counted.beeps++;
        return start.apply(this, args);
      };
    });
    const beeps = () => page.evaluate(() => (window as unknown as { beeps: number }).beeps);
    await signIn(page, server.url, 'admin', DEMO_PASSWORD, '/frontInpuit/accept');
    const toggle = page.getByRole('switch', { name: '扫码即接收' });
    await toggle.click();
    await expect.poll(() => toggle.getAttribute('aria-checked')).toBe('true');
    // The focus is back at the scanner: the next scan goes in, not into the switch.
    expect(await page.locator('.screen-scan input').evaluate((el) => el === document.activeElement)).toBe(true);

    // A scanner is quick: the second tube comes before the first is received; each is, in turn.
    const input = page.locator('.screen-scan input');
    const beep = async (code: string) => {
      await input.fill(code);
      await input.press('Enter');
    };
    await beep(first);
    await beep(second);
    const tally = page.getByRole('log', { name: '扫描记录' });
    await tally.locator('li.scan-done').nth(1).waitFor();
    await rowOf(page, second).getByText('已接收').waitFor();
    expect(await beeps()).toBe(0);
    // A tube scanned twice is not received twice; a code of no tube is said so.
    await beep(first);
    await tally.locator('li.scan-refused').filter({ hasText: first }).getByText('当前状态不能执行「接收」').waitFor();
    await beep('0000000000');
    await tally.getByText('未找到条码 0000000000').waitFor();
    await page.getByText('本次扫描 4 管：接收 2，未能接收 2').waitFor();
    expect(await beeps()).toBe(2);
    expect(await violations(page, 'the scan desk of 标本接收', '.screen-scan-desk')).toEqual([]);
    expect(await tally.locator('li.scan-done').allInnerTexts()).toEqual([
      expect.stringContaining(second),
      expect.stringContaining(first),
    ]);

    // Received by the signed-in user, when the scan came: the server's stamps, once each.
    for (const barcode of [first, second]) {
      const found = await admin.get<{ records: Record<string, unknown>[] }>(
        `/api/resources/specimen?barcode=${barcode}`,
      );
      const specimen = found.body.resultObject.records[0]!;
      expect(specimen).toMatchObject({ status: 'received', receiver: '系统管理员' });
      const events = (await admin.get<{ name: string }[]>(`/api/resources/specimen/${String(specimen.id)}/events`)).body
        .resultObject;
      expect(events.filter((e) => e.name === 'receive')).toHaveLength(1);
    }

    // The desk finds its switch as it left it.
    await page.reload();
    await expect.poll(() => page.getByRole('switch', { name: '扫码即接收' }).getAttribute('aria-checked')).toBe('true');
    expect(consoleErrors).toEqual([]);
  });
});

describe('tubes collected together', () => {
  it('collects the selected rows in one step; with a collected one among them it is not offered, or refused when the list is older than the record', async () => {
    const barcodes = await enterSpecimens(editor, 3, { patientName: '批量采集' });
    const { page, consoleErrors } = await newPage(browser);
    await signIn(page, server.url, 'editor', DEMO_PASSWORD, '/laboratoryManager/permission/frontEntry');
    const select = (barcode: string) => rowOf(page, barcode).locator('.ant-table-selection-column input').check();
    const collectSelected = () => page.getByRole('button', { name: '批量采集' }).click();
    const [a, b, c] = barcodes as [string, string, string];
    await rowOf(page, c).getByText('已登记').waitFor();
    await select(a);
    await select(b);
    await collectSelected();
    await rowOf(page, a).getByText('已采集').waitFor();
    await rowOf(page, b).getByText('已采集').waitFor();
    await rowOf(page, c).getByText('已登记').waitFor();
    // The rows done are no longer ticked.
    await rowOf(page, a).locator('.ant-table-selection-column input:not(:checked)').waitFor();
    expect(await rowOf(page, b).locator('.ant-table-selection-column input').isChecked()).toBe(false);

    // One already collected among them: the button is not offered, and says which row stops it.
    await select(b);
    await select(c);
    const button = page.getByRole('button', { name: '批量采集' });
    // Said on the button's tooltip, and beside the buttons for a screen without a pointer.
    await page.locator(`span[title="${b}：当前状态不能执行「批量采集」"]`).waitFor();
    await page.locator('.screen-batch-hint').getByText(`${b}：当前状态不能执行「批量采集」`).waitFor();
    expect(await button.isDisabled()).toBe(true);
    await rowOf(page, b).locator('.ant-table-selection-column input').uncheck();
    await button.and(page.locator(':enabled')).waitFor();
    expect(await page.locator('.screen-batch-hint').count()).toBe(0);
    // Collected at another desk meanwhile, though this list still shows it registered: the server
    // names it, and nothing is done.
    const collectedElsewhere = (await editor.get<{ records: { id: number }[] }>(`/api/resources/specimen?barcode=${c}`))
      .body.resultObject.records[0]!.id;
    expect((await editor.post(`/api/resources/specimen/${collectedElsewhere}/transitions/collect`, {})).status).toBe(
      200,
    );
    await collectSelected();
    // (One row: the message needs no name.)
    await page.locator('.ant-message-error').getByText('当前状态为「已采集」，不能执行「采集」').waitFor();
    // The browser logs the refused call itself; nothing else went wrong.
    expect(consoleErrors.filter((e) => !e.includes('status of 400'))).toEqual([]);
  });
});

describe('receipt tasks completed together', () => {
  it('completes the selected tasks of one kind from the work list, each specimen received', async () => {
    // The specimens' purpose starts a process of one task, 核收, that receives its specimen.
    const token = await tokenFor(server.url, 'admin', DEMO_PASSWORD);
    const purpose = (await admin.get<{ records: { category: string }[] }>('/api/resources/inspectionPurpose?size=1'))
      .body.resultObject.records[0]!;
    const xml = modelXml(
      'e2e_batch_receipt',
      '核收流程',
      [
        { id: 'start', kind: 'startEvent', name: '开始' },
        { id: 'check', kind: 'userTask', name: '核收' },
        { id: 'end', kind: 'endEvent', name: '完成' },
      ],
      [
        { id: 'f1', from: 'start', to: 'check' },
        { id: 'f2', from: 'check', to: 'end' },
      ],
    ).replace('<userTask id="check"', '<userTask lims:specimenStep="receive" id="check"');
    await deployXml(server.url, token, admin, 'e2e_batch_receipt', xml, Number(purpose.category));
    const barcodes = await enterSpecimens(editor, 3, { patientName: '批量核收' });
    const [a, b, c] = barcodes as [string, string, string];

    const { page, consoleErrors } = await newPage(browser);
    await signIn(page, server.url, 'admin', DEMO_PASSWORD, '/dashboard');
    const task = (barcode: string) =>
      page.locator('[data-testid="todo-tasks"] .task-row').filter({ hasText: barcode }).filter({ hasText: '核收' });
    await task(c).waitFor();
    await task(a).getByRole('checkbox').check();
    await task(b).getByRole('checkbox').check();
    await page.getByRole('button', { name: '批量办理 (2)' }).click();
    const dialog = page.locator('.batch-task-dialog');
    await dialog.getByText(`${a}、${b}`).waitFor();
    await dialog.getByRole('button', { name: /提\s*交/ }).click();
    await page.locator('.ant-message-success').getByText('已办理 2 项任务').waitFor();
    await task(a).waitFor({ state: 'detached' });
    await task(b).waitFor({ state: 'detached' });
    expect(await task(c).count()).toBe(1);
    // The header's box ticks every task listed, and unticks them.
    const listed = await page.locator('[data-testid="todo-tasks"] .task-row').count();
    const all = page.getByRole('checkbox', { name: '全选' });
    await all.check();
    await page.getByRole('button', { name: `批量办理 (${listed})` }).waitFor();
    await all.uncheck();
    await page.getByRole('button', { name: '批量办理', exact: true }).and(page.locator('[disabled]')).waitFor();
    for (const barcode of [a, b]) {
      const found = await admin.get<{ records: { status: string }[] }>(`/api/resources/specimen?barcode=${barcode}`);
      expect(found.body.resultObject.records[0]!.status).toBe('received');
    }
    expect(consoleErrors).toEqual([]);
  });
});
