import { describe, expect, it } from 'vitest';
import type { Locator, Page, Response } from 'playwright-core';
import { DEMO_PASSWORD } from '../support/server';
import { newPage } from '../support/browser';
import { api, tokenFor } from '../support/client';
import { serverAndBrowser } from '../support/e2e';
import { eventually, signIn } from '../support/shell';
import { modelXml, saveXml } from '../support/workflow';

/**
 * The process model list (spec 2.4, 8) as a lab's administrator uses it: keyword search, server-side
 * sort, what the columns show, batch actions, the new-model dialog, delete and deploy failures, and a
 * sub lab's index column and import dialog.
 */
const PAGE = '/laboratoryManager/form/workflowDesign';
const LIST = '[data-testid="process-model-list"]';
const shared = serverAndBrowser();

interface Model {
  id: string;
  key: string;
  name: string;
  category: number;
  lastUpdateTime: string;
}

/** An API client signed in as one of the demo accounts. */
async function as(account: string) {
  const token = await tokenFor(shared.server.url, account, DEMO_PASSWORD);
  return { token, client: api(shared.server.url, token) };
}

/** Inserts a model through the API (the body the new-model dialog sends); answers the row. */
async function insert(account: string, body: { key: string; name: string; category: number; orgId?: number }) {
  const { client } = await as(account);
  const res = await client.post<Model>('/api/workflow/model/insert', body);
  expect(res.body.resultCode, res.body.resultMessage).toBe(200);
  return res.body.resultObject;
}

const rows = (scope: Page | Locator) => scope.locator('.ant-table-tbody tr.ant-table-row');
const list = (page: Page) => page.locator(LIST);
const row = (page: Page, key: string) => rows(list(page)).filter({ hasText: key });
const dialog = (page: Page, title: string) =>
  page.locator('.ant-modal').filter({ has: page.locator('.ant-modal-title', { hasText: title }) });
/** antd puts a space between two Chinese characters of a button's label. */
const button = (scope: Page | Locator, label: string) =>
  scope.getByRole('button', { name: new RegExp(`^${[...label].join('\\s*')}$`) });

/** A dialog once it has zoomed open: a click while it still grows can land beside its moving buttons. */
async function opened(modal: Locator): Promise<Locator> {
  await modal.waitFor();
  await eventually(() => modal.getAttribute('class')).not.toMatch(/-zoom-/);
  return modal;
}

/** The texts of one column of a table (found by its header), top to bottom. */
async function column(scope: Locator, title: string): Promise<string[]> {
  const titles = (await scope.locator('.ant-table-thead th').allTextContents()).map((t) => t.trim());
  const index = titles.indexOf(title);
  if (index < 0) throw new Error(`no column ${title} among ${JSON.stringify(titles)}`);
  return rows(scope).evaluateAll((trs, i) => trs.map((tr) => (tr.children[i]?.textContent ?? '').trim()), index);
}
const keys = (page: Page) => column(list(page), '流程标识');

/**
 * Every message the page shows, recorded as it appears (info, success and warning stay only 1 s): its
 * kind (success, error, warning, info) and its text.
 */
interface Shown {
  type: string;
  text: string;
}
async function recordMessages(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const shown: { type: string; text: string }[] = [];
    // The text each notice showed last: a message given a key replaces the one before it in place
    // (a success taking the place of an earlier try's error), and that is a message shown too.
    const done = new WeakMap<Element, string>();
    (window as unknown as { __messages: typeof shown }).__messages = shown;
    const scan = () => {
      for (const notice of document.querySelectorAll('.ant-message-notice')) {
        const text = (notice.textContent ?? '').trim();
        if (done.get(notice) === text || !text) continue;
        done.set(notice, text);
        const typed = [notice, ...notice.querySelectorAll('*')]
          .flatMap((el) => [...el.classList])
          .find((c) => /^ant-message-(success|error|warning|info)$/.test(c));
        shown.push({ type: typed?.slice('ant-message-'.length) ?? '', text });
      }
    };
    new MutationObserver(scan).observe(document, { childList: true, subtree: true, characterData: true });
  });
}
const messages = (page: Page) => page.evaluate(() => (window as unknown as { __messages: Shown[] }).__messages.slice());
const forgetMessages = (page: Page) =>
  page.evaluate(() => {
    (window as unknown as { __messages: Shown[] }).__messages.length = 0;
  });
