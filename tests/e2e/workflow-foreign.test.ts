import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { DEMO_PASSWORD } from '../support/server';
import { newPage } from '../support/browser';
import { api, tokenFor } from '../support/client';
import { serverAndBrowser } from '../support/e2e';
import { signIn } from '../support/shell';
import { saveXml } from '../support/workflow';
import { ACTIVITI_FIXTURES } from '../support/fixtures';

/**
 * Models from elsewhere in the designer (issue 22): Activiti test files without any diagram layout open
 * with a generated one, the live check agrees with the server on what is connected, saving such a
 * model unchanged keeps it deployable, and a file chosen in the designer replaces the diagram.
 */
const PAGE = '/laboratoryManager/form/workflowDesign';
const shared = serverAndBrowser();
const fixture = (file: string) => path.join(ACTIVITI_FIXTURES, file);

const row = (page: Page, key: string) =>
  page.locator('[data-testid="process-model-list"] .ant-table-tbody tr.ant-table-row').filter({ hasText: key });
const designer = (page: Page) =>
  page.locator('.ant-modal').filter({ has: page.locator('[data-testid="designer-canvas"]') });
const element = (page: Page, id: string) => page.locator(`.djs-element[data-element-id="${id}"]`);
const button = (scope: Page | Locator, label: string) =>
  scope.getByRole('button', { name: new RegExp(`^${[...label].join('\\s*')}$`) });

async function adminApi() {
  const token = await tokenFor(shared.server.url, 'admin', DEMO_PASSWORD);
  return { token, client: api(shared.server.url, token) };
}

/** A model of org 1 holding a file as another tool wrote it. */
async function foreignModel(key: string, file?: string): Promise<string> {
  const { token, client } = await adminApi();
  const created = await client.post<{ id: string }>('/api/workflow/model/insert', { key, name: key, orgId: 1 });
  expect(created.body.resultCode, created.body.resultMessage).toBe(200);
  const id = created.body.resultObject.id;
  if (file) await saveXml(shared.server.url, token, id, readFileSync(fixture(file), 'utf8'));
  return id;
}

async function openDesigner(key: string) {
  const tab = await newPage(shared.browser);
  await signIn(tab.page, shared.server.url, 'admin', DEMO_PASSWORD, PAGE);
  await row(tab.page, key).waitFor();
  await button(row(tab.page, key), '编辑').click();
  await designer(tab.page).waitFor();
  return tab;
}

describe('models from elsewhere', () => {
  it('opens a file without layout with a generated one, checks it as the server does, and saves it still deployable', async () => {
    const key = 'exclusiveGwDefaultSequenceFlow';
    const id = await foreignModel(key, 'ExclusiveGatewayTest.testDefaultSequenceFlow.bpmn20.xml');
    const { page, consoleErrors } = await openDesigner(key);
    for (const el of ['theStart', 'exclusiveGw', 'theTask1', 'theTask2', 'theTask3', 'theEnd'])
      await element(page, el).waitFor();
    await page.locator('.ant-message').getByText('已为没有布局的模型自动生成布局').first().waitFor();
    // The file leaves out <incoming>/<outgoing>, and its tasks have no form or positions: nothing to report.
    await page.locator('[data-testid="lint-ok"]').waitFor();
    // The palette speaks Chinese by default.
    expect(
      await designer(page).locator('.djs-palette .entry[data-action="create.start-event"]').getAttribute('aria-label'),
    ).toBe('创建开始事件');

    await button(designer(page), '确定').click();
    await designer(page).waitFor({ state: 'detached' });
    const { client } = await adminApi();
    const saved = await client.get<{ bpmnXml: string }>(`/api/workflow/model/${id}/xml`);
    expect(saved.body.resultObject.bpmnXml).toMatch(/BPMNShape[^>]+bpmnElement="theTask1"/);
    expect(saved.body.resultObject.bpmnXml).not.toContain('LIMS designer');
    const deployed = await client.get(`/api/workflow/model/deploy?modelId=${id}`);
    expect(deployed.body.resultCode, deployed.body.resultMessage).toBe(200);
    expect(consoleErrors).toEqual([]);
  }, 120_000);

  it('replaces the diagram with a file chosen in the designer', async () => {
    const key = 'simpleSubProcess';
    const id = await foreignModel(key);
    const { page } = await openDesigner(key);
    // The button is enabled once the model's own diagram is shown: a file chosen earlier has nothing to go to.
    await designer(page).locator('[data-testid="designer-import"]:enabled').waitFor();
    await designer(page).locator('input[type="file"]').setInputFiles(fixture('simpleSubProcess.bpmn20.xml'));
    for (const el of ['theStart', 'task', 'theEnd']) await element(page, el).waitFor();
    await button(designer(page), '确定').click();
    await designer(page).waitFor({ state: 'detached' });
    const { client } = await adminApi();
    const deployed = await client.get(`/api/workflow/model/deploy?modelId=${id}`);
    expect(deployed.body.resultCode, deployed.body.resultMessage).toBe(200);
  }, 120_000);
});
