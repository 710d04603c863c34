import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { copySchemas, startServer, DEMO_PASSWORD, type TestServer } from '../support/server';
import { launchBrowser, newPage } from '../support/browser';
import { api, tokenFor } from '../support/client';
import { eventually, signIn } from '../support/shell';

const label = (zh: string, en: string) => ({ 'zh-CN': zh, 'en-US': en });

/** A tree data source of the test's own: the tree and the multiple reference pick from it. */
const nodeScreen = {
  schemaVersion: 2,
  id: 'kind-node',
  title: label('测试节点', 'Test nodes'),
  resource: { name: 'kindNode', titleField: 'name' },
  fields: [
    { key: 'name', type: 'text', label: label('名称', 'Name'), required: true },
    { key: 'parentId', type: 'tree', label: label('上级', 'Parent'), tree: { resource: 'kindNode' } },
  ],
};

/** One field of every kind the issue names, and commands that call the server's own endpoints. */
const kindsScreen = {
  schemaVersion: 2,
  id: 'field-kinds',
  menuId: 2029902,
  menu: { parentId: 202, path: 'fieldKinds' },
  title: label('字段类型', 'Field kinds'),
  resource: { name: 'fieldKind', titleField: 'title' },
  fields: [
    { key: 'code', type: 'barcode', label: label('条码', 'Barcode'), required: true },
    { key: 'title', type: 'text', label: label('标题', 'Title'), required: true },
    { key: 'price', type: 'money', label: label('价格', 'Price'), minimum: 0 },
    { key: 'phone', type: 'phone', label: label('手机', 'Mobile') },
    { key: 'email', type: 'email', label: label('邮箱', 'E-mail') },
    { key: 'period', type: 'dateRange', label: label('有效期', 'Valid') },
    { key: 'node', type: 'tree', label: label('所属节点', 'Node'), tree: { resource: 'kindNode' } },
    {
      key: 'tags',
      type: 'reference',
      label: label('关联节点', 'Linked nodes'),
      reference: { resource: 'kindNode', multiple: true },
    },
    { key: 'photo', type: 'image', label: label('图片', 'Picture') },
    { key: 'report', type: 'file', label: label('附件', 'Attachment') },
    {
      key: 'steps',
      type: 'list',
      label: label('步骤', 'Steps'),
      column: { width: 160 },
      itemFields: [
        { key: 'step', type: 'text', label: label('步骤名', 'Step'), required: true },
        { key: 'minutes', type: 'integer', label: label('分钟', 'Minutes') },
      ],
    },
  ],
  filters: ['title'],
  list: { selection: 'multiple' },
  actions: {
    toolbar: [{ kind: 'create' }],
    row: [
      { kind: 'edit' },
      {
        kind: 'command',
        name: 'void',
        label: label('作废', 'Void'),
        confirm: label('确认作废该记录？', 'Void this record?'),
        endpoint: '/api/resources/fieldKind/{id}',
        method: 'DELETE',
      },
    ],
    batch: [
      {
        kind: 'command',
        name: 'voidMany',
        label: label('批量作废', 'Void selected'),
        endpoint: '/api/resources/fieldKind/batchDelete',
      },
    ],
  },
  dialog: { width: 900, columns: 2 },
};

/**
 * A screen a configurator adds while the server runs, with the field types the first screen leaves out
 * (textarea, number, date, datetime, a single remote reference, an enum from a business dictionary) and
 * two predicates: 冻融次数 shows only for frozen storage, 开封时间 is enabled only once 已开封 is on.
 */
