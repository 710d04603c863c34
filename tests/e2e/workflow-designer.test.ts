import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startServer, DEMO_PASSWORD, type TestServer } from '../support/server';
import { launchBrowser, newPage } from '../support/browser';
import { api, tokenFor } from '../support/client';
import { signIn } from '../support/shell';

let server: TestServer;
let browser: Browser;
const PAGE = '/laboratoryManager/form/workflowDesign';

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer(), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.dispose();
});

const row = (page: Page, key: string) =>
  page
    .locator('[data-testid="process-model-list"] .ant-table-tbody tr.ant-table-row')
    .filter({ hasText: key });
const designer = (page: Page) =>
  page.locator('.ant-modal').filter({ has: page.locator('[data-testid="designer-canvas"]') });
const message = (page: Page, text: string) => page.locator('.ant-message').getByText(text).first().waitFor();
const element = (page: Page, id: string) => page.locator(`.djs-element[data-element-id="${id}"]`);

/** Picks an option of an antd select (or auto-complete) opened from the given trigger. */
async function choose(page: Page, trigger: ReturnType<Page['locator']>, option: string) {
  await trigger.click();
  await page
    .locator('.ant-select-dropdown:visible .ant-select-item-option')
    .filter({ hasText: option })
    .first()
    .click();
}

/** The id of the element selected last on the canvas (bpmn-js marks it). */
const selectedId = (page: Page) =>
  page.locator('.djs-element.selected').first().getAttribute('data-element-id');

async function openDesigner(page: Page, key: string, action: '编辑' | '查看') {
  await row(page, key).getByRole('button', { name: action }).click();
  await designer(page).locator('.djs-element[data-element-id="startEvent"]').waitFor();
}

