import { readFileSync, writeFileSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { copySchemas, startServer, DEMO_PASSWORD, type TestServer } from '../support/server';
import { launchBrowser, newPage } from '../support/browser';
import { api, tokenFor } from '../support/client';
import { eventually, signIn } from '../support/shell';

/** A screen a configurator adds while the server runs: one file, no code, no migration, no rebuild. */
const reagentScreen = {
  schemaVersion: 2,
  id: 'reagent',
  menuId: 2029901,
  menu: { parentId: 202, path: 'reagent', icon: 'ExperimentOutlined' },
  title: { 'zh-CN': '试剂管理', 'en-US': 'Reagents' },
  description: 'Reagents in stock, by lot and expiry.',
  resource: { name: 'reagent', titleField: 'name' },
  fields: [
    {
      key: 'code',
      type: 'text',
      label: { 'zh-CN': '试剂编码', 'en-US': 'Code' },
      required: true,
      unique: true,
      maxLength: 20,
      pattern: '^[A-Z0-9-]+$',
      patternMessage: { 'zh-CN': '编码只能是大写字母、数字和短横线', 'en-US': 'Upper-case letters, digits and - only' },
      sortable: true,
    },
    {
      key: 'name',
      type: 'text',
      label: { 'zh-CN': '试剂名称', 'en-US': 'Name' },
      required: true,
      maxLength: 50,
      sortable: true,
    },
    {
      key: 'kind',
      type: 'enum',
      label: { 'zh-CN': '类别', 'en-US': 'Kind' },
      options: [
        { value: 'chem', label: { 'zh-CN': '生化', 'en-US': 'Chemistry' } },
        { value: 'ihc', label: { 'zh-CN': '免疫组化', 'en-US': 'IHC' } },
      ],
    },
    { key: 'stock', type: 'integer', label: { 'zh-CN': '库存', 'en-US': 'Stock' }, minimum: 0, sortable: true },
  ],
  list: { defaultSort: { field: 'code', order: 'asc' }, selection: 'multiple' },
  filters: ['name', 'kind'],
  actions: {
    toolbar: [{ kind: 'create' }, { kind: 'export' }, { kind: 'import' }],
    row: [{ kind: 'edit' }, { kind: 'delete' }],
    batch: [{ kind: 'delete' }],
  },
  dialog: { width: 640, columns: 2 },
  permissions: {
    read: ['admin'],
    create: ['admin'],
    update: ['admin'],
    delete: ['admin'],
    export: ['admin'],
    import: ['admin'],
  },
};

let server: TestServer;
let browser: Browser;
let schemaDir: string;
const PAGE = '/laboratoryManager/basic/reagent';

beforeAll(async () => {
  schemaDir = copySchemas();
  [server, browser] = await Promise.all([startServer({ LIMS_SCHEMA_DIR: schemaDir }), launchBrowser()]);
  writeFileSync(path.join(schemaDir, 'screens', 'reagent.json'), JSON.stringify(reagentScreen, null, 2));
  // The server notices the new file by itself (no restart): wait until it serves the screen.
  const admin = api(server.url, await tokenFor(server.url, 'admin', DEMO_PASSWORD));
  // Polled up to a deadline rather than a count of tries: a busy machine answers fewer tries in the same
  // time. (expect.poll belongs to tests, not to beforeAll.)
  const deadline = Date.now() + 30_000;
  while ((await admin.get('/api/ui/screens/reagent')).status !== 200) {
    if (Date.now() > deadline) throw new Error('the server never picked up reagent.json');
    await delay(50);
  }
});
afterAll(async () => {
  await browser?.close();
  await server?.dispose();
});

const dialog = (page: Page) => page.locator('.record-dialog');
const rows = (page: Page) => page.locator('.screen-page .ant-table-tbody tr.ant-table-row');
const firstColumn = async (page: Page) => rows(page).locator('td:nth-child(2)').allTextContents();

async function openReagents(page: Page) {
  await signIn(page, server.url, 'admin', DEMO_PASSWORD, PAGE);
  await page.locator('.screen-page[data-screen="reagent"]').waitFor();
  // The new screen has its own menu entry, opened and selected for its page.
  await page.locator('.sidebar .ant-menu-item-selected').filter({ hasText: '试剂管理' }).waitFor();
}

describe('a screen added as a schema file while the server runs', () => {
  it('lists, validates, creates, edits, sorts, filters and deletes through the real UI', async () => {
    const { page, consoleErrors } = await newPage(browser);
    await openReagents(page);

    await page.getByRole('button', { name: /新\s*增/ }).click();
    await dialog(page)
      .getByRole('button', { name: /确\s*定/ })
      .click();
    await dialog(page).getByText('试剂编码不能为空').waitFor();
    await dialog(page).getByText('试剂名称不能为空').waitFor();
    await page.locator('#root_code').fill('abc');
    await page.locator('#root_code').blur();
    await dialog(page).getByText('编码只能是大写字母、数字和短横线').waitFor();
    await page.locator('#root_code').fill('R-001');
    await page.locator('#root_name').fill('ALT 试剂盒');
    await page.locator('#root_stock').fill('12');
    await page.locator('#root_kind').click();
    await page.getByTitle('生化').click();
    await dialog(page)
      .getByRole('button', { name: /确\s*定/ })
      .click();
    await dialog(page).waitFor({ state: 'detached' });
    await expect.poll(() => firstColumn(page)).toEqual(['R-001']);

    const admin = api(server.url, await tokenFor(server.url, 'admin', DEMO_PASSWORD));
    await admin.post('/api/resources/reagent', { code: 'R-002', name: 'Ki-67 抗体', kind: 'ihc', stock: 3 });
    await admin.post('/api/resources/reagent', { code: 'R-003', name: 'AST 试剂盒', kind: 'chem', stock: 40 });
    await page.getByRole('button', { name: /查\s*询/ }).click();
    await expect.poll(() => firstColumn(page)).toEqual(['R-001', 'R-002', 'R-003']);

    // Server-side sort on a column header: stock ascending.
    await page.locator('.ant-table-thead th').filter({ hasText: '库存' }).click();
    await expect.poll(() => firstColumn(page)).toEqual(['R-002', 'R-001', 'R-003']);

    await page.locator('.screen-filters').getByPlaceholder('试剂名称').fill('试剂盒');
    await page.getByRole('button', { name: /查\s*询/ }).click();
    await expect.poll(() => firstColumn(page)).toEqual(['R-001', 'R-003']);

    await rows(page)
      .filter({ hasText: 'R-003' })
      .getByRole('button', { name: /编\s*辑/ })
      .click();
    await page.locator('#root_name').fill('AST 试剂盒(新批号)');
    await dialog(page)
      .getByRole('button', { name: /确\s*定/ })
      .click();
    await dialog(page).waitFor({ state: 'detached' });
    await rows(page).filter({ hasText: 'AST 试剂盒(新批号)' }).waitFor();

    await rows(page)
      .filter({ hasText: 'R-001' })
      .getByRole('button', { name: /删\s*除/ })
      .click();
    await page.locator('.ant-modal-confirm-title').filter({ hasText: '警告' }).waitFor();
    await page
      .locator('.ant-modal-confirm')
      .getByRole('button', { name: /确\s*定/ })
      .click();
    await page.getByText('删除成功').waitFor();
    await expect.poll(() => firstColumn(page)).toEqual(['R-003']);

    // Batch actions need a selection first.
    await page.getByRole('button', { name: '批量删除' }).click();
    await page.getByText('请先勾选数据进行操作').waitFor();
    expect(consoleErrors).toEqual([]);
    await page.context().close();
  });

  it('exports the filtered, sorted list to .xlsx and imports a sheet back', async () => {
    // Rows of this test's own: two match both filters below, the others miss one filter each.
    const admin = api(server.url, await tokenFor(server.url, 'admin', DEMO_PASSWORD));
    await admin.post('/api/resources/reagent', { code: 'X-021', name: '导出甲', kind: 'chem', stock: 9 });
    await admin.post('/api/resources/reagent', { code: 'X-022', name: '导出乙', kind: 'ihc', stock: 7 });
    await admin.post('/api/resources/reagent', { code: 'X-023', name: 'CD20 抗体', kind: 'ihc', stock: 1 });
    await admin.post('/api/resources/reagent', { code: 'X-024', name: '导出丙', kind: 'ihc', stock: 2 });
    const { page } = await newPage(browser);
    await openReagents(page);
    await page.locator('.screen-filters').getByPlaceholder('试剂名称').fill('导出');
    await page.locator('.screen-filters .ant-select').click();
    await page.locator('.ant-select-item-option[title="免疫组化"]').click();
    await page.getByRole('button', { name: /查\s*询/ }).click();
    await eventually(() => firstColumn(page)).toEqual(['X-022', 'X-024']);
    await page.locator('.ant-table-thead th').filter({ hasText: '库存' }).click();
    await eventually(() => firstColumn(page)).toEqual(['X-024', 'X-022']);

    // The file holds what the list shows: the filtered rows, in the list's order, values as shown.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: /导\s*出/ }).click(),
    ]);
    const file = path.join(schemaDir, 'export.xlsx');
    await download.saveAs(file);
    const exported = new ExcelJS.Workbook();
    await exported.xlsx.load(readFileSync(file) as unknown as ArrayBuffer);
    const sheet = exported.worksheets[0]!;
    const cells = (n: number) => (sheet.getRow(n).values as unknown[]).slice(1);
    expect(cells(1)).toEqual(['试剂编码', '试剂名称', '类别', '库存']);
    expect([2, 3].map(cells)).toEqual([
      ['X-024', '导出丙', '免疫组化', 2],
      ['X-022', '导出乙', '免疫组化', 7],
    ]);
    expect(sheet.rowCount).toBe(3);

    await page.getByRole('button', { name: /重\s*置/ }).click();
    await rows(page).filter({ hasText: 'X-023' }).waitFor();
    const book = new ExcelJS.Workbook();
    const ws = book.addWorksheet('导入');
    ws.addRow(['试剂编码', '试剂名称', '类别', '库存']);
    ws.addRow(['R-010', 'CEA 试剂盒', '生化', 5]);
    ws.addRow(['R-011', 'CK7 抗体', '免疫组化', 2]);
    const buffer = Buffer.from(await book.xlsx.writeBuffer());
    await page.locator('.screen-toolbar input[type=file]').setInputFiles({
      name: 'reagents.xlsx',
      mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      buffer,
    });
    await page.getByText('成功导入 2 条').waitFor();
    await rows(page).filter({ hasText: 'CK7 抗体' }).waitFor();
    await page.context().close();
  });

  it('refuses a bad record in the browser with the words the server answers for it, in zh-CN and in en-US', async () => {
    /** The messages the dialog shows under its fields, by field key. */
    const shownErrors = async (page: Page) => {
      const out: Record<string, string> = {};
      for (const field of await dialog(page)
        .locator('.screen-field')
        .filter({ has: page.locator('.screen-field-error') })
        .all()) {
        const key = (await field.locator('label').first().getAttribute('for'))!.replace(/^root_/, '');
        out[key] = (await field.locator('.screen-field-error').textContent())!;
      }
      return out;
    };
    const token = await tokenFor(server.url, 'admin', DEMO_PASSWORD);
    /** What the server answers for the same record, asked in the language the browser would send. */
    const serverErrors = async (locale: string, record: Record<string, unknown>) => {
      const res = await api(server.url, token, locale).post<{ errors: { field: string; message: string }[] }>(
        '/api/resources/reagent',
        record,
      );
      expect(res.status).toBe(400);
      return Object.fromEntries(res.body.resultObject.errors.map((e) => [e.field, e.message]));
    };
    const tooLong = 'x'.repeat(51);
    const expected = {
      'zh-CN': {
        empty: { code: '试剂编码不能为空', name: '试剂名称不能为空' },
        bad: { code: '编码只能是大写字母、数字和短横线', name: '试剂名称最多50个字符' },
      },
      'en-US': {
        empty: { code: 'Code is required', name: 'Name is required' },
        bad: { code: 'Upper-case letters, digits and - only', name: 'Name must be at most 50 characters' },
      },
    };

    const { page, consoleErrors } = await newPage(browser);
    await openReagents(page);
    for (const [locale, create, ok, cancel] of [
      ['zh-CN', /新\s*增/, /确\s*定/, /取\s*消/],
      ['en-US', /^Add$/, /^OK$/, /^Cancel$/],
    ] as const) {
      await page.getByRole('button', { name: create }).click();
      await dialog(page).getByRole('button', { name: ok }).click();
      await eventually(() => shownErrors(page)).toEqual(expected[locale].empty);
      expect(await serverErrors(locale, {})).toEqual(expected[locale].empty);

      await page.locator('#root_code').fill('abc');
      await page.locator('#root_name').fill(tooLong);
      await dialog(page).getByRole('button', { name: ok }).click();
      await eventually(() => shownErrors(page)).toEqual(expected[locale].bad);
      expect(await serverErrors(locale, { code: 'abc', name: tooLong })).toEqual(expected[locale].bad);

      await dialog(page).getByRole('button', { name: cancel }).click();
      await dialog(page).waitFor({ state: 'detached' });
      // The shell's language switch: the same page, now in English.
      if (locale === 'zh-CN') await page.getByRole('button', { name: 'language' }).click();
    }
    const admin = api(server.url, token);
    expect((await admin.get<{ total: number }>('/api/resources/reagent?code=abc')).body.resultObject.total).toBe(0);
    expect(consoleErrors).toEqual([]);
    await page.context().close();
  });

  it('stays closed to a role the schema does not name, in the menu and on the server', async () => {
    const editor = api(server.url, await tokenFor(server.url, 'editor', DEMO_PASSWORD));
    expect((await editor.get('/api/ui/screens/reagent')).status).toBe(403);
    expect((await editor.get('/api/resources/reagent')).status).toBe(403);
    expect(JSON.stringify((await editor.get('/api/ui/menu')).body.resultObject)).not.toContain('试剂管理');
    const { page } = await newPage(browser);
    await signIn(page, server.url, 'editor');
    await page.goto(server.url + PAGE);
    await page.locator('.error-401').waitFor();
    await page.context().close();
  });
});