const lotScreen = {
  schemaVersion: 2,
  id: 'reagent-lot',
  menuId: 2029903,
  menu: { parentId: 202, path: 'reagentLots' },
  title: label('试剂批号', 'Reagent lots'),
  resource: { name: 'reagentLot', titleField: 'lotNo' },
  fields: [
    { key: 'lotNo', type: 'text', label: label('批号', 'Lot'), required: true, sortable: true },
    { key: 'department', type: 'reference', label: label('领用科室', 'Used by'), reference: { resource: 'kindNode' } },
    {
      key: 'concentration',
      type: 'number',
      label: label('浓度(mg/ml)', 'Concentration (mg/ml)'),
      minimum: 0,
      precision: 3,
    },
    { key: 'expiry', type: 'date', label: label('有效期至', 'Expires') },
    { key: 'storage', type: 'enum', label: label('储存条件', 'Storage'), dictionary: '试剂储存条件' },
    {
      key: 'thawCount',
      type: 'integer',
      label: label('冻融次数', 'Freeze-thaw cycles'),
      minimum: 0,
      visibleWhen: { field: 'storage', op: 'eq', value: 'FROZEN' },
    },
    { key: 'opened', type: 'boolean', label: label('已开封', 'Opened') },
    {
      key: 'openedAt',
      type: 'datetime',
      label: label('开封时间', 'Opened at'),
      enabledWhen: { field: 'opened', op: 'eq', value: true },
    },
    { key: 'remark', type: 'textarea', label: label('备注', 'Remarks'), form: { span: 2 } },
  ],
  list: { defaultSort: { field: 'lotNo', order: 'asc' } },
  filters: ['lotNo', 'storage', 'expiry'],
  actions: { toolbar: [{ kind: 'create' }], row: [{ kind: 'edit' }] },
  dialog: { width: 800, columns: 2 },
};
const LOTS = '/laboratoryManager/basic/reagentLots';

// A 1×1 PNG.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

let server: TestServer;
let browser: Browser;
let schemaDir: string;
const PAGE = '/laboratoryManager/basic/fieldKinds';
const screenFile = () => path.join(schemaDir, 'screens', 'field-kinds.json');

beforeAll(async () => {
  schemaDir = copySchemas();
  writeFileSync(path.join(schemaDir, 'screens', 'kind-node.json'), JSON.stringify(nodeScreen));
  writeFileSync(screenFile(), JSON.stringify(kindsScreen));
  [server, browser] = await Promise.all([startServer({ LIMS_SCHEMA_DIR: schemaDir }), launchBrowser()]);
  const admin = api(server.url, await tokenFor(server.url, 'admin', DEMO_PASSWORD));
  const root = await admin.post<{ id: number }>('/api/resources/kindNode', { name: '病理科' });
  await admin.post('/api/resources/kindNode', { name: '免疫组化室', parentId: root.body.resultObject.id });
  await admin.post('/api/resources/fieldKind', { code: 'BC-0002', title: 'Beta' });
});
afterAll(async () => {
  await browser?.close();
  await server?.dispose();
});

const dialog = (page: Page) => page.locator('.record-dialog');
const rows = (page: Page) => page.locator('.screen-page .ant-table-tbody tr.ant-table-row');
const fieldOf = (page: Page, key: string) =>
  page.locator('.screen-field').filter({ has: page.locator(`label[for="root_${key}"]`) });