/** Waits until a message of this kind and text (or text pattern) has been shown; answers its text. */
async function shown(page: Page, type: string, text: string | RegExp): Promise<string> {
  const match = (m: Shown) => m.type === type && (typeof text === 'string' ? m.text === text : text.test(m.text));
  // Polls the whole record so a failure names what was shown instead.
  await eventually(() => messages(page)).toContainEqual({
    type,
    text: typeof text === 'string' ? text : expect.stringMatching(text),
  });
  return (await messages(page)).find(match)!.text;
}

const isListCall = (r: Response) => new URL(r.url()).pathname === '/api/workflow/model/list';

/** The list has its rows: no spinner over the table. */
const settled = (page: Page) => eventually(() => list(page).locator('.ant-spin-spinning').count()).toBe(0);

/** A fresh page recording its messages, signed in on the model list with its first rows loaded. */
async function openList(account: string) {
  const { page, consoleErrors } = await newPage(shared.browser);
  await recordMessages(page);
  const listed = page.waitForResponse(isListCall, { timeout: 60_000 });
  await signIn(page, shared.server.url, account, DEMO_PASSWORD, PAGE);
  expect((await listed).status()).toBe(200);
  await list(page).waitFor();
  await settled(page);
  return { page, consoleErrors };
}

/** Does something and waits for the list call it sets going, whose query must carry these parameters. */
async function listCall(page: Page, params: Record<string, string>, action: () => Promise<void>) {
  const answered = page.waitForResponse((r) => {
    if (!isListCall(r)) return false;
    const query = new URL(r.url()).searchParams;
    return Object.entries(params).every(([k, v]) => query.get(k) === v);
  });
  await action();
  expect((await answered).status()).toBe(200);
}

/** The refusals the browser logs itself for a failed call (the product logs nothing else). */
const refused = (status: number, text: string) =>
  `Failed to load resource: the server responded with a status of ${status} (${text})`;