describe('public data buttons of a public resource (spec 2.4, 6)', () => {
  const SPECIMEN_TYPES = '/laboratoryManager/basic/specimenType';

  it('the base organisation distributes, the main lab synchronises, an only-lab sees no button', async () => {
    const group = api(server.url, await tokenFor(server.url, 'baseadmin', DEMO_PASSWORD));
    // Labs start with the demo's specimen types; the test looks only at a code of its own.
    await group.post('/api/resources/specimenType', { code: 'TSTQ', name: '测试全血', category: 'blood' });

    const { page } = await newPage(browser);
    await signIn(page, server.url, 'baseadmin', DEMO_PASSWORD, SPECIMEN_TYPES);
    await page.locator('.screen-page[data-screen="specimen-type"]').waitFor();
    await page.getByRole('button', { name: '下发公共数据' }).click();
    await page.getByText('请先勾选数据进行操作').waitFor();
    await rows(page).filter({ hasText: 'TSTQ' }).locator('.ant-checkbox-input').check();
    await page.getByRole('button', { name: '下发公共数据' }).click();
    const distribute = page.locator('.ant-modal').filter({ hasText: '下发公共数据' });
    await distribute.getByRole('button', { name: /确\s*定|OK/ }).click();
    await page.getByText('请先选择要下发的实验室').waitFor();
    await distribute.locator('.ant-select').click();
    await page.getByTitle('华康杭州分实验室').click();
    await page.keyboard.press('Escape');
    await distribute.getByRole('button', { name: /确\s*定|OK/ }).click();
    await page.getByText('操作成功，共 1 条').waitFor();
    await page.context().close();

    const lab2 = api(server.url, await tokenFor(server.url, 'lab2admin', DEMO_PASSWORD));
    const copies = await lab2.get<{ records: { code: string; syncFlag: number }[] }>(
      '/api/resources/specimenType?code=TSTQ',
    );
    expect(copies.body.resultObject.records.map((r) => [r.code, r.syncFlag])).toEqual([['TSTQ', 1]]);

    const main = await newPage(browser);
    await signIn(main.page, server.url, 'admin', DEMO_PASSWORD, SPECIMEN_TYPES);
    await main.page.getByRole('button', { name: '同步公共数据' }).click();
    const asked = main.page.locator('.ant-modal-confirm').filter({ hasText: '将基础机构的全部公共数据复制到本实验室' });
    await asked.getByRole('button', { name: /确\s*定/ }).click();
    await main.page.getByText(/操作成功，共 \d+ 条/).waitFor();
    await rows(main.page).filter({ hasText: 'TSTQ' }).getByText('已同步').waitFor();
    await main.page.context().close();

    const only = await newPage(browser);
    await signIn(only.page, server.url, 'onlyadmin', DEMO_PASSWORD, SPECIMEN_TYPES);
    await only.page.locator('.screen-page[data-screen="specimen-type"]').waitFor();
    await only.page.getByRole('button', { name: /新\s*增/ }).waitFor();
    expect(await only.page.getByRole('button', { name: /公共数据/ }).count()).toBe(0);
    await only.page.context().close();
  });

  it('offers the same buttons on the business dictionaries, which live in tables of their own', async () => {
    const DICTIONARIES = '/laboratoryManager/form/dictionary/bus';
    const group = api(server.url, await tokenFor(server.url, 'baseadmin', DEMO_PASSWORD));
    await group.post('/api/resources/businessDictionary', {
      name: '测试界面字典',
      details: [{ label: '甲', value: 'A' }],
    });

    const sub = await newPage(browser);
    await signIn(sub.page, server.url, 'lab3admin', DEMO_PASSWORD, DICTIONARIES);
    await sub.page.getByRole('button', { name: '导入公共数据' }).click();
    const offer = sub.page.locator('.ant-modal').filter({ hasText: '导入公共数据' });
    await offer.locator('tr').filter({ hasText: '测试界面字典' }).locator('.ant-checkbox-input').check();
    await offer.getByRole('button', { name: /确\s*定|OK/ }).click();
    await sub.page.getByText('操作成功，共 1 条').waitFor();
    await rows(sub.page).filter({ hasText: '测试界面字典' }).getByText('已同步').waitFor();
    await sub.page.context().close();

    const only = await newPage(browser);
    await signIn(only.page, server.url, 'onlyadmin', DEMO_PASSWORD, DICTIONARIES);
    await only.page.locator('.screen-page[data-screen="dictionary-bus"]').waitFor();
    await only.page.getByRole('button', { name: /新\s*增/ }).waitFor();
    expect(await only.page.getByRole('button', { name: /公共数据/ }).count()).toBe(0);
    await only.page.context().close();
  });
});