describe('every field type of a screen, its commands and a schema changed on disk', () => {
  it('edits and shows each field type, runs commands, and takes a new schema without reload', async () => {
    const { page, consoleErrors } = await newPage(browser);
    await signIn(page, server.url, 'admin', DEMO_PASSWORD, PAGE);
    await page.locator('.screen-page[data-screen="field-kinds"]').waitFor();

    // Edit views: one control per type.
    await page.getByRole('button', { name: /新\s*增/ }).click();
    await page.locator('#root_code').fill('BC-0001');
    await page.locator('#root_code').press('Enter');
    await expect.poll(() => dialog(page).count()).toBe(1);
    await page.locator('#root_title').fill('Alpha');
    await page.locator('#root_price').fill('12.5');
    await page.locator('#root_phone').fill('13912345678');
    await page.locator('#root_email').fill('lab@');
    await page.locator('#root_email').blur();
    await fieldOf(page, 'email').getByText('请输入正确的邮箱地址').waitFor();
    await page.locator('#root_email').fill('lab@example.cn');
    await page.locator('#root_period').click();
    await page.keyboard.type('2026-01-01');
    await page.keyboard.press('Enter');
    await page.keyboard.type('2026-01-31');
    await page.keyboard.press('Enter');
    await page.locator('#root_node').click();
    await page.locator('.ant-select-tree-node-content-wrapper[title="免疫组化室"]').click();
    await page.locator('#root_tags').click();
    await page.locator('.ant-select-item-option[title="病理科"]').click();
    await page.locator('.ant-select-item-option[title="免疫组化室"]').click();
    await page.keyboard.press('Escape');
    await fieldOf(page, 'photo')
      .locator('input[type=file]')
      .setInputFiles({ name: 'slide.png', mimeType: 'image/png', buffer: PNG });
    await fieldOf(page, 'photo').locator('img').waitFor();
    await fieldOf(page, 'report')
      .locator('input[type=file]')
      .setInputFiles({ name: 'report.txt', mimeType: 'text/plain', buffer: Buffer.from('HE 染色 合格') });
    await fieldOf(page, 'report').getByText('下载').waitFor();
    await fieldOf(page, 'steps').getByTitle('Add Item').click();
    await page.locator('#root_steps_0_step').fill('取材');
    await page.locator('#root_steps_0_minutes').fill('15');
    await fieldOf(page, 'steps').getByTitle('Add Item').click();
    await page.locator('#root_steps_1_step').fill('制片');
    await dialog(page)
      .getByRole('button', { name: /确\s*定/ })
      .click();
    await dialog(page).waitFor({ state: 'detached' });

    // Read views in the list.
    const alpha = rows(page).filter({ hasText: 'BC-0001' });
    await alpha.locator('.barcode-value').filter({ hasText: 'BC-0001' }).waitFor();
    await alpha.getByText('12.50').waitFor();
    expect(await alpha.locator('a[href="tel:13912345678"]').count()).toBe(1);
    expect(await alpha.locator('a[href="mailto:lab@example.cn"]').count()).toBe(1);
    await alpha.getByText('2026-01-01 ~ 2026-01-31').waitFor();
    await alpha.getByText('病理科、免疫组化室').waitFor();
    await alpha.getByText('取材、制片').waitFor();
    expect(await alpha.locator('img').getAttribute('src')).toMatch(/^data:image\/png;base64,/);
    expect(await alpha.getByText('下载').getAttribute('href')).toMatch(/^data:text\/plain;base64,/);
    const admin = api(server.url, await tokenFor(server.url, 'admin', DEMO_PASSWORD));
    const stored = (await admin.get<{ records: Record<string, unknown>[] }>('/api/resources/fieldKind?title=Alpha'))
      .body.resultObject.records[0]!;
    expect(stored).toMatchObject({
      price: 12.5,
      period: ['2026-01-01', '2026-01-31'],
      steps: [{ step: '取材', minutes: 15 }, { step: '制片' }],
    });

    // Edit views show what was stored.
    await alpha.getByRole('button', { name: /编\s*辑/ }).click();
    expect(await page.locator('#root_price').inputValue()).toBe('12.50');
    await fieldOf(page, 'node').getByText('免疫组化室').waitFor();
    await fieldOf(page, 'tags').getByText('病理科').waitFor();
    expect(await page.locator('#root_steps_1_step').inputValue()).toBe('制片');
    await fieldOf(page, 'photo').locator('img').waitFor();
    await page.locator('#root_title').fill('Alpha 2');
    await dialog(page)
      .getByRole('button', { name: /确\s*定/ })
      .click();
    await dialog(page).waitFor({ state: 'detached' });
    await rows(page).filter({ hasText: 'Alpha 2' }).waitFor();

    // The schema file changes on disk while the page is open: the new column shows, the query stays.
    await page.locator('.screen-filters').getByPlaceholder('标题').fill('Alpha');
    await page.getByRole('button', { name: /查\s*询/ }).click();
    await expect.poll(() => rows(page).count()).toBe(1);
    const withNote = {
      ...kindsScreen,
      fields: [...kindsScreen.fields, { key: 'note', type: 'text', label: label('备注', 'Note') }],
    };
    writeFileSync(screenFile(), JSON.stringify(withNote));
    await page.locator('.ant-table-thead th').filter({ hasText: '备注' }).waitFor();
    expect(await page.locator('.screen-filters').getByPlaceholder('标题').inputValue()).toBe('Alpha');
    expect(await rows(page).count()).toBe(1);

    // A row command confirms with the schema's text, calls its endpoint and shows the new list. While
    // its call is out, its button spins and the other commands wait; the row's edit stays open.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/resources/fieldKind/*', async (route) => {
      if (route.request().method() === 'DELETE') await held;
      await route.fallback();
    });
    const alpha2 = rows(page).filter({ hasText: 'Alpha 2' });
    await alpha2.getByRole('button', { name: '作废' }).click();
    await page.locator('.ant-modal-confirm').getByText('确认作废该记录？').waitFor();
    await page
      .locator('.ant-modal-confirm')
      .getByRole('button', { name: /确\s*定/ })
      .click();
    await eventually(() => alpha2.getByRole('button', { name: '作废' }).getAttribute('aria-busy')).toBe('true');
    expect(await alpha2.getByRole('button', { name: '作废' }).isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: '批量作废' }).isDisabled()).toBe(true);
    expect(await alpha2.getByRole('button', { name: /编\s*辑/ }).isDisabled()).toBe(false);
    release();
    await page.getByText('作废成功').waitFor();
    expect(await page.getByRole('button', { name: '批量作废' }).isDisabled()).toBe(false);
    await expect.poll(() => rows(page).count()).toBe(0);

    // A batch command wants a selection, then calls its endpoint with the selected ids.
    await page.getByRole('button', { name: /重\s*置/ }).click();
    await rows(page).filter({ hasText: 'Beta' }).waitFor();
    await page.getByRole('button', { name: '批量作废' }).click();
    await page.getByText('请先勾选数据进行操作').waitFor();
    await rows(page).filter({ hasText: 'Beta' }).locator('.ant-checkbox-input').check();
    await page.getByRole('button', { name: '批量作废' }).click();
    await page.getByText('批量作废成功').waitFor();
    await expect.poll(() => rows(page).count()).toBe(0);
    expect((await admin.get<{ total: number }>('/api/resources/fieldKind')).body.resultObject.total).toBe(0);

    expect(consoleErrors).toEqual([]);
    await page.context().close();
  });
});

