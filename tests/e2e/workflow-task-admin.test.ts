import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { api, tokenFor } from '../support/client';
import { newPage } from '../support/browser';
import { serverAndBrowser } from '../support/e2e';
import { DEMO_PASSWORD } from '../support/server';
import { signIn } from '../support/shell';
import { createRole, createStaff, deployXml, OWN_PASSWORD } from '../support/workflow';
import { processXml } from '../support/bpmnModels';

/**
 * Task administration in the task dialog (issue 22): a task given to an account the lab does not
 * have is shown to the administrator, who reassigns it; its new owner delegates it; the delegate's
 * submission hands it back; the owner releases it to the pool.
 */
const shared = serverAndBrowser();
const KEY = 'e2e_task_admin';
const BARCODE = 'ADM-0001';

const todoRow = (page: Page, text: string) =>
  page.locator('[data-testid="todo-tasks"] .task-row').filter({ hasText: text });
const message = (page: Page, text: string) => page.locator('.ant-message').getByText(text).first().waitFor();

async function openTask(account: string, password: string) {
  const { page } = await newPage(shared.browser);
  await signIn(page, shared.server.url, account, password, '/dashboard');
  const row = todoRow(page, BARCODE).filter({ hasText: '签发' });
  await row.waitFor();
  await row.getByRole('button', { name: /办\s*理/ }).click();
  const dialog = page.locator('.task-dialog');
  await dialog.locator('.task-summary').waitFor();
  return { page, dialog };
}

async function handOver(page: Page, kind: '转办给用户' | '委派', to: string) {
  const dialog = page.locator('.task-dialog');
  await dialog.locator('[data-testid="handover-kind"]').click();
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: kind }).click();
  await dialog.locator('[data-testid="handover-to"]').fill(to);
  await dialog.locator('[data-testid="handover-send"]').click();
}

describe('task administration', () => {
  it('reassigns an orphaned task, delegates it, hands it back on submission and releases it', async () => {
    const { server } = shared;
    const token = await tokenFor(server.url, 'admin', DEMO_PASSWORD);
    const admin = api(server.url, token);
    const role = await createRole(admin, '签发岗', [20906]);
    await createStaff(server.url, admin, 'kermit', [role]);
    await createStaff(server.url, admin, 'fozzie', [role]);
    const xml = processXml(
      KEY,
      `<startEvent id="start"/><sequenceFlow id="f1" sourceRef="start" targetRef="sign"/>
       <userTask id="sign" name="签发" activiti:assignee="drbunsen"/><sequenceFlow id="f2" sourceRef="sign" targetRef="end"/>
       <endEvent id="end"/>`,
    );
    await deployXml(server.url, token, admin, KEY, xml, 4);
    const started = await admin.post<{ processInstanceId: string }>('/api/workflow/process/start', {
      modelKey: KEY,
      businessKey: BARCODE,
    });
    expect(started.body.resultCode, started.body.resultMessage).toBe(200);
    const tasks = async () =>
      (
        await admin.get<{ tasks: { assignee: string | null; owner: string | null }[] }>(
          `/api/workflow/process/${started.body.resultObject.processInstanceId}`,
        )
      ).body.resultObject.tasks;

    // No one is drbunsen: the administrator finds the task and gives it to kermit.
    const { page: adminPage } = await openTask('admin', DEMO_PASSWORD);
    await handOver(adminPage, '转办给用户', 'nobody');
    await message(adminPage, '本机构没有账号“nobody”');
    await handOver(adminPage, '转办给用户', 'kermit');
    await message(adminPage, '已转办');
    await expect.poll(tasks).toEqual([expect.objectContaining({ assignee: 'kermit', owner: null })]);

    // Kermit delegates it to fozzie, whose submission hands it back to kermit.
    const { page: kermit } = await openTask('kermit', OWN_PASSWORD);
    await handOver(kermit, '委派', 'fozzie');
    await message(kermit, '已委派');
    const { dialog: fozzieDialog, page: fozzie } = await openTask('fozzie', OWN_PASSWORD);
    // The delegate works the task but does not own it: nothing to hand over.
    expect(await fozzieDialog.locator('[data-testid="task-handover"]').count()).toBe(0);
    await fozzieDialog.getByRole('button', { name: /提\s*交/ }).click();
    await message(fozzie, '已办理，任务交还委派人');
    await expect.poll(tasks).toEqual([expect.objectContaining({ assignee: 'kermit', owner: null })]);

    // Kermit releases it: no one holds it now.
    await kermit.reload();
    const { page: again, dialog } = await openTask('kermit', OWN_PASSWORD);
    await dialog.locator('[data-testid="handover-release"]').click();
    await message(again, '已退回任务池');
    await expect.poll(tasks).toEqual([expect.objectContaining({ assignee: null })]);
  }, 180_000);
});