describe('data input (spec 7.4 upLoadItemExcel)', () => {
  it("imports a hospital's code sheet on 导入字典 through the data-input call, and lists its batch on 数据导入管理", async () => {
    const { page } = await newPage(browser);
    await signIn(page, server.url, 'admin', DEMO_PASSWORD, '/laboratoryManager/basic/importDictionary');
    await page.locator('.screen-page[data-screen="import-dictionary"]').waitFor();
    const book = new ExcelJS.Workbook();
    const ws = book.addWorksheet('HIS');
    ws.addRow(['送检医院', '医院编码', '医院名称', '本地编码']);
    ws.addRow(['萧山区中医院', 'E2E-01', '肾功能三项', 'SH-SGN']);
    ws.addRow(['萧山区中医院', 'E2E-02', '血脂四项', 'SH-XZ']);
    await page.locator('.screen-toolbar input[type=file]').setInputFiles({
      name: '中医院项目.xlsx',
      mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      buffer: Buffer.from(await book.xlsx.writeBuffer()),
    });
    await page.getByText('成功导入 2 条').waitFor();
    await rows(page).filter({ hasText: '血脂四项' }).filter({ hasText: '检验项目' }).waitFor();
    await page.goto(`${server.url}/laboratoryManager/basic/dataImport`);
    await rows(page).filter({ hasText: '中医院项目.xlsx' }).filter({ hasText: '导入字典' }).waitFor();
    await page.context().close();
  });
});