describe('process model list (spec 2.4, 8)', () => {
  it('narrows the rows to the models whose name holds the keyword, by the search button and by Enter', async () => {
    await insert('admin', { key: 'srch_blood', name: '检索血常规流程', category: 1 });
    await insert('admin', { key: 'srch_urine', name: '检索尿常规流程', category: 1 });
    await insert('admin', { key: 'srch_consult', name: '检索会诊流程', category: 3 });
    const { page, consoleErrors } = await openList('admin');
    await row(page, 'srch_consult').waitFor();
    const all = await keys(page);
    expect(all).toEqual(expect.arrayContaining(['srch_blood', 'srch_urine', 'srch_consult', 'pathology_biopsy']));
    const search = list(page).getByPlaceholder('流程名称');

    // The search button asks for the keyword typed.
    await search.fill('常规');
    await listCall(page, { searchKeyWord: '常规', orgId: '1' }, () => button(list(page), '查询').click());
    await eventually(async () => (await keys(page)).sort()).toEqual(['srch_blood', 'srch_urine']);

    // Enter asks too.
    await search.fill('会诊');
    await listCall(page, { searchKeyWord: '会诊' }, () => search.press('Enter'));
    await eventually(() => keys(page)).toEqual(['srch_consult']);

    // The keyword is looked for in the name, not in the key.
    await search.fill('srch');
    await listCall(page, { searchKeyWord: 'srch' }, () => search.press('Enter'));
    await eventually(() => keys(page)).toEqual([]);
    await list(page).locator('.ant-table-placeholder').waitFor();

    // An empty keyword brings every model back.
    await search.fill('');
    await listCall(page, { searchKeyWord: '' }, () => button(list(page), '查询').click());
    await eventually(async () => (await keys(page)).sort()).toEqual([...all].sort());
    expect(consoleErrors).toEqual([]);
  });

  it('sorts on the server by key, category, last update time and deployment state, ascending then descending', async () => {
    // Inserted b, c, a; c is then drawn and deployed, so it is the one updated last.
    await insert('admin', { key: 'sort_b', name: '排序验证乙', category: 1 });
    await insert('admin', { key: 'sort_c', name: '排序验证丙', category: 5 });
    await insert('admin', { key: 'sort_a', name: '排序验证甲', category: 3 });
    const { token, client } = await as('admin');
    const c = (await client.get<Model[]>('/api/workflow/model/list?orgId=1')).body.resultObject.find(
      (m) => m.key === 'sort_c',
    )!;
    await saveXml(
      shared.server.url,
      token,
      c.id,
      modelXml(
        'sort_c',
        '排序验证丙',
        [
          { id: 'start', kind: 'startEvent', name: '开始' },
          { id: 'end', kind: 'endEvent', name: '完成' },
        ],
        [{ id: 'f1', from: 'start', to: 'end' }],
      ),
    );
    const deployed = await client.get(`/api/workflow/model/deploy?modelId=${c.id}`);
    expect(deployed.body.resultCode, deployed.body.resultMessage).toBe(200);

    const { page, consoleErrors } = await openList('admin');
    const search = list(page).getByPlaceholder('流程名称');
    await search.fill('排序验证');
    await listCall(page, { searchKeyWord: '排序验证' }, () => search.press('Enter'));
    // Unsorted: last updated first.
    await eventually(() => keys(page)).toEqual(['sort_c', 'sort_a', 'sort_b']);

    const header = (title: string) =>
      list(page)
        .locator('.ant-table-thead th')
        .filter({ has: page.getByText(title, { exact: true }) });
    const sortBy = async (title: string, sort: string, order: 'asc' | 'desc', expected: string[]) => {
      await listCall(page, { sort, order, searchKeyWord: '排序验证' }, () => header(title).click());
      await eventually(() => keys(page)).toEqual(expected);
      const sortOrder = order === 'asc' ? 'ascending' : 'descending';
      expect(await header(title).getAttribute('aria-sort')).toBe(sortOrder);
    };
    await sortBy('流程标识', 'key', 'asc', ['sort_a', 'sort_b', 'sort_c']);
    await sortBy('流程标识', 'key', 'desc', ['sort_c', 'sort_b', 'sort_a']);
    await sortBy('类别', 'category', 'asc', ['sort_b', 'sort_a', 'sort_c']);
    await sortBy('类别', 'category', 'desc', ['sort_c', 'sort_a', 'sort_b']);
    await sortBy('最后更新时间', 'lastUpdateTime', 'asc', ['sort_b', 'sort_a', 'sort_c']);
    await sortBy('最后更新时间', 'lastUpdateTime', 'desc', ['sort_c', 'sort_a', 'sort_b']);

    // Deployment state: the two undeployed ones (in either order) before the deployed one, then after it.
    const undeployedFirst = async () => {
      const order = await keys(page);
      return [order.slice(0, 2).sort(), order[2]];
    };
    await listCall(page, { sort: 'deploymentId', order: 'asc' }, () => header('部署状态').click());
    await eventually(undeployedFirst).toEqual([['sort_a', 'sort_b'], 'sort_c']);
    expect(await column(list(page), '部署状态')).toEqual(['未部署', '未部署', '已部署']);
    await listCall(page, { sort: 'deploymentId', order: 'desc' }, () => header('部署状态').click());
    await eventually(async () => (await keys(page))[0]).toBe('sort_c');
    expect(await column(list(page), '部署状态')).toEqual(['已部署', '未部署', '未部署']);
    expect(consoleErrors).toEqual([]);
  });

  it('shows the category by its label and the last update time as YYYY-MM-DD HH:mm:ss', async () => {
    const labels = ['普检', '特检', '组织病理', '细胞病理', '微生物'];
    const created: Model[] = [];
    for (let category = 1; category <= labels.length; category++)
      created.push(await insert('admin', { key: `label_${category}`, name: `类别显示${category}`, category }));
    const { page, consoleErrors } = await openList('admin');
    const search = list(page).getByPlaceholder('流程名称');
    await search.fill('类别显示');
    await listCall(page, { searchKeyWord: '类别显示' }, () => search.press('Enter'));
    await eventually(async () => (await keys(page)).length).toBe(5);

    const shownKeys = await keys(page);
    const categories = await column(list(page), '类别');
    const times = await column(list(page), '最后更新时间');
    for (const model of created) {
      const at = shownKeys.indexOf(model.key);
      expect(categories[at], model.key).toBe(labels[model.category - 1]);
      expect(times[at]).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
      // The server's time in the browser's own time zone, to the second.
      const local = await page.evaluate((iso) => {
        const d = new Date(iso);
        const p = (n: number) => String(n).padStart(2, '0');
        return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
      }, model.lastUpdateTime);
      expect(times[at], model.key).toBe(local);
    }
    expect(consoleErrors).toEqual([]);
  });

  it('asks for a selection before the main lab synchronises or confirms updates', async () => {
    const { page, consoleErrors } = await openList('admin');
    const batchCalls: string[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname === '/api/workflow/syncModel') batchCalls.push(r.url());
    });
    await rows(list(page)).first().waitFor();
    expect(await list(page).locator('.ant-table-tbody .ant-checkbox-input:checked').count()).toBe(0);

    await button(list(page), '同步公共数据').click();
    await shown(page, 'warning', '请先勾选数据进行操作');
    await forgetMessages(page);
    await button(list(page), '确认更新').click();
    await shown(page, 'warning', '请先勾选数据进行操作');
    expect(batchCalls).toEqual([]);
    expect(consoleErrors).toEqual([]);
  });

  it("adds a model: a duplicate key shows the server's message, OK is disabled while the call runs, a new one is listed", async () => {
    await insert('admin', { key: 'add_taken', name: '已有标识流程', category: 2 });
    const { page, consoleErrors } = await openList('admin');
    await row(page, 'add_taken').waitFor();

    await button(list(page), '新增模型').click();
    const add = await opened(dialog(page, '新增模型'));
    await add.locator('[data-testid="new-key"]').fill('add_taken');
    await add.locator('[data-testid="new-name"]').fill('重复标识流程');
    const refusedInsert = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/workflow/model/insert');
    await button(add, '确定').click();
    const answer = await refusedInsert;
    expect(answer.status()).toBe(400);
    const { resultMessage } = (await answer.json()) as { resultMessage: string };
    expect(resultMessage).toBe('流程标识已存在');
    await shown(page, 'error', resultMessage);
    // The dialog stays open with what was typed, and the list holds the key once.
    expect(await add.locator('[data-testid="new-key"]').inputValue()).toBe('add_taken');
    expect(await row(page, 'add_taken').count()).toBe(1);

    // The next insert is held until released, so the dialog can be read while it is under way.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let inserts = 0;
    await page.route('**/api/workflow/model/insert', async (route) => {
      inserts += 1;
      await held;
      await route.continue();
    });
    await forgetMessages(page);
    await add.locator('[data-testid="new-key"]').fill('add_fresh');
    await add.locator('[data-testid="new-name"]').fill('新增验证流程');
    // Located by its place, not its name: a loading button's name gains its spinner's label.
    const ok = add.locator('.ant-modal-footer .ant-btn-primary');
    await ok.click();
    await eventually(() => inserts).toBe(1);
    await eventually(() => ok.isDisabled()).toBe(true);
    expect(await ok.getAttribute('class')).toMatch(/ant-btn-loading/);
    // A second click on the disabled button sends nothing more.
    await ok.click({ force: true });
    release();
    await shown(page, 'success', '新增成功');
    await add.waitFor({ state: 'detached' });
    await row(page, 'add_fresh').waitFor();
    expect(inserts).toBe(1);
    // A new model: its name, the default category (2, 特检), not deployed.
    expect(await row(page, 'add_fresh').textContent()).toMatch(/新增验证流程.*特检.*未部署/);
    await page.unroute('**/api/workflow/model/insert');
    expect(consoleErrors).toEqual([refused(400, 'Bad Request')]);
  });

  it('deletes only when confirmed: cancel shows 已取消删除, a server failure shows 删除失败 and keeps the row', async () => {
    const model = await insert('admin', { key: 'del_keep', name: '删除验证流程', category: 4 });
    const { page, consoleErrors } = await openList('admin');
    await row(page, 'del_keep').waitFor();
    const confirm = page.locator('.ant-modal-confirm').filter({ hasText: '此操作将永久删除该流程, 是否继续?' });
    const deleteCalls: string[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname === '/api/workflow/deleteModel') deleteCalls.push(r.url());
    });

    await button(row(page, 'del_keep'), '删除').click();
    await opened(confirm);
    await confirm.locator('.ant-modal-confirm-title').getByText('警告').waitFor();
    await button(confirm, '取消').click();
    await shown(page, 'info', '已取消删除');
    await confirm.waitFor({ state: 'detached' });
    expect(deleteCalls).toEqual([]);
    expect(await row(page, 'del_keep').count()).toBe(1);

    // The server fails: an HTTP 500 with its error envelope, then (spec 7.5: only resultCode 200 is
    // success) an HTTP 200 whose envelope says 500.
    const failures = [
      { status: 500, body: { resultCode: 500, resultMessage: '服务器内部错误', resultObject: null } },
      { status: 200, body: { resultCode: 500, resultMessage: '服务器内部错误', resultObject: null } },
    ];
    const deleteUrl = (url: URL) => url.pathname === '/api/workflow/deleteModel';
    for (const failure of failures) {
      await page.route(deleteUrl, (route) =>
        route.fulfill({
          status: failure.status,
          contentType: 'application/json',
          body: JSON.stringify(failure.body),
        }),
      );
      await forgetMessages(page);
      await button(row(page, 'del_keep'), '删除').click();
      await opened(confirm);
      await button(confirm, '确定').click();
      await confirm.waitFor({ state: 'detached' });
      // 删除失败 first (spec 8), then the server's reason.
      await shown(page, 'error', '删除失败：服务器内部错误');
      expect((await messages(page)).map((m) => m.text)).not.toContain('删除成功');
      expect(await row(page, 'del_keep').count()).toBe(1);
      await page.unroute(deleteUrl);
    }
    expect(deleteCalls).toHaveLength(2);
    const { client } = await as('admin');
    const still = (await client.get<Model[]>('/api/workflow/model/list?orgId=1')).body.resultObject;
    expect(still.map((m) => m.id)).toContain(model.id);
    expect(consoleErrors).toEqual([refused(500, 'Internal Server Error')]);
  });

  it('refuses to deploy a model never drawn with a message starting 部署失败', async () => {
    await insert('admin', { key: 'deploy_blank', name: '部署验证流程', category: 5 });
    const { page, consoleErrors } = await openList('admin');
    await row(page, 'deploy_blank').waitFor();
    await button(row(page, 'deploy_blank'), '部署').click();
    // Deploying asks first: it changes what every new specimen of the category runs.
    const ask = page.locator('.ant-modal-confirm').filter({ hasText: '部署「部署验证流程」后' });
    await button(ask, '确定').click();
    const text = await shown(page, 'error', /^部署失败/);
    expect(text).toBe('部署失败：流程尚未设计，不能部署');
    await row(page, 'deploy_blank').getByText('未部署').waitFor();
    expect(consoleErrors).toEqual([refused(400, 'Bad Request')]);
  });

  it("gives a sub lab an index column instead of selection, and its import dialog lists the base organisation's models to choose", async () => {
    await insert('baseadmin', { key: 'base_import', name: '集团导入验证流程', category: 4, orgId: 0 });
    const { client: group } = await as('baseadmin');
    const base = (await group.get<Model[]>('/api/workflow/model/list?orgId=0')).body.resultObject;
    expect(base.map((m) => m.key)).toContain('base_import');

    const { page, consoleErrors } = await openList('lab2admin');
    const titles = (await list(page).locator('.ant-table-thead th').allTextContents()).map((t) => t.trim());
    expect(titles[0]).toBe('序号');
    expect(await list(page).locator('.ant-table-selection-column').count()).toBe(0);
    expect(await list(page).locator('.ant-checkbox').count()).toBe(0);
    const before = await keys(page);
    expect(before).not.toContain('base_import');
    expect(await column(list(page), '序号')).toEqual(before.map((_, i) => String(i + 1)));

    await button(list(page), '导入公共数据').click();
    const importing = await opened(dialog(page, '导入公共数据'));
    await eventually(() => column(importing, '流程标识')).toEqual(base.map((m) => m.key));
    expect(await rows(importing).locator('.ant-checkbox-input').count()).toBe(base.length);
    const baseRow = rows(importing).filter({ hasText: 'base_import' });
    expect(await baseRow.textContent()).toMatch(/集团导入验证流程.*细胞病理/);

    // Nothing chosen: the dialog asks for a choice first.
    await button(importing, '确定').click();
    await shown(page, 'warning', '请先勾选数据进行操作');
    await baseRow.locator('.ant-checkbox-input').check();
    expect(await baseRow.locator('.ant-checkbox-input').isChecked()).toBe(true);
    await button(importing, '确定').click();
    // Importing public data ends with a note that stays until closed.
    await page.locator('.lasting-note').getByText('导入成功').waitFor();
    await importing.waitFor({ state: 'detached' });
    await row(page, 'base_import').waitFor();
    const after = await keys(page);
    expect(after.sort()).toEqual([...before, 'base_import'].sort());
    expect(await column(list(page), '序号')).toEqual(after.map((_, i) => String(i + 1)));
    expect(consoleErrors).toEqual([]);
  });
});