describe('a screen added at run time with the remaining field types and predicates', () => {
  let admin: ReturnType<typeof api>;
  beforeAll(async () => {
    admin = api(server.url, await tokenFor(server.url, 'admin', DEMO_PASSWORD));
    // The dictionary exists before anyone signs in: page entry loads the dictionaries once.
    await admin.post('/api/resources/businessDictionary', {
      name: '试剂储存条件',
      details: [
        { label: '冷藏 2-8℃', value: 'COLD' },
        { label: '冷冻 -20℃', value: 'FROZEN' },
      ],
    });
    writeFileSync(path.join(schemaDir, 'screens', 'reagent-lot.json'), JSON.stringify(lotScreen));
    // The server notices the new file by itself (no restart): wait until it serves the screen.
    const deadline = Date.now() + 10_000;
    while ((await admin.get('/api/ui/screens/reagent-lot')).status !== 200) {
      if (Date.now() > deadline) throw new Error('the server never picked up reagent-lot.json');
    }
  });

  it('fills textarea, number, date, datetime, remote reference and dictionary controls, showing and enabling fields by their predicates', async () => {
    const { page, consoleErrors } = await newPage(browser);
    await signIn(page, server.url, 'admin', DEMO_PASSWORD, LOTS);
    await page.locator('.screen-page[data-screen="reagent-lot"]').waitFor();
    await page.getByRole('button', { name: /新\s*增/ }).click();
    await page.locator('#root_lotNo').fill('L-2026-001');

    // 冻融次数 is there only while the storage is frozen.
    const thawCount = page.locator('label[for="root_thawCount"]');
    expect(await thawCount.count()).toBe(0);
    const storage = async (choice: string) => {
      await page.locator('#root_storage').click();
      await page.locator(`.ant-select-item-option[title="${choice}"]`).click();
    };
    await storage('冷冻 -20℃');
    await thawCount.waitFor();
    await storage('冷藏 2-8℃');
    await thawCount.waitFor({ state: 'detached' });
    await storage('冷冻 -20℃');
    await thawCount.waitFor();
    await page.locator('#root_thawCount').fill('2');

    // 开封时间 can be filled only once 已开封 is switched on.
    const openedAt = page.locator('#root_openedAt');
    expect(await openedAt.isDisabled()).toBe(true);
    await page.locator('#root_opened').click();
    await eventually(() => openedAt.isEnabled()).toBe(true);
    await page.locator('#root_opened').click();
    await eventually(() => openedAt.isDisabled()).toBe(true);
    await page.locator('#root_opened').click();
    await eventually(() => openedAt.isEnabled()).toBe(true);
    await openedAt.click();
    await page.keyboard.type('2026-03-01 08:30:00');
    await page.keyboard.press('Enter');

    // The reference searches the other resource on the server as the user types.
    await page.locator('#root_department').click();
    await page.keyboard.type('免疫');
    const offered = page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option');
    await eventually(() => offered.allTextContents()).toEqual(['免疫组化室']);
    await offered.click();

    await page.locator('#root_concentration').fill('0.125');
    await page.locator('#root_expiry').click();
    await page.keyboard.type('2026-12-31');
    await page.keyboard.press('Enter');
    await page.locator('#root_remark').fill('开封后避光保存\n两周内用完');
    await dialog(page)
      .getByRole('button', { name: /确\s*定/ })
      .click();
    await dialog(page).waitFor({ state: 'detached' });

    // The row reads each value as the user chose it: the dictionary's and the referenced record's labels.
    const lot = rows(page).filter({ hasText: 'L-2026-001' });
    await lot.waitFor();
    for (const shown of ['免疫组化室', '0.125', '2026-12-31', '冷冻 -20℃', '2026-03-01 08:30:00', '开封后避光保存'])
      await lot.getByText(shown).waitFor();
    await lot.locator('td').filter({ hasText: /^2$/ }).waitFor();
    const department = (
      await admin.get<{ records: { id: number }[] }>(`/api/resources/kindNode?name=${encodeURIComponent('免疫组化室')}`)
    ).body.resultObject.records[0]!.id;
    const stored = (
      await admin.get<{ records: Record<string, unknown>[] }>('/api/resources/reagentLot?lotNo=L-2026-001')
    ).body.resultObject.records;
    expect(stored).toEqual([
      expect.objectContaining({
        lotNo: 'L-2026-001',
        department,
        concentration: 0.125,
        expiry: '2026-12-31',
        storage: 'FROZEN',
        thawCount: 2,
        opened: true,
        openedAt: '2026-03-01 08:30:00',
        remark: '开封后避光保存\n两周内用完',
      }),
    ]);

    // Opened again, the form shows what was stored, with the predicates judged on the stored record.
    await lot.getByRole('button', { name: /编\s*辑/ }).click();
    await thawCount.waitFor();
    expect(await page.locator('#root_thawCount').inputValue()).toBe('2');
    expect(await openedAt.isEnabled()).toBe(true);
    expect(await openedAt.inputValue()).toBe('2026-03-01 08:30:00');
    expect(await page.locator('#root_expiry').inputValue()).toBe('2026-12-31');
    expect(await page.locator('#root_remark').inputValue()).toBe('开封后避光保存\n两周内用完');
    await fieldOf(page, 'storage').getByText('冷冻 -20℃').waitFor();
    await fieldOf(page, 'department').getByText('免疫组化室').waitFor();
    expect(consoleErrors).toEqual([]);
    await page.context().close();
  });

  it('fits the list page to the window less 105 px: rows scroll inside the table, the pager stays in view', async () => {
    for (let n = 1; n <= 30; n++)
      expect((await admin.post('/api/resources/reagentLot', { lotNo: `H-${String(n).padStart(2, '0')}` })).status).toBe(
        200,
      );
    const { page, consoleErrors } = await newPage(browser);
    await signIn(page, server.url, 'admin', DEMO_PASSWORD, LOTS);
    await rows(page).filter({ hasText: 'H-30' }).waitFor({ state: 'attached' });
    const screenPage = page.locator('.screen-page[data-screen="reagent-lot"]');
    const layout = async () => {
      const [box, pager, filters, body, inner, documentHeight] = await Promise.all([
        screenPage.boundingBox(),
        screenPage.locator('.ant-pagination').boundingBox(),
        screenPage.locator('.screen-filters').boundingBox(),
        screenPage.locator('.ant-table-body').evaluate((e) => ({ shown: e.clientHeight, rows: e.scrollHeight })),
        page.evaluate(() => window.innerHeight),
        page.evaluate(() => document.scrollingElement!.scrollHeight),
      ]);
      return { page: box!, pager: pager!, filters: filters!, body, inner, windowScrolls: documentHeight > inner };
    };
    /**
     * The page owns the window less 105 px (a few px less where the shell's header and margins take more),
     * the window itself never scrolls, the rows scroll inside the table, and the pager sits at the page's
     * foot, above its padding and the pager's margin, on screen.
     */
    const fitted = async () => {
      await eventually(async () => (await layout()).windowScrolls).toBe(false);
      const l = await layout();
      expect(l.page.height).toBeLessThanOrEqual(l.inner - 105);
      expect(l.page.height).toBeGreaterThanOrEqual(l.inner - 105 - 10);
      expect(l.body.rows).toBeGreaterThan(l.body.shown);
      expect(l.pager.y + l.pager.height).toBeLessThanOrEqual(l.inner);
      expect(l.page.y + l.page.height - (l.pager.y + l.pager.height)).toBeLessThanOrEqual(30);
      return l;
    };

    const tall = await fitted();
    // A lower window: the same page, its rows given 200 px less.
    await page.setViewportSize({ width: 1400, height: 700 });
    await eventually(async () => (await layout()).body.shown).toBeLessThanOrEqual(tall.body.shown - 199);
    const low = await fitted();
    expect(low.body.shown).toBeGreaterThanOrEqual(tall.body.shown - 201);
    // A narrower window wraps the filters to a second line: the rows give up that line, not the pager.
    await page.setViewportSize({ width: 1000, height: 700 });
    await eventually(async () => (await layout()).filters.height).toBeGreaterThan(low.filters.height + 10);
    await eventually(async () => (await layout()).body.shown).toBeLessThan(low.body.shown);
    await fitted();
    expect(consoleErrors).toEqual([]);
    await page.context().close();
  });
});