describe('process model designer (spec 2.4)', () => {
  it('adds a model, designs it through the context pad and condition builder, saves, reopens, deploys, views and deletes it', async () => {
    const { page } = await newPage(browser);
    await signIn(page, server.url, 'admin', DEMO_PASSWORD, PAGE);
    await page.locator('[data-testid="process-model-list"]').waitFor();

    await page.getByRole('button', { name: '新增模型' }).click();
    await page.locator('[data-testid="new-key"]').fill('e2e_biopsy');
    await page.locator('[data-testid="new-name"]').fill('端到端活检流程');
    await page
      .locator('.ant-modal')
      .getByRole('button', { name: /确\s*定|OK/ })
      .click();
    await message(page, '新增成功');
    await row(page, 'e2e_biopsy').waitFor();

    // Start → user task (context pad), with a position from the panel.
    await openDesigner(page, 'e2e_biopsy', '编辑');
    await element(page, 'startEvent').click();
    await page.locator('.djs-context-pad .entry[data-action="append.user-task"]').click();
    const taskId = (await selectedId(page))!;
    expect(taskId).toMatch(/Activity_|UserTask/);
    await choose(page, page.locator('[data-testid="candidate-groups"]'), '检验员');
    // → exclusive gateway → end event; the flow into the end event gets a condition.
    await page.locator('.djs-context-pad .entry[data-action="append.gateway"]').click();
    const gatewayId = (await selectedId(page))!;
    await page.locator('.djs-context-pad .entry[data-action="append.end-event"]').click();
    const endId = (await selectedId(page))!;
    // Unnamed end events are named 完成 (their label is an element of its own).
    await expect.poll(() => element(page, `${endId}_label`).textContent()).toContain('完成');
    // The flow just drawn into the end event is the last connection on the canvas.
    await page.locator('.djs-element.djs-connection').last().click({ force: true });
    await page.locator('[data-testid="open-condition"]').click();
    const conditions = page.locator('.ant-modal').filter({ hasText: '条件设置' }).last();
    await conditions.locator('[data-testid="cond-add"]').click();
    await choose(page, conditions.locator('[data-testid="cond-form"]'), '自定义字段');
    await conditions.locator('[data-testid="cond-variable"] input').fill('result');
    await choose(page, conditions.locator('[data-testid="cond-operator"]'), '==');
    await conditions.getByRole('button', { name: /保\s*存/ }).click();
    await message(page, '输入的判断条件不正确，请补足必须输入项。');
    await choose(page, conditions.locator('[data-testid="cond-value"]'), 'pass');
    await conditions.getByRole('button', { name: /保\s*存/ }).click();
    await expect
      .poll(() => page.locator('[data-testid="condition-text"]').inputValue())
      .toBe("${result == 'pass'}");
    // Live checks name what is still missing: the task has positions but no form yet.
    await page.locator('[data-testid="lint-issues"]').getByText('用户任务未设置表单(formKey)').waitFor();
    expect(
      await page
        .locator('[data-testid="lint-issues"]')
        .getByText('用户任务未设置岗位(candidateGroups)')
        .count(),
    ).toBe(0);
    await page.locator('[data-testid="designer-ok"]').click();
    await message(page, '编辑成功');

    // Reopened, the diagram keeps the task, its position and the condition.
    await openDesigner(page, 'e2e_biopsy', '编辑');
    await element(page, taskId).click();
    await page.locator('[data-testid="candidate-groups"]').getByText('检验员').waitFor();
    await element(page, gatewayId).waitFor();
    await page.locator('[data-testid="view-xml"]').click();
    await expect
      .poll(() => page.locator('[data-testid="xml-text"]').textContent())
      .toContain("${result == 'pass'}");
    await expect
      .poll(() => page.locator('[data-testid="xml-text"]').textContent())
      .toContain('lims:formId="A99999"');
    await page.keyboard.press('Escape');
    await designer(page)
      .getByRole('button', { name: /取\s*消/ })
      .click();
    await designer(page).waitFor({ state: 'detached' });

    await row(page, 'e2e_biopsy').getByRole('button', { name: '部署' }).click();
    await message(page, '部署成功');
    await row(page, 'e2e_biopsy').getByText('已部署').waitFor();

    await openDesigner(page, 'e2e_biopsy', '查看');
    await designer(page).locator('.ant-modal-title').getByText('流程追踪').waitFor();
    await expect(designer(page).locator('.djs-palette').count()).resolves.toBe(0);
    await element(page, taskId).click();
    expect(await page.locator('[data-testid="candidate-groups"]').getAttribute('class')).toMatch(/disabled/);
    await designer(page)
      .getByRole('button', { name: /取\s*消/ })
      .click();

    await row(page, 'e2e_biopsy').getByRole('button', { name: '删除' }).click();
    const confirm = page
      .locator('.ant-modal-confirm')
      .filter({ hasText: '此操作将永久删除该流程, 是否继续?' });
    await confirm.locator('.ant-modal-confirm-title').getByText('警告').waitFor();
    await confirm.getByRole('button', { name: /确\s*定/ }).click();
    await message(page, '删除成功');
    await row(page, 'e2e_biopsy').waitFor({ state: 'detached' });
  });

  it('offers public data by kind of lab and hides it from only-lab users', async () => {
    const { page } = await newPage(browser);
    await signIn(page, server.url, 'lab2admin', DEMO_PASSWORD, PAGE);
    await page.getByRole('button', { name: '导入公共数据' }).waitFor();
    const only = await newPage(browser);
    await signIn(only.page, server.url, 'onlyadmin', DEMO_PASSWORD, PAGE);
    await only.page.locator('[data-testid="process-model-list"]').waitFor();
    expect(await only.page.getByRole('button', { name: /公共数据/ }).count()).toBe(0);
  });

  it('distributes a base model to a lab, which sees the newer version and confirms it', async () => {
    const { page } = await newPage(browser);
    await signIn(page, server.url, 'baseadmin', DEMO_PASSWORD, '/groupManager/publicWorkflow/workflowDesign');
    await row(page, 'general_inspection').locator('.ant-checkbox-input').check();
    await page.getByRole('button', { name: '下发公共数据' }).click();
    await page
      .locator('.ant-modal')
      .filter({ hasText: '选择下发实验室' })
      .getByRole('button', { name: /确\s*定/ })
      .click();
    await message(page, '请先选择要下发的实验室');
    await choose(page, page.locator('[data-testid="labs-select"]'), '华康宁波分实验室');
    // A multiple select stays open after a choice; clicking the title closes it.
    await page.locator('.ant-modal-title').getByText('选择下发实验室').click();
    await page.locator('.ant-select-dropdown:visible').waitFor({ state: 'hidden' });
    await page
      .locator('.ant-modal')
      .filter({ hasText: '选择下发实验室' })
      .getByRole('button', { name: /确\s*定/ })
      .click();
    await message(page, '下发成功');

    // The base organisation changes the model (the designer's save call), so the lab copy has news.
    const token = await tokenFor(server.url, 'baseadmin', DEMO_PASSWORD);
    const base = (
      await api(server.url, token).get<{ id: string; key: string }[]>('/api/workflow/model/list?orgId=0')
    ).body.resultObject;
    const source = base.find((m) => m.key === 'general_inspection')!;
    const xml = (
      await api(server.url, token).get<{ bpmnXml: string }>(`/api/workflow/model/${source.id}/xml`)
    ).body.resultObject.bpmnXml;
    const saved = await fetch(`${server.url}/api/workflow/model/${source.id}/xml/save`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ bpmn_xml: xml.replace('上机检验', '上机检验（复检）'), svg_xml: '' }),
    });
    expect(saved.status).toBe(200);

    const lab = await newPage(browser);
    await signIn(lab.page, server.url, 'lab3admin', DEMO_PASSWORD, PAGE);
    await row(lab.page, 'general_inspection').getByText('有新版本 v2').waitFor();
    await lab.page.getByRole('button', { name: '确认更新' }).click();
    await message(lab.page, '更新成功');
    await row(lab.page, 'general_inspection').getByText('有新版本 v2').waitFor({ state: 'detached' });
  });
});
