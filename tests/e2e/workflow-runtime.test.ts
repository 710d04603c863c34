import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { api, tokenFor } from '../support/client';
import { launchBrowser, newPage } from '../support/browser';
import { DEMO_PASSWORD, startServer, type TestServer } from '../support/server';
import { eventually, signIn, waitForDashboard } from '../support/shell';
import {
  biopsyModel,
  createFormPage,
  createRole,
  createStaff,
  deployXml,
  modelXml,
  OWN_PASSWORD,
  saveXml,
} from '../support/workflow';

/**
 * A deployed model runs in the browser (issue 5): deployed from the model list, started by a specimen
 * of the sample-entry screen, its first task completed on the dashboard by a user of the first
 * position with a value that routes it down one branch, the trace showing that path, and a user of
 * the other position alerted and given the next task.
 */
let server: TestServer;
let browser: Browser;
const KEY = 'e2e_runtime_biopsy';
const BARCODE = '2611200001';

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  const token = await tokenFor(server.url, 'admin', DEMO_PASSWORD);
  const admin = api(server.url, token);
  // Their one page is the form data demo; the dashboard with its task panels is everyone's.
  const grossGroup = await createRole(admin, '取材岗', [20906]);
  const diagGroup = await createRole(admin, '诊断岗', [20906]);
  await createStaff(server.url, admin, 'gross1', [grossGroup]);
  await createStaff(server.url, admin, 'diag1', [diagGroup]);
  const grossForm = await createFormPage(admin, '取材记录单', 'E2E_GROSS', [
    { logicalName: 'tumorSize', label: '肿瘤最大径', controlType: 'number', numeric: true, unit: 'cm', required: true },
    {
      logicalName: 'site',
      label: '取材部位',
      controlType: 'select',
      required: true,
      choices: [
        ['SITE_A', '胃窦'],
        ['SITE_B', '结肠'],
      ],
    },
  ]);
  const reviewForm = await createFormPage(admin, '复核记录单', 'E2E_REVIEW', [
    { logicalName: 'opinion', label: '复核意见', controlType: 'textarea' },
  ]);
  // Drawn and saved (as the designer saves it), not deployed: deploying is the browser's part. Category 1:
  // the demo specimen's inspection purposes are general inspection.
  const created = await admin.post<{ id: string }>('/api/workflow/model/insert', {
    key: KEY,
    name: '端到端活检流程',
    category: 1,
  });
  expect(created.body.resultCode, created.body.resultMessage).toBe(200);
  await saveXml(
    server.url,
    token,
    created.body.resultObject.id,
    biopsyModel(KEY, { grossGroup, diagGroup, grossForm, reviewForm }),
  );
});
afterAll(async () => {
  await browser?.close();
  await server?.dispose();
});

const todoRow = (page: Page, text: string) =>
  page.locator('[data-testid="todo-tasks"] .task-row').filter({ hasText: text });
const marked = (page: Page, id: string, marker: 'trace-finished' | 'trace-active') =>
  page.locator(`.trace-canvas .djs-element.${marker}[data-element-id="${id}"]`);