describe('a large page of a narrow screen', () => {
  /** Two text columns, a selection and row actions, 100 rows a page: virtual rows in a table wider than its columns. */
  const narrowScreen = {
    schemaVersion: 2,
    id: 'narrow-list',
    menuId: 2029904,
    menu: { parentId: 202, path: 'narrowList' },
    title: label('窄表', 'Narrow list'),
    resource: { name: 'narrowRow' },
    fields: [
      { key: 'code', type: 'text', label: label('编号', 'Code'), sortable: true },
      { key: 'name', type: 'text', label: label('名称', 'Name') },
    ],
    list: { pageSizes: [100], defaultSort: { field: 'code', order: 'asc' }, selection: 'multiple' },
    actions: {
      toolbar: [{ kind: 'create' }],
      row: [{ kind: 'edit' }, { kind: 'delete' }],
      batch: [{ kind: 'delete' }],
    },
  };

  it('keeps the selection and action columns their size and gives the field columns the rest, without sideways scrolling', async () => {
    writeFileSync(path.join(schemaDir, 'screens', 'narrow-list.json'), JSON.stringify(narrowScreen));
    const admin = api(server.url, await tokenFor(server.url, 'admin', DEMO_PASSWORD));
    await eventually(async () => (await admin.get('/api/ui/screens/narrow-list')).status).toBe(200);
    for (let n = 1; n <= 3; n++)
      expect((await admin.post('/api/resources/narrowRow', { code: `N-${n}`, name: `第${n}行` })).status).toBe(200);
    const { page, consoleErrors } = await newPage(browser);
    await signIn(page, server.url, 'admin', DEMO_PASSWORD, '/laboratoryManager/basic/narrowList');
    // Virtual rows are not table rows (<div class="ant-table-row">).
    await page.locator('.screen-page .ant-table-row').filter({ hasText: 'N-3' }).waitFor();
    const { table, cells, sideways } = await page
      .locator('.screen-page[data-screen="narrow-list"] .ant-table')
      .evaluate((table) => {
        const cells = [...table.querySelectorAll('.ant-table-thead th')].map((th) => th.getBoundingClientRect());
        const body = table.querySelector('.ant-table-tbody-virtual-holder, .ant-table-body') as HTMLElement;
        return {
          table: table.getBoundingClientRect().width,
          cells: cells.map((c) => Math.round(c.width)),
          sideways: body.scrollWidth > body.clientWidth + 1,
        };
      });
    const [selection, code, name, actions] = cells as [number, number, number, number];
    expect(selection).toBeLessThanOrEqual(60);
    expect(actions).toBeLessThanOrEqual(200);
    // The two field columns share what is left, each as wide as the other (both 140 px in the schema).
    expect(Math.abs(code - name)).toBeLessThanOrEqual(2);
    expect(selection + code + name + actions).toBeGreaterThanOrEqual(table - 4);
    expect(sideways).toBe(false);
    expect(consoleErrors).toEqual([]);
    await page.context().close();
  });
});