describe('group management screens (spec 2.2): trees, public-platform routes and menu maintenance', () => {
  it('shows the organisation structure as a tree whose branches fold', async () => {
    const { page, consoleErrors } = await newPage(browser);
    await signIn(page, server.url, 'admin', DEMO_PASSWORD, '/groupManager/organization/structure');
    const main = rows(page).and(page.locator('[data-row-key="1"]'));
    const sub = rows(page).and(page.locator('[data-row-key="2"]'));
    await sub.waitFor();
    // The sub lab is a row of the second level, under its main lab.
    expect(await sub.getAttribute('class')).toContain('ant-table-row-level-1');
    expect(await main.getAttribute('class')).toContain('ant-table-row-level-0');
    await main.locator('.ant-table-row-expand-icon').click();
    await sub.waitFor({ state: 'hidden' });
    expect(consoleErrors).toEqual([]);
    await page.context().close();
  });

  it("lets a lab read the base organisation's data on a public-platform route, and the base organisation keep it", async () => {
    const group = api(server.url, await tokenFor(server.url, 'baseadmin', DEMO_PASSWORD));
    await group.post('/api/resources/specimenType', { code: 'TSTP', name: '测试公共平台标本', category: 'other' });
    const PUBLIC = '/groupManager/publicBasic/specimenType';

    const lab = await newPage(browser);
    await signIn(lab.page, server.url, 'admin', DEMO_PASSWORD, PUBLIC);
    await rows(lab.page).filter({ hasText: 'TSTP' }).waitFor();
    await lab.page.getByRole('button', { name: '同步公共数据' }).waitFor();
    expect(
      await lab.page
        .locator('.screen-page:visible .screen-toolbar')
        .getByRole('button', { name: /^新\s*增$/ })
        .count(),
    ).toBe(0);
    expect(await rows(lab.page).first().getByRole('button', { name: '编辑' }).count()).toBe(0);
    expect(lab.consoleErrors).toEqual([]);
    await lab.page.context().close();

    const base = await newPage(browser);
    await signIn(base.page, server.url, 'baseadmin', DEMO_PASSWORD, PUBLIC);
    await rows(base.page).filter({ hasText: 'TSTP' }).getByRole('button', { name: '编辑' }).waitFor();
    await base.page
      .locator('.screen-page:visible .screen-toolbar')
      .getByRole('button', { name: /^新\s*增$/ })
      .waitFor();
    expect(base.consoleErrors).toEqual([]);
    await base.page.context().close();
  });

  it('renames a route in menu maintenance; the sidebar shows the new title at the next sign-in', async () => {
    const { page, consoleErrors } = await newPage(browser);
    await signIn(page, server.url, 'baseadmin', DEMO_PASSWORD, '/laboratoryManager/system/menu');
    await page.locator('.screen-page[data-screen="menu"]').getByPlaceholder('路由地址').fill('agentHospital');
    await page.getByRole('button', { name: /查\s*询/ }).click();
    const row = rows(page).filter({ hasText: '/laboratoryManager/management/agentHospital' });
    await row.getByRole('button', { name: '编辑' }).click();
    await page.locator('#root_titleZh').fill('合作医院');
    await dialog(page)
      .getByRole('button', { name: /确\s*定/ })
      .click();
    await dialog(page).waitFor({ state: 'detached' });
    await row.filter({ hasText: '合作医院' }).waitFor();

    const lab = await newPage(browser);
    await signIn(lab.page, server.url, 'admin', DEMO_PASSWORD, '/laboratoryManager/management/agentHospital');
    await lab.page.locator('.sidebar .ant-menu-item-selected').filter({ hasText: '合作医院' }).waitFor();
    expect(consoleErrors).toEqual([]);
    expect(lab.consoleErrors).toEqual([]);
    await lab.page.context().close();
    await page.context().close();
  });
});
