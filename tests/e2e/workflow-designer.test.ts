import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { DEMO_PASSWORD } from '../support/server';
import { newPage } from '../support/browser';
import { AXE_SOURCE, once, violations } from '../support/axe';
import { api, tokenFor } from '../support/client';
import { serverAndBrowser } from '../support/e2e';
import { signIn } from '../support/shell';
import { modelXml, saveXml, type Flow, type Node } from '../support/workflow';
import { FREE_FORM_ID, passWeightCondition } from '../../src/shared/expression/conditions';
import { LIMS_NS } from '../../src/web/workflow/designer/moddle';

const PAGE = '/laboratoryManager/form/workflowDesign';
const shared = serverAndBrowser();

const row = (page: Page, key: string) =>
  page.locator('[data-testid="process-model-list"] .ant-table-tbody tr.ant-table-row').filter({ hasText: key });
const headers = (page: Page) =>
  page.locator('[data-testid="process-model-list"] .ant-table-thead th').allTextContents();
const designer = (page: Page) =>
  page.locator('.ant-modal').filter({ has: page.locator('[data-testid="designer-canvas"]') });
const dialog = (page: Page, title: string) =>
  page.locator('.ant-modal').filter({ has: page.locator('.ant-modal-title', { hasText: title }) });
const message = (page: Page, text: string) => page.locator('.ant-message').getByText(text).first().waitFor();
/** The lasting note a far-reaching action (deploy, sync, confirm updates) ends with: it stays until closed. */
const note = (page: Page, text: string) => page.locator('.lasting-note').getByText(text).first().waitFor();
/** Answers the question a far-reaching action asks first with OK. */
const agree = async (page: Page, question: string | RegExp) => {
  const ask = page.locator('.ant-modal-confirm').filter({ hasText: question });
  await button(ask, '确定').click();
  await ask.waitFor({ state: 'detached' });
};
const element = (page: Page, id: string) => page.locator(`.djs-element[data-element-id="${id}"]`);
const panel = (page: Page) => page.locator('[data-testid="lims-panel"]');
const lint = (page: Page) => page.locator('[data-testid="lint-issues"]');
/** antd puts a space between two Chinese characters of a button's label. */
const button = (scope: Page | Locator, label: string) =>
  scope.getByRole('button', { name: new RegExp(`^${[...label].join('\\s*')}$`) });

/** A dialog once it has zoomed open: a click while it still grows can land beside its moving buttons. */
async function opened(modal: Locator): Promise<Locator> {
  await modal.waitFor();
  await expect.poll(() => modal.getAttribute('class'), { timeout: 10_000 }).not.toMatch(/-zoom-/);
  return modal;
}

/**
 * Picks an option of an antd select opened from the given trigger and waits until the select shows it.
 * A click lost to the dropdown's opening slide is tried once more rather than failing three steps on.
 */
async function choose(page: Page, trigger: Locator, option: string | RegExp) {
  const shown = async () => {
    const text = (await trigger.innerText()).trim();
    return typeof option === 'string' ? text.includes(option) : option.test(text);
  };
  for (let attempt = 1; ; attempt++) {
    await trigger.click();
    // The form pages are more than the list's window shows: they are narrowed by typing, as a user would.
    const formPages = (await trigger.getAttribute('data-testid')) === 'cond-form';
    if (typeof option === 'string' && formPages) await trigger.locator('input').first().fill(option);
    await page
      .locator('.ant-select-dropdown:visible .ant-select-item-option')
      .filter({ hasText: option })
      .first()
      .click();
    try {
      await expect.poll(shown, { timeout: 5_000 }).toBe(true);
      return;
    } catch (e) {
      if (attempt === 2) throw e;
    }
  }
}

/** The id of the element selected last on the canvas (bpmn-js marks it). */
const selectedId = async (page: Page) =>
  (await page.locator('.djs-element.selected').first().getAttribute('data-element-id'))!;
const connectionIds = (page: Page) =>
  page.locator('.djs-connection').evaluateAll((els) => els.map((e) => e.getAttribute('data-element-id')!));
/** Appends from the selected element through its context pad; answers the new element and the flow into it. */
async function append(page: Page, action: string): Promise<{ id: string; flow: string }> {
  const before = await connectionIds(page);
  const from = await selectedId(page);
  await page.locator(`.djs-context-pad .entry[data-action="${action}"]`).click();
  await expect.poll(() => selectedId(page)).not.toBe(from);
  const flow = (await connectionIds(page)).find((id) => !before.includes(id))!;
  return { id: await selectedId(page), flow };
}

/**
 * Selects a diagram element by its id, never by a point of the screen: a point can land on a flow's
 * label, on a neighbour or beside a line that bends, and where it lands moves with zoom and layout. The
 * click goes to the element's own graphics (bpmn-js keys them by data-element-id), which the diagram's
 * interaction events turn into a selection as they do a user's click; then the selection is awaited.
 */
async function select(page: Page, id: string) {
  await element(page, id).dispatchEvent('click');
  await expect.poll(() => selectedId(page)).toBe(id);
}

/** The condition dialog (条件设置) of a flow, opened from its properties panel. */
async function openConditions(page: Page, flow: string): Promise<Locator> {
  await select(page, flow);
  await panel(page).locator('[data-testid="open-condition"]').click();
  return opened(dialog(page, '条件设置'));
}

async function openDesigner(page: Page, key: string, action: '编辑' | '查看') {
  await button(row(page, key), action).click();
  await opened(designer(page));
  await designer(page).locator('.djs-element[data-element-id="startEvent"]').waitFor();
}