describe('a deployed model runs (issue 5)', () => {
  it('deploys, starts from a specimen, routes the first task form down one branch, traces the path and alerts the next position', async () => {
    // Admin: deploy from the model list, then start the process from the specimen's row command.
    const { page: admin, consoleErrors } = await newPage(browser);
    await signIn(admin, server.url, 'admin', DEMO_PASSWORD, '/laboratoryManager/form/workflowDesign');
    const model = admin.locator('[data-testid="process-model-list"] .ant-table-row').filter({ hasText: KEY });
    await model.getByRole('button', { name: '部署' }).click();
    // Deploying asks first: it changes what every new specimen of the category runs.
    await admin
      .locator('.ant-modal-confirm')
      .filter({ hasText: '部署「' })
      .getByRole('button', { name: /确\s*定/ })
      .click();
    await model.getByText('已部署').waitFor();

    await admin.goto(`${server.url}/laboratoryManager/samplePreparations/sampleEntry`);
    const specimen = admin.locator('.screen-page .ant-table-row').filter({ hasText: BARCODE });
    await specimen.getByRole('button', { name: '启动流程' }).click();
    await admin
      .locator('.ant-modal-confirm')
      .getByRole('button', { name: /确\s*定/ })
      .click();
    // The notice lasts a second (spec 8); what stays is the running instance of the specimen.
    const running = api(server.url, await tokenFor(server.url, 'admin', DEMO_PASSWORD));
    await eventually(
      async () =>
        (await running.get<{ total: number }>(`/api/workflow/process/list?businessKey=${BARCODE}&status=running`)).body
          .resultObject.total,
    ).toBe(1);

    // The diagnosis position is on its dashboard (push channel open) before the first task is done.
    const { page: diag } = await newPage(browser);
    await signIn(diag, server.url, 'diag1', OWN_PASSWORD, '/dashboard');
    await waitForDashboard(diag);
    await diag.locator('[data-testid="todo-tasks"][aria-busy="false"]').waitFor();
    expect(await todoRow(diag, BARCODE).count()).toBe(0);

    // The grossing position opens its task and fills in the form page: size 5 takes the "large" branch.
    const { page: gross } = await newPage(browser);
    await signIn(gross, server.url, 'gross1', OWN_PASSWORD, '/dashboard');
    const task = todoRow(gross, BARCODE);
    await task.filter({ hasText: '取材' }).waitFor();
    await task.getByRole('button', { name: /办\s*理/ }).click();
    const dialog = gross.locator('.task-dialog');
    await dialog.getByText('取材部位').waitFor();
    // Submitting empty shows the form page's own required messages, and completes nothing.
    await dialog.getByRole('button', { name: /提\s*交/ }).click();
    await dialog.getByText('肿瘤最大径 (cm)不能为空').waitFor();
    await dialog.locator('#root_tumorSize').fill('5');
    await dialog.locator('.screen-field').filter({ hasText: '取材部位' }).locator('.ant-select').click();
    await gross.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: '胃窦' }).click();
    await dialog.getByRole('button', { name: /提\s*交/ }).click();
    await task.waitFor({ state: 'detached' });
    await gross
      .locator('[data-testid="done-tasks"] .task-row')
      .filter({ hasText: BARCODE })
      .filter({ hasText: '通过' })
      .waitFor();

    // The other position is alerted and finds the next task (the large-specimen branch) on its dashboard.
    const alert = diag.locator('.push-alert');
    await alert.getByText('新任务').waitFor();
    await alert.getByText(`大标本制片 · ${BARCODE}`).waitFor();
    const next = todoRow(diag, BARCODE);
    await next.filter({ hasText: '大标本制片' }).waitFor();

    // Its trace shows the path taken: grossing and the "large" flow done, the slide task waiting, "small" untouched.
    await next.getByRole('button', { name: /办\s*理/ }).click();
    await diag.locator('.task-dialog').getByRole('button', { name: '流程追踪' }).click();
    await marked(diag, 'grossing', 'trace-finished').waitFor({ state: 'attached' });
    await marked(diag, 'toLarge', 'trace-finished').waitFor({ state: 'attached' });
    await marked(diag, 'largeSlide', 'trace-active').waitFor({ state: 'attached' });
    expect(await diag.locator('.trace-canvas .djs-element.trace-finished[data-element-id="toSmall"]').count()).toBe(0);
    const history = diag.locator('[data-testid="trace-history"] .ant-table-row');
    await eventually(() =>
      history.filter({ hasText: '取材' }).filter({ hasText: 'gross1' }).filter({ hasText: '通过' }).count(),
    ).toBe(1);
    // Each task's arrival is a row of its own, then what became of it.
    expect(await history.filter({ hasText: '取材' }).filter({ hasText: '到达' }).count()).toBe(1);
    expect(await history.filter({ hasText: '大标本制片' }).filter({ hasText: '到达' }).count()).toBe(1);

    // The workflow manager lists the instance where it waits.
    await admin.goto(`${server.url}/activiti/manage`);
    await admin
      .locator('[data-testid="process-instances"] .ant-table-row')
      .filter({ hasText: BARCODE })
      .filter({ hasText: '大标本制片' })
      .waitFor();
    expect(consoleErrors).toEqual([]);
  }, 110_000);

  it('a position member claims the next task, passes it, and sends the review back to a step chosen in the dialog', async () => {
    // Continues the specimen's instance of the test above, waiting at 大标本制片 for the diagnosis position.
    const diagApi = api(server.url, await tokenFor(server.url, 'diag1', OWN_PASSWORD));
    const { page, consoleErrors } = await newPage(browser);
    await signIn(page, server.url, 'diag1', OWN_PASSWORD, '/dashboard');
    const slide = todoRow(page, BARCODE).filter({ hasText: '大标本制片' });
    await slide.getByRole('button', { name: /签\s*收/ }).click();
    // Claimed: the task is the claimer's own now, so the row offers no claim any more.
    await slide.getByRole('button', { name: /签\s*收/ }).waitFor({ state: 'detached' });
    const mine = (
      await diagApi.get<{ name: string; assignee: string | null }[]>(`/api/workflow/task/todo?businessKey=${BARCODE}`)
    ).body.resultObject;
    expect(mine.map((t) => [t.name, t.assignee])).toEqual([['大标本制片', 'diag1']]);

    await slide.getByRole('button', { name: /办\s*理/ }).click();
    const dialog = page.locator('.task-dialog');
    await dialog.getByRole('button', { name: /提\s*交/ }).click();
    await slide.waitFor({ state: 'detached' });

    // The review goes back to grossing, chosen among the steps the instance has reached.
    const review = todoRow(page, BARCODE).filter({ hasText: '复核' });
    await review.getByRole('button', { name: /办\s*理/ }).click();
    await dialog.getByText('退回指定节点').click();
    await dialog.getByRole('button', { name: /提\s*交/ }).click();
    await page.locator('.ant-message-notice').getByText('请选择退回节点').waitFor();
    await dialog.locator('[data-testid="rollback-target"]').click();
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: '取材' }).click();
    await dialog.getByRole('button', { name: /提\s*交/ }).click();
    await review.waitFor({ state: 'detached' });
    await page
      .locator('[data-testid="done-tasks"] .task-row')
      .filter({ hasText: '复核' })
      .filter({ hasText: '退回指定节点' })
      .waitFor();
    const admin = api(server.url, await tokenFor(server.url, 'admin', DEMO_PASSWORD));
    const [instance] = (
      await admin.get<{ records: { id: string }[] }>(`/api/workflow/process/list?businessKey=${BARCODE}&status=running`)
    ).body.resultObject.records;
    const { tasks } = (await admin.get<{ tasks: { name: string }[] }>(`/api/workflow/process/${instance!.id}`)).body
      .resultObject;
    expect(tasks.map((t) => t.name)).toEqual(['取材']);
    expect(consoleErrors).toEqual([]);
  });

  it('the workflow manager suspends and resumes an instance, and deletes it only once the warning is confirmed', async () => {
    const token = await tokenFor(server.url, 'admin', DEMO_PASSWORD);
    const admin = api(server.url, token);
    const key = 'e2e_manage';
    const xml = modelXml(
      key,
      '流程管理测试',
      [
        { id: 'start', kind: 'startEvent' },
        { id: 'accept', kind: 'userTask', name: '标本接收' },
        { id: 'end', kind: 'endEvent' },
      ],
      [
        { id: 'a', from: 'start', to: 'accept' },
        { id: 'b', from: 'accept', to: 'end' },
      ],
    );
    await deployXml(server.url, token, admin, key, xml, 4);
    const started = await admin.post<{ processInstanceId: string }>('/api/workflow/process/start', {
      modelKey: key,
      businessKey: 'MANAGE-0001',
    });
    expect(started.body.resultCode, started.body.resultMessage).toBe(200);
    const id = started.body.resultObject.processInstanceId;
    const statusOnServer = async () =>
      (await admin.get<{ status: string }>(`/api/workflow/process/${id}`)).body.resultObject.status;

    const { page, consoleErrors } = await newPage(browser);
    await signIn(page, server.url, 'admin', DEMO_PASSWORD, '/activiti/manage');
    const row = page.locator('[data-testid="process-instances"] .ant-table-row').filter({ hasText: 'MANAGE-0001' });
    await row.filter({ hasText: '运行中' }).filter({ hasText: '标本接收' }).waitFor();

    // Suspend: the row says so, offers 激活 instead, and the instance is suspended on the server.
    await row.getByRole('button', { name: /挂\s*起/ }).click();
    await row.filter({ hasText: '已挂起' }).waitFor();
    expect(await statusOnServer()).toBe('suspended');
    await row.getByRole('button', { name: /激\s*活/ }).click();
    await row.filter({ hasText: '运行中' }).waitFor();
    expect(await statusOnServer()).toBe('running');

    // Delete warns first (spec 8); cancelling keeps the instance.
    const warning = page.locator('.ant-modal-confirm').filter({ hasText: '此操作将永久删除该流程, 是否继续?' });
    await row.getByRole('button', { name: /删\s*除/ }).click();
    await warning.locator('.ant-modal-confirm-title').filter({ hasText: '警告' }).waitFor();
    await warning.getByRole('button', { name: /取\s*消/ }).click();
    await warning.waitFor({ state: 'hidden' });
    expect(await row.count()).toBe(1);
    expect(await statusOnServer()).toBe('running');
    // Confirmed, the instance is gone from the list and from the server.
    await row.getByRole('button', { name: /删\s*除/ }).click();
    await warning.getByRole('button', { name: /确\s*定/ }).click();
    await row.waitFor({ state: 'detached' });
    expect((await admin.get(`/api/workflow/process/${id}`)).status).toBe(404);
    expect(consoleErrors).toEqual([]);
  });

  it('fills in a form page on the form data demo, saves it and lists it', async () => {
    const { page, consoleErrors } = await newPage(browser);
    await signIn(page, server.url, 'admin', DEMO_PASSWORD, '/laboratoryManager/form/formDataDemo');
    await page.locator('[data-testid="form-page"]').click();
    await page
      .locator('.ant-select-dropdown:visible .ant-select-item-option')
      .filter({ hasText: '取材记录单' })
      .click();
    await page.locator('#root_tumorSize').fill('1.8');
    await page.locator('.screen-field').filter({ hasText: '取材部位' }).locator('.ant-select').click();
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: '结肠' }).click();
    await page.locator('[data-testid="save-form-data"]').click();
    await page
      .locator('[data-testid="saved-form-data"] .ant-table-row')
      .filter({ hasText: '1.8' })
      .filter({ hasText: '结肠' })
      .filter({ hasText: '系统管理员' })
      .waitFor();
    // The form starts empty again for the next entry.
    expect(await page.locator('#root_tumorSize').inputValue()).toBe('');
    expect(consoleErrors).toEqual([]);
  });
});