/** One row of the condition dialog: form, control, operator, value and logic as the user reads them. */
async function conditionRow(conditions: Locator, i: number) {
  const text = (testId: string) => conditions.locator(`[data-testid="${testId}"]`).nth(i).innerText();
  return [
    await text('cond-form'),
    await text('cond-variable'),
    await text('cond-operator'),
    await conditions.locator('[data-testid="cond-value"] input').nth(i).inputValue(),
    await text('cond-logic'),
  ];
}

/** A model of org 1 created through the API (spec 7.5), optionally with a diagram saved as the designer saves it. */
async function createModel(key: string, diagram?: { nodes: Node[]; flows: Flow[] }): Promise<string> {
  const token = await tokenFor(shared.server.url, 'admin', DEMO_PASSWORD);
  const created = await api(shared.server.url, token).post<{ id: string }>('/api/workflow/model/insert', {
    key,
    name: key,
    orgId: 1,
  });
  expect(created.body.resultCode, created.body.resultMessage).toBe(200);
  const id = created.body.resultObject.id;
  if (diagram) await saveXml(shared.server.url, token, id, modelXml(key, key, diagram.nodes, diagram.flows));
  return id;
}

/** Signs in as the org 1 administrator on the model list and waits for the given model's row. */
async function listWith(key: string, script?: string) {
  const tab = await newPage(shared.browser, undefined, undefined, script);
  await signIn(tab.page, shared.server.url, 'admin', DEMO_PASSWORD, PAGE);
  await row(tab.page, key).waitFor();
  return tab;
}

/** The text of 查看XML (the live diagram as it would be saved); its dialog is closed again. */
async function viewXml(page: Page): Promise<string> {
  await designer(page).locator('[data-testid="view-xml"]').click();
  const shown = await opened(dialog(page, 'XML'));
  const text = shown.locator('[data-testid="xml-text"]');
  // The closing tag ends the text; its prefix is the one of the file the diagram was imported from.
  await expect.poll(() => text.textContent()).toMatch(/<\/(bpmn:)?definitions>\s*$/);
  const xml = (await text.textContent())!;
  await shown.locator('.ant-modal-close').click();
  await text.waitFor({ state: 'hidden' });
  return xml;
}

const BPMN_NS = 'http://www.omg.org/spec/BPMN/20100524/MODEL';
const ACTIVITI_NS = 'http://activiti.org/bpmn';

/** A user task of the XML as an XML parser reads it: its multi-instance loop (null without one) and priority. */
const taskInXml = (page: Page, xml: string, id: string) =>
  page.evaluate(
    ([text, taskId, bpmn, activiti]) => {
      const doc = new DOMParser().parseFromString(text, 'application/xml');
      const task = [...doc.getElementsByTagNameNS(bpmn, 'userTask')].find((e) => e.getAttribute('id') === taskId);
      if (!task) throw new Error(`no userTask ${taskId} in the XML`);
      const loop = task.getElementsByTagNameNS(bpmn, 'multiInstanceLoopCharacteristics')[0];
      return {
        priority: task.getAttributeNS(activiti, 'priority'),
        loop: loop
          ? {
              isSequential: loop.getAttribute('isSequential'),
              completionCondition: loop.getElementsByTagNameNS(bpmn, 'completionCondition')[0]?.textContent ?? null,
            }
          : null,
      };
    },
    [xml, id, BPMN_NS, ACTIVITI_NS] as const,
  );

/** A sequence flow of the XML: our lims:formId attribute and its condition's text. */
const flowInXml = (page: Page, xml: string, id: string) =>
  page.evaluate(
    ([text, flowId, bpmn, lims]) => {
      const doc = new DOMParser().parseFromString(text, 'application/xml');
      const flow = [...doc.getElementsByTagNameNS(bpmn, 'sequenceFlow')].find((e) => e.getAttribute('id') === flowId);
      if (!flow) throw new Error(`no sequenceFlow ${flowId} in the XML`);
      return {
        formId: flow.getAttributeNS(lims, 'formId'),
        condition: flow.getElementsByTagNameNS(bpmn, 'conditionExpression')[0]?.textContent ?? null,
      };
    },
    [xml, id, BPMN_NS, LIMS_NS] as const,
  );

/** A field of the LIMS panel by its label. */
const panelField = (page: Page, label: string) =>
  panel(page)
    .locator('.ant-form-item')
    .filter({ has: page.locator('.ant-form-item-label', { hasText: label }) });

/** Rendered size of an element (CSS px). */
async function size(locator: Locator): Promise<{ width: number; height: number }> {
  const box = (await locator.boundingBox())!;
  return { width: box.width, height: box.height };
}

describe('process model designer (spec 2.4)', () => {
  it('lists org 1 models without a version column, refuses to deploy an undrawn one, copies only from a chosen source and locks synced rows', async () => {
    const { page } = await newPage(shared.browser);
    await signIn(page, shared.server.url, 'admin', DEMO_PASSWORD, PAGE);
    await page.locator('[data-testid="process-model-list"] .ant-table-tbody tr.ant-table-row').first().waitFor();
    const columns = await headers(page);
    expect(columns).toContain('同步状态');
    expect(columns).not.toContain('版本');
    // Spec 2.4: the list takes the window less 105 px (less a few px where the shell takes more), never more.
    const fits = () =>
      page.evaluate(() => {
        const list = document.querySelector('[data-testid="process-model-list"]')!.getBoundingClientRect();
        return {
          height: list.height,
          inner: window.innerHeight,
          scrolls: document.documentElement.scrollHeight > window.innerHeight,
        };
      });
    await expect
      .poll(async () => {
        const f = await fits();
        return f.height <= f.inner - 105 && f.height >= f.inner - 115 && !f.scrolls;
      })
      .toBe(true);

    await button(page, '新增模型').click();
    await opened(dialog(page, '新增模型'));
    await page.locator('[data-testid="new-key"]').fill('e2e_blank');
    await page.locator('[data-testid="new-name"]').fill('端到端空流程');
    await button(dialog(page, '新增模型'), '确定').click();
    await message(page, '新增成功');

    await button(row(page, 'e2e_blank'), '部署').click();
    await agree(page, '部署「端到端空流程」后，新标本将按此版本启动流程');
    await message(page, '部署失败：流程尚未设计，不能部署');
    await row(page, 'e2e_blank').getByText('未部署').waitFor();

    await button(row(page, 'e2e_blank'), '拷贝流程图').click();
    const copy = await opened(dialog(page, '从其他流程拷贝流程图'));
    const ok = copy.getByRole('button', { name: /确\s*定|OK/ });
    expect(await ok.isDisabled()).toBe(true);
    await choose(page, copy.locator('.ant-select'), /./);
    await expect.poll(() => ok.isDisabled()).toBe(false);
    await button(copy, '取消').click();
    await copy.waitFor({ state: 'detached' });

    // Synchronised up (syncFlag 1), a row can no longer be selected.
    await row(page, 'e2e_blank').locator('.ant-checkbox-input').check();
    await button(page, '同步公共数据').click();
    await agree(page, '将对选中的 1 个流程执行「同步公共数据」');
    await note(page, '同步成功');
    await row(page, 'e2e_blank').getByText('已同步').waitFor();
    expect(await row(page, 'e2e_blank').locator('.ant-checkbox-input').isDisabled()).toBe(true);
  });

  it(
    'designs start → task → gateway → two conditional ends through the panels, orders the flows, saves, reopens, views, deploys and deletes',
    { timeout: 180_000 },
    async () => {
      const { page } = await newPage(shared.browser);
      await signIn(page, shared.server.url, 'admin', DEMO_PASSWORD, PAGE);
      await page.locator('[data-testid="process-model-list"]').waitFor();

      await button(page, '新增模型').click();
      await opened(dialog(page, '新增模型'));
      await page.locator('[data-testid="new-key"]').fill('e2e_biopsy');
      await page.locator('[data-testid="new-name"]').fill('端到端活检流程');
      await button(dialog(page, '新增模型'), '确定').click();
      await message(page, '新增成功');
      await row(page, 'e2e_biopsy').waitFor();

      await openDesigner(page, 'e2e_biopsy', '编辑');
      const palette = designer(page).locator('.djs-palette');
      await palette.locator('.entry[data-action="create.user-task"]').waitFor();
      await palette.locator('.entry[data-action="create.call-activity"]').waitFor();
      await select(page, 'startEvent');
      await page.locator('.djs-context-pad .entry[data-action="connect"]').waitFor();
      const pad = await page
        .locator('.djs-context-pad .entry')
        .evaluateAll((els) => els.map((e) => e.getAttribute('data-action')));
      expect(pad.sort()).toEqual([
        'append.call-activity',
        'append.end-event',
        'append.gateway',
        'append.intermediate-event',
        'append.user-task',
        'connect',
        'delete',
      ]);

      // An intermediate event is named 终止; removed again through its own context pad.
      const intermediate = await append(page, 'append.intermediate-event');
      await expect.poll(() => element(page, `${intermediate.id}_label`).textContent()).toContain('终止');
      await page.locator('.djs-context-pad .entry[data-action="delete"]').click();
      await element(page, intermediate.id).waitFor({ state: 'detached' });

      // Start → user task; the live check names what it still lacks until the panel sets form and positions.
      await select(page, 'startEvent');
      const task = await append(page, 'append.user-task');
      await lint(page).getByText('用户任务未设置表单(formKey)').waitFor();
      await lint(page).getByText('用户任务未设置岗位(candidateGroups)').waitFor();
      await choose(page, panel(page).locator('[data-testid="form-key"]'), '病理申请单');
      await choose(page, panel(page).locator('[data-testid="candidate-groups"]'), '检验员');
      await lint(page).getByText('用户任务未设置表单(formKey)').waitFor({ state: 'detached' });
      await lint(page).getByText('用户任务未设置岗位(candidateGroups)').waitFor({ state: 'detached' });

      // → exclusive gateway → two end events (named 完成), each flow named in the properties panel.
      const gateway = await append(page, 'append.gateway');
      const large = await append(page, 'append.end-event');
      await expect.poll(() => element(page, `${large.id}_label`).textContent()).toContain('完成');
      await select(page, gateway.id);
      const small = await append(page, 'append.end-event');
      for (const [flow, name] of [
        [large.flow, '大标本'],
        [small.flow, '小标本'],
      ] as const) {
        await select(page, flow);
        await page.locator('#bio-properties-panel-name').fill(name);
        await expect.poll(() => element(page, `${flow}_label`).textContent()).toContain(name);
      }

      // Conditions through the dialog: a number control is compared bare, a text control quoted.
      let conditions = await openConditions(page, large.flow);
      await conditions.locator('[data-testid="cond-add"]').click();
      await choose(page, conditions.locator('[data-testid="cond-form"]'), '病理申请单');
      await choose(page, conditions.locator('[data-testid="cond-variable"]'), '标本件数(specimenCount)');
      await choose(page, conditions.locator('[data-testid="cond-operator"]'), /^>=$/);
      await button(conditions, '保存').click();
      await message(page, '输入的判断条件不正确，请补足必须输入项。');
      await conditions.locator('[data-testid="cond-value"] input').fill('2');
      await button(conditions, '保存').click();
      await conditions.waitFor({ state: 'detached' });
      await expect
        .poll(() => panel(page).locator('[data-testid="condition-text"]').inputValue())
        .toBe('${specimenCount >= 2}');

      conditions = await openConditions(page, small.flow);
      await conditions.locator('[data-testid="cond-add"]').click();
      await choose(page, conditions.locator('[data-testid="cond-form"]'), '病理申请单');
      await choose(page, conditions.locator('[data-testid="cond-variable"]'), '标本件数(specimenCount)');
      await choose(page, conditions.locator('[data-testid="cond-operator"]'), /^<$/);
      await conditions.locator('[data-testid="cond-value"] input').fill('2');
      await choose(page, conditions.locator('[data-testid="cond-logic"]'), '或者(||)');
      await conditions.locator('[data-testid="cond-add"]').click();
      await choose(page, conditions.locator('[data-testid="cond-form"]').nth(1), '病理申请单');
      await choose(page, conditions.locator('[data-testid="cond-variable"]').nth(1), '临床诊断(clinicalDiagnosis)');
      await choose(page, conditions.locator('[data-testid="cond-operator"]').nth(1), /^==$/);
      await conditions.locator('[data-testid="cond-value"] input').nth(1).fill('5');
      await button(conditions, '保存').click();
      await conditions.waitFor({ state: 'detached' });
      const smallCondition = "${specimenCount < 2 || clinicalDiagnosis == '5'}";
      await expect.poll(() => panel(page).locator('[data-testid="condition-text"]').inputValue()).toBe(smallCondition);

      // Flow order: unordered competing conditions are named; cancel discards a move, save writes it.
      await select(page, gateway.id);
      await panel(page).getByText('无连线顺序设置').waitFor();
      await lint(page).getByText('网关的连线未排序（无连线顺序设置）').waitFor();
      const order = dialog(page, '连线排序设置');
      const items = () => order.locator('[data-testid="flow-order-item"] > span').allTextContents();
      await button(panel(page), '排序').click();
      await opened(order);
      expect(await items()).toEqual(['大标本', '小标本']);
      await button(order.locator('[data-testid="flow-order-item"]').nth(1), '上移').click();
      await expect.poll(items).toEqual(['小标本', '大标本']);
      await button(order, '取消').click();
      await order.waitFor({ state: 'detached' });
      await panel(page).getByText('无连线顺序设置').waitFor();
      await button(panel(page), '排序').click();
      await opened(order);
      expect(await items()).toEqual(['大标本', '小标本']);
      await button(order.locator('[data-testid="flow-order-item"]').nth(0), '下移').click();
      await button(order, '保存').click();
      await order.waitFor({ state: 'detached' });
      await panel(page).getByText('连线排序设置').waitFor();
      await page.locator('[data-testid="lint-ok"]').waitFor();

      // The task's documentation through the properties panel's own group; the read-only view shows it too.
      await select(page, task.id);
      await page.locator('[data-group-id="group-documentation"] .bio-properties-panel-group-header').click();
      await page.locator('#bio-properties-panel-documentation').fill('按申请单取材，大标本另行制片');
      await page.locator('#bio-properties-panel-documentation').press('Tab');

      await page.locator('[data-testid="designer-ok"]').click();
      await message(page, '编辑成功');
      await designer(page).waitFor({ state: 'detached' });

      // Reopened, every panel shows what was designed, and the condition dialog reads the rows back.
      await openDesigner(page, 'e2e_biopsy', '编辑');
      await select(page, task.id);
      await panel(page).locator('[data-testid="form-key"]').getByText('病理申请单').waitFor();
      await panel(page).locator('[data-testid="candidate-groups"]').getByText('检验员').waitFor();
      await select(page, gateway.id);
      await panel(page).getByText('连线排序设置').waitFor();
      await button(panel(page), '排序').click();
      await opened(order);
      expect(await items()).toEqual(['小标本', '大标本']);
      await button(order, '取消').click();
      conditions = await openConditions(page, small.flow);
      await expect.poll(() => page.locator('#bio-properties-panel-name').inputValue()).toBe('小标本');
      // The control's label comes once the form's controls are read.
      await conditions.getByText('临床诊断(clinicalDiagnosis)').waitFor();
      expect(await conditionRow(conditions, 0)).toEqual([
        '病理申请单',
        '标本件数(specimenCount)',
        '<',
        '2',
        '或者(||)',
      ]);
      expect(await conditionRow(conditions, 1)).toEqual(['病理申请单', '临床诊断(clinicalDiagnosis)', '==', '5', '无']);
      // Saved again unchanged, the rows give the same text: quoting follows each control's type.
      await button(conditions, '保存').click();
      await conditions.waitFor({ state: 'detached' });
      await expect.poll(() => panel(page).locator('[data-testid="condition-text"]').inputValue()).toBe(smallCondition);
      await page.locator('[data-testid="lint-ok"]').waitFor();
      await button(designer(page), '取消').click();
      await designer(page).waitFor({ state: 'detached' });

      // Read-only view: no palette, panels disabled, the order visible but not movable.
      await openDesigner(page, 'e2e_biopsy', '查看');
      await designer(page).locator('.ant-modal-title').getByText('流程追踪').waitFor();
      expect(await designer(page).locator('.djs-palette').count()).toBe(0);
      await select(page, task.id);
      await panel(page).locator('[data-testid="form-key"]').getByText('病理申请单').waitFor();
      expect(await panel(page).locator('[data-testid="form-key"]').getAttribute('class')).toMatch(/disabled/);
      expect(await panel(page).locator('[data-testid="candidate-groups"]').getAttribute('class')).toMatch(/disabled/);
      const documentation = page.locator('[data-testid="view-documentation"]');
      expect([await documentation.inputValue(), await documentation.isDisabled()]).toEqual([
        '按申请单取材，大标本另行制片',
        true,
      ]);
      await select(page, gateway.id);
      await button(panel(page), '查看').click();
      await opened(order);
      expect(await items()).toEqual(['小标本', '大标本']);
      expect(await button(order.locator('[data-testid="flow-order-item"]').nth(1), '上移').isDisabled()).toBe(true);
      await button(order, '取消').click();
      await button(designer(page), '取消').click();
      await designer(page).waitFor({ state: 'detached' });

      await button(row(page, 'e2e_biopsy'), '部署').click();
      await agree(page, /新标本将按此版本启动流程/);
      await note(page, '部署成功');
      await row(page, 'e2e_biopsy').getByText('已部署').waitFor();

      const confirm = page.locator('.ant-modal-confirm').filter({ hasText: '此操作将永久删除该流程, 是否继续?' });
      await button(row(page, 'e2e_biopsy'), '删除').click();
      await opened(confirm);
      await confirm.locator('.ant-modal-confirm-title').getByText('警告').waitFor();
      await button(confirm, '取消').click();
      await message(page, '已取消删除');
      await confirm.waitFor({ state: 'detached' });
      expect(await row(page, 'e2e_biopsy').count()).toBe(1);
      await button(row(page, 'e2e_biopsy'), '删除').click();
      await opened(confirm);
      await button(confirm, '确定').click();
      await message(page, '删除成功');
      await row(page, 'e2e_biopsy').waitFor({ state: 'detached' });
    },
  );

  it('offers public data by kind of lab and hides it from only-lab users', async () => {
    const { page } = await newPage(shared.browser);
    await signIn(page, shared.server.url, 'lab2admin', DEMO_PASSWORD, PAGE);
    await page.getByRole('button', { name: '导入公共数据' }).waitFor();
    const only = await newPage(shared.browser);
    await signIn(only.page, shared.server.url, 'onlyadmin', DEMO_PASSWORD, PAGE);
    await only.page.locator('[data-testid="process-model-list"]').waitFor();
    expect(await only.page.getByRole('button', { name: /公共数据/ }).count()).toBe(0);
  });

  it('distributes a base model to a lab, which sees the newer version and confirms it', async () => {
    const { page } = await newPage(shared.browser);
    await signIn(page, shared.server.url, 'baseadmin', DEMO_PASSWORD, '/groupManager/publicWorkflow/workflowDesign');
    // The base organisation sees each model's version (hidden for org 1 only).
    await row(page, 'general_inspection').waitFor();
    expect(await headers(page)).toContain('版本');
    await row(page, 'general_inspection').locator('.ant-checkbox-input').check();
    await page.getByRole('button', { name: '下发公共数据' }).click();
    await opened(page.locator('.ant-modal').filter({ hasText: '选择下发实验室' }));
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
    await note(page, '下发成功');

    // The base organisation changes the model (the designer's save call), so the lab copy has news.
    const token = await tokenFor(shared.server.url, 'baseadmin', DEMO_PASSWORD);
    const base = (
      await api(shared.server.url, token).get<{ id: string; key: string }[]>('/api/workflow/model/list?orgId=0')
    ).body.resultObject;
    const source = base.find((m) => m.key === 'general_inspection')!;
    const xml = (await api(shared.server.url, token).get<{ bpmnXml: string }>(`/api/workflow/model/${source.id}/xml`))
      .body.resultObject.bpmnXml;
    const saved = await fetch(`${shared.server.url}/api/workflow/model/${source.id}/xml/save`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ bpmn_xml: xml.replace('上机检验', '上机检验（复检）'), svg_xml: '' }),
    });
    expect(saved.status).toBe(200);

    const lab = await newPage(shared.browser);
    await signIn(lab.page, shared.server.url, 'lab3admin', DEMO_PASSWORD, PAGE);
    await row(lab.page, 'general_inspection').getByText('有新版本 v2').waitFor();
    await lab.page.getByRole('button', { name: '确认更新' }).click();
    await agree(lab.page, /将用集团的新版本更新 \d+ 个流程/);
    await note(lab.page, '更新成功');
    await row(lab.page, 'general_inspection').getByText('有新版本 v2').waitFor({ state: 'detached' });
  });

  it('is usable with a screen reader: axe finds nothing serious in the designer, its palette and properties panel', async () => {
    await createModel('e2e_axe');
    const { page } = await listWith('e2e_axe', AXE_SOURCE);
    await openDesigner(page, 'e2e_axe', '编辑');
    await select(page, 'startEvent');
    await append(page, 'append.user-task');
    await page.locator('#bio-properties-panel-name').waitFor();
    // The lint list comes after a pause: checked with it, so its coloured header is checked every run.
    await page.locator('[data-testid="lint-issues"], [data-testid="lint-ok"]').first().waitFor();
    expect(once(await violations(page, 'designer', '.ant-modal:has([data-testid="designer-canvas"])'))).toEqual([]);
    await page.context().close();
  });

  it('offers exactly the palette of spec 2.4 and names the events created from it 开始, 完成 and 终止', async () => {
    await createModel('e2e_palette');
    const { page } = await listWith('e2e_palette');
    await openDesigner(page, 'e2e_palette', '编辑');
    const palette = designer(page).locator('.djs-palette');
    await palette.locator('.entry[data-action="create.user-task"]').waitFor();
    const entries = await palette
      .locator('.entry[data-action]')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-action')));
    // bpmn-js's tools, the spec's custom entries (start, intermediate, end, gateway, task, user task, call
    // activity, subprocess, data object, data store, expanded participant, group), nothing else of bpmn-js.
    expect(entries.sort()).toEqual(
      [
        'hand-tool',
        'lasso-tool',
        'space-tool',
        'global-connect-tool',
        'create.start-event',
        'create.intermediate-event',
        'create.end-event',
        'create.exclusive-gateway',
        'create.task',
        'create.user-task',
        'create.call-activity',
        'create.subprocess-expanded',
        'create.data-object',
        'create.data-store',
        'create.participant-expanded',
        'create.group',
      ].sort(),
    );

    // Each event dropped from the palette onto an empty part of the canvas gets its default name.
    const canvas = (await designer(page).locator('[data-testid="designer-canvas"]').boundingBox())!;
    const selected = () =>
      page.locator('.djs-element.selected').evaluateAll((els) => els.map((e) => e.getAttribute('data-element-id')));
    const dropped: [string, number, string, string][] = [
      ['create.start-event', 300, '开始', 'startEvent'],
      ['create.end-event', 450, '完成', 'endEvent'],
      ['create.intermediate-event', 600, '终止', 'intermediateThrowEvent'],
    ];
    const created: [string, string, string][] = [];
    for (const [action, x, name, tag] of dropped) {
      const before = await selected();
      await palette.locator(`.entry[data-action="${action}"]`).click();
      await page.mouse.move(canvas.x + x, canvas.y + 450, { steps: 5 });
      // A drop on an empty place of the canvas: it selects no element, it says where the new one goes.
      // eslint-disable-next-line no-restricted-syntax
      await page.mouse.click(canvas.x + x, canvas.y + 450);
      await expect.poll(async () => (await selected()).join()).toMatch(/./);
      await expect.poll(selected).not.toEqual(before);
      const id = (await selected())[0]!;
      await expect.poll(() => element(page, `${id}_label`).textContent()).toBe(name);
      expect(await page.locator('#bio-properties-panel-name').inputValue()).toBe(name);
      created.push([tag, id, name]);
    }
    const xml = await viewXml(page);
    for (const [tag, id, name] of created) expect(xml).toMatch(new RegExp(`<(bpmn:)?${tag} id="${id}" name="${name}"`));
  });

  it(
    'sets the user task multi-instance (parallel, sequential, none) with its pass weight and the priority in the XML',
    { timeout: 120_000 },
    async () => {
      await createModel('e2e_multi');
      const { page } = await listWith('e2e_multi');
      await openDesigner(page, 'e2e_multi', '编辑');
      await select(page, 'startEvent');
      const task = await append(page, 'append.user-task');
      const miType = panel(page).locator('[data-testid="mi-type"]');
      await miType.getByText('非多实例').waitFor();
      expect(await panelField(page, '通过权重').count()).toBe(0);

      await choose(page, miType, '同时进行');
      const weight = panelField(page, '通过权重[1-100]').locator('input');
      await expect.poll(() => weight.inputValue()).toBe('100');
      await weight.fill('60');
      await expect.poll(() => weight.inputValue()).toBe('60');
      const priority = panelField(page, '优先级[1-100]').locator('input');
      await priority.fill('7');
      await expect.poll(() => priority.inputValue()).toBe('7');
      await page.locator('[data-testid="designer-ok"]').click();
      await message(page, '编辑成功');
      await designer(page).waitFor({ state: 'detached' });

      // Saved and reopened: the panel and the XML both carry it.
      await openDesigner(page, 'e2e_multi', '编辑');
      await select(page, task.id);
      await miType.getByText('同时进行').waitFor();
      expect(await weight.inputValue()).toBe('60');
      expect(await priority.inputValue()).toBe('7');
      let inXml = await taskInXml(page, await viewXml(page), task.id);
      expect(inXml.priority).toBe('7');
      expect(inXml.loop?.completionCondition).toBe(passWeightCondition(60));
      // Parallel: isSequential false, BPMN's default, which bpmn-js writes by leaving the attribute out.
      expect([null, 'false']).toContain(inXml.loop?.isSequential);

      await choose(page, miType, '顺序进行');
      inXml = await taskInXml(page, await viewXml(page), task.id);
      expect(inXml.loop).toEqual({ isSequential: 'true', completionCondition: passWeightCondition(60) });
      expect(await weight.inputValue()).toBe('60');

      await choose(page, miType, '非多实例');
      await panelField(page, '通过权重').waitFor({ state: 'detached' });
      inXml = await taskInXml(page, await viewXml(page), task.id);
      expect(inXml).toEqual({ priority: '7', loop: null });
      await button(designer(page), '取消').click();
      await designer(page).waitFor({ state: 'detached' });
    },
  );

  it('shows the jump condition only for flows leaving an activity or an exclusive gateway, not a start event or a parallel gateway', async () => {
    const nodes: Node[] = [
      { id: 'startEvent', kind: 'startEvent', name: '开始' },
      { id: 'fork', kind: 'parallelGateway' },
      { id: 'task', kind: 'userTask', name: '取材' },
      { id: 'choice', kind: 'exclusiveGateway' },
      { id: 'end', kind: 'endEvent', name: '完成' },
    ];
    const flows: Flow[] = [
      { id: 'fromStart', from: 'startEvent', to: 'fork' },
      { id: 'fromFork', from: 'fork', to: 'task' },
      { id: 'fromTask', from: 'task', to: 'choice' },
      { id: 'fromChoice', from: 'choice', to: 'end' },
    ];
    await createModel('e2e_jumps', { nodes, flows });
    const { page } = await listWith('e2e_jumps');
    await openDesigner(page, 'e2e_jumps', '编辑');
    const condition = panel(page).locator('[data-testid="condition-text"]');
    const shown: [string, boolean][] = [
      ['fromTask', true],
      ['fromStart', false],
      ['fromChoice', true],
      ['fromFork', false],
    ];
    for (const [flow, withCondition] of shown) {
      await select(page, flow);
      await expect.poll(() => page.locator('#bio-properties-panel-id').inputValue()).toBe(flow);
      // Each flow follows one of the other kind, so the part appears or goes only for this flow.
      await condition.waitFor({ state: withCondition ? 'visible' : 'detached' });
      expect(await panel(page).locator('[data-testid="open-condition"]').count(), flow).toBe(withCondition ? 1 : 0);
      expect(await panel(page).getByText('跳转条件').count(), flow).toBe(withCondition ? 1 : 0);
    }
  });

  it(
    "writes the condition dialog's form ids to lims:formId, a free-typed field (A99999) included, and reads them back",
    { timeout: 120_000 },
    async () => {
      const token = await tokenFor(shared.server.url, 'admin', DEMO_PASSWORD);
      const forms = (
        await api(shared.server.url, token).get<{ id: number | string; pageName: string }[]>(
          '/api/form/findAllFormInfos?orgId=1',
        )
      ).body.resultObject;
      const form = String(forms.find((f) => f.pageName === '病理申请单')!.id);
      await createModel('e2e_form_ids', {
        nodes: [
          { id: 'startEvent', kind: 'startEvent', name: '开始' },
          { id: 'task', kind: 'userTask', name: '申请', formKey: Number(form) },
          { id: 'choice', kind: 'exclusiveGateway' },
          { id: 'end', kind: 'endEvent', name: '完成' },
        ],
        flows: [
          { id: 'toTask', from: 'startEvent', to: 'task' },
          { id: 'toChoice', from: 'task', to: 'choice' },
          { id: 'toEnd', from: 'choice', to: 'end' },
        ],
      });
      const { page } = await listWith('e2e_form_ids');
      await openDesigner(page, 'e2e_form_ids', '编辑');
      let conditions = await openConditions(page, 'toEnd');
      await conditions.locator('[data-testid="cond-add"]').click();
      await choose(page, conditions.locator('[data-testid="cond-form"]'), '病理申请单');
      await choose(page, conditions.locator('[data-testid="cond-variable"]'), '标本件数(specimenCount)');
      await choose(page, conditions.locator('[data-testid="cond-operator"]'), /^>=$/);
      await conditions.locator('[data-testid="cond-value"] input').fill('3');
      await choose(page, conditions.locator('[data-testid="cond-logic"]'), '并且(&&)');
      await conditions.locator('[data-testid="cond-add"]').click();
      await choose(page, conditions.locator('[data-testid="cond-form"]').nth(1), `自定义字段(${FREE_FORM_ID})`);
      // The free form has no controls to choose from: the field name is typed.
      await conditions.locator('[data-testid="cond-variable"]').nth(1).locator('input').fill('sampleType');
      await choose(page, conditions.locator('[data-testid="cond-operator"]').nth(1), /^==$/);
      await conditions.locator('[data-testid="cond-value"] input').nth(1).fill('HE');
      await button(conditions, '保存').click();
      await conditions.waitFor({ state: 'detached' });
      const expression = "${specimenCount >= 3 && sampleType == 'HE'}";
      await expect.poll(() => panel(page).locator('[data-testid="condition-text"]').inputValue()).toBe(expression);
      await panelField(page, '表单(formId)').getByText(`${form},${FREE_FORM_ID}`).waitFor();
      expect(await flowInXml(page, await viewXml(page), 'toEnd')).toEqual({
        formId: `${form},${FREE_FORM_ID}`,
        condition: expression,
      });

      await page.locator('[data-testid="designer-ok"]').click();
      await message(page, '编辑成功');
      await designer(page).waitFor({ state: 'detached' });
      await openDesigner(page, 'e2e_form_ids', '编辑');
      expect(await flowInXml(page, await viewXml(page), 'toEnd')).toEqual({
        formId: `${form},${FREE_FORM_ID}`,
        condition: expression,
      });
      conditions = await openConditions(page, 'toEnd');
      await conditions.getByText('标本件数(specimenCount)').waitFor();
      expect(await conditionRow(conditions, 0)).toEqual([
        '病理申请单',
        '标本件数(specimenCount)',
        '>=',
        '3',
        '并且(&&)',
      ]);
      expect([
        await conditions.locator('[data-testid="cond-form"]').nth(1).innerText(),
        await conditions.locator('[data-testid="cond-variable"]').nth(1).locator('input').inputValue(),
        await conditions.locator('[data-testid="cond-value"] input').nth(1).inputValue(),
      ]).toEqual([`自定义字段(${FREE_FORM_ID})`, 'sampleType', 'HE']);
      await button(conditions, '取消').click();
      await conditions.waitFor({ state: 'detached' });
      await button(designer(page), '取消').click();
      await designer(page).waitFor({ state: 'detached' });
    },
  );

  it('sizes the designer 90 % wide with a 700 px editor over an 8000×1500 canvas, the condition dialog 1100 px and the order dialog 500 px', async () => {
    await createModel('e2e_sizes');
    const { page } = await listWith('e2e_sizes');
    await openDesigner(page, 'e2e_sizes', '编辑');
    const near = (actual: number, expected: number) => Math.abs(actual - expected) <= 3;
    const viewport = await page.evaluate(() => document.documentElement.clientWidth);
    const modal = await size(designer(page));
    expect(near(modal.width, viewport * 0.9), `designer ${modal.width} of ${viewport}`).toBe(true);
    const editor = await size(designer(page).locator('[data-testid="designer-canvas"]'));
    expect(near(editor.height, 700), `editor height ${editor.height}`).toBe(true);
    expect(await size(designer(page).locator('.lims-designer-canvas'))).toEqual({
      width: 8000,
      height: 1500,
    });

    await select(page, 'startEvent');
    const gateway = await append(page, 'append.gateway');
    const end = await append(page, 'append.end-event');
    const conditions = await openConditions(page, end.flow);
    const conditionSize = await size(conditions);
    expect(near(conditionSize.width, 1100), `condition dialog ${conditionSize.width}`).toBe(true);
    const table = await size(conditions.locator('.ant-modal-body > div').filter({ has: page.locator('.ant-table') }));
    expect(near(table.height, 700), `condition table ${table.height}`).toBe(true);
    await button(conditions, '取消').click();
    await conditions.waitFor({ state: 'detached' });

    await select(page, gateway.id);
    await button(panel(page), '排序').click();
    const order = await opened(dialog(page, '连线排序设置'));
    const orderSize = await size(order);
    expect(near(orderSize.width, 500), `order dialog ${orderSize.width}`).toBe(true);
    await button(order, '取消').click();
    await button(designer(page), '取消').click();
    await designer(page).waitFor({ state: 'detached' });
  });

  it('tells the user which elements of an imported Activiti file it cannot read, and opens the rest', async () => {
    const id = await createModel('e2e_unknown_element');
    const token = await tokenFor(shared.server.url, 'admin', DEMO_PASSWORD);
    const nodes: Node[] = [
      { id: 'startEvent', kind: 'startEvent', name: '开始' },
      { id: 'grossing', kind: 'userTask', name: '取材' },
      { id: 'end', kind: 'endEvent', name: '完成' },
    ];
    const flows: Flow[] = [
      { id: 'f1', from: 'startEvent', to: 'grossing' },
      { id: 'f2', from: 'grossing', to: 'end' },
    ];
    // An Activiti extension our descriptor does not define, as another engine's file may carry.
    const xml = modelXml('e2e_unknown_element', 'e2e_unknown_element', nodes, flows).replace(
      '<userTask id="grossing" name="取材"/>',
      '<userTask id="grossing" name="取材"><extensionElements><activiti:slideScanner model="KF-PRO-120"/></extensionElements></userTask>',
    );
    await saveXml(shared.server.url, token, id, xml);
    const { page, consoleErrors } = await listWith('e2e_unknown_element');
    await button(row(page, 'e2e_unknown_element'), '编辑').click();
    const warning = page.locator('.ant-modal-confirm-warning');
    await warning.getByText('导入时未能识别以下内容，保存后将不再保留：activiti:slideScanner').waitFor();
    await button(warning, '确定').click();
    await warning.waitFor({ state: 'detached' });
    // The rest of the diagram is there to edit.
    await element(page, 'grossing').waitFor();
    await element(page, 'end').waitFor();
    expect(consoleErrors).toEqual([]);
    await button(designer(page), '取消').click();
    await designer(page).waitFor({ state: 'detached' });
  });

  it('tells the user and the console when the diagram XML cannot be fetched, and opens it once it can', async () => {
    const id = await createModel('e2e_xml_fails');
    const { page, consoleErrors } = await listWith('e2e_xml_fails');
    const xmlUrl = `${shared.server.url}/api/workflow/model/${id}/xml`;
    let refused = 0;
    await page.route(xmlUrl, async (route) => {
      if (route.request().method() !== 'GET') return route.continue();
      refused++;
      await route.fulfill({ status: 500, contentType: 'application/json', body: '' });
    });
    await button(row(page, 'e2e_xml_fails'), '编辑').click();
    await opened(designer(page));
    await message(page, '获取反显流程xml失败');
    expect(refused).toBe(1);
    await expect.poll(() => consoleErrors.some((e) => e.startsWith('获取反显流程xml失败'))).toBe(true);
    // Besides the designer's own error, only the browser's report of the refused call.
    expect(consoleErrors.filter((e) => !e.startsWith('获取反显流程xml失败'))).toEqual([
      'Failed to load resource: the server responded with a status of 500 (Internal Server Error)',
    ]);
    // Nothing to show or save, and no endless spinner.
    expect(await designer(page).locator('[data-testid="view-xml"]').isDisabled()).toBe(true);
    expect(await designer(page).locator('[data-testid="designer-ok"]').isDisabled()).toBe(true);
    await designer(page).locator('.ant-spin-spinning').waitFor({ state: 'detached' });
    expect(await element(page, 'startEvent').count()).toBe(0);
    await button(designer(page), '取消').click();
    await designer(page).waitFor({ state: 'detached' });

    await page.unroute(xmlUrl);
    await openDesigner(page, 'e2e_xml_fails', '编辑');
    await button(designer(page), '取消').click();
    await designer(page).waitFor({ state: 'detached' });
  });
});
