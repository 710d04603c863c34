import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startServer, type TestServer } from '../support/server';
import { launchBrowser, newPage } from '../support/browser';
import {
  PRODUCT_TITLE,
  activeTab,
  cookie,
  height,
  openFromSidebar,
  pathname,
  signIn,
  submitLogin,
  waitForDashboard,
  waitForShell,
  eventually,
} from '../support/shell';

/** Spec 2.1, 2.3, 6: getting in, finding one's way (sidebar, breadcrumb, search) and being kept out. */
let server: TestServer;
let browser: Browser;
beforeAll(async () => {
  [server, browser] = await Promise.all([startServer(), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.dispose();
});

const INSPECTION_ITEM = '/laboratoryManager/basic/inspectionItem';
const SPECIMEN_TYPE = '/laboratoryManager/basic/specimenType';
const INSTRUMENT = '/laboratoryManager/basic/instrument';
const MENU_ADMIN = '/laboratoryManager/system/menu';

/** The title of the view shown, as the browser tab says it (spec 2.1: '<page> - <product>'). */
const viewTitle = async (page: Page) => (await page.title()).split(' - ')[0];
const breadcrumb = (page: Page) => page.locator('.app-breadcrumb li.ant-breadcrumb-item').allTextContents();
const searchResults = (page: Page) => page.locator('.header-search-dropdown:visible .ant-dropdown-menu-item');
const searchOptions = (page: Page) => searchResults(page).allTextContents();

async function typeInSearch(page: Page, text: string) {
  await page.locator('.header-search').click();
  await page.keyboard.type(text);
}

describe('access and sign-in', () => {
  it('sends a visitor to the login page and, once signed in, back to the screen asked for', async () => {
    const { page } = await newPage(browser);
    await page.goto(server.url + INSTRUMENT);
    await page.waitForURL((u) => u.pathname === '/login');
    expect(new URL(page.url()).searchParams.get('redirect')).toBe(INSTRUMENT);
    await submitLogin(page, 'admin');
    await page.waitForURL((u) => u.pathname === INSTRUMENT);
    await waitForShell(page);
    await eventually(() => viewTitle(page)).toBe('仪器');
    await eventually(() => activeTab(page)).toBe(INSTRUMENT);
    await page.context().close();
  });

  it('signs in from the login page to the dashboard, and / leads to the dashboard too', async () => {
    const { page } = await newPage(browser);
    await signIn(page, server.url, 'editor');
    expect(pathname(page)).toBe('/dashboard');
    await eventually(() => page.locator('.dashboard-welcome').textContent()).toBe('欢迎，王检验');
    await page.goto(`${server.url}/`);
    await page.waitForURL((u) => u.pathname === '/dashboard');
    await waitForDashboard(page);
    await page.context().close();
  });

  it('shows an editor the 401 page for an admin-only path typed in, and the 404 page for an unknown one', async () => {
    const { page } = await newPage(browser);
    await signIn(page, server.url, 'editor');
    // Not in the editor's sidebar…
    expect(await page.locator(`.sidebar [data-menu-id$="-/laboratoryManager/system"]`).count()).toBe(0);
    // …and typed in, it is refused with the 401 page, not shown.
    await page.goto(server.url + MENU_ADMIN);
    await page.locator('.error-401').waitFor();
    expect(await viewTitle(page)).not.toBe('菜单维护');
    await page.goto(`${server.url}/laboratoryManager/basic/noSuchScreen`);
    await page.locator('.error-404').waitFor();
    expect(await page.locator('.error-401').count()).toBe(0);
    // The error page leads home.
    await page.locator('.error-404').getByRole('button').click();
    await page.waitForURL((u) => u.pathname === '/dashboard');
    await page.context().close();
  });

  it('lets an admin open the same admin-only path', async () => {
    const { page } = await newPage(browser);
    await signIn(page, server.url, 'admin', undefined, MENU_ADMIN);
    expect(pathname(page)).toBe(MENU_ADMIN);
    await eventually(() => viewTitle(page)).toBe('菜单维护');
    expect(await page.locator('.error-401').count()).toBe(0);
    await page.context().close();
  });
});

describe('finding one’s way', () => {
  it('titles each page with the product suffix, roots the breadcrumb at 首页, and logs no console error', async () => {
    const { page, consoleErrors } = await newPage(browser);
    await signIn(page, server.url, 'admin');
    await waitForDashboard(page);
    await eventually(() => page.title()).toBe(`首页 - ${PRODUCT_TITLE}`);
    expect(await breadcrumb(page)).toEqual(['首页']);

    await openFromSidebar(page, INSPECTION_ITEM);
    await eventually(() => page.title()).toBe(`检验项目 - ${PRODUCT_TITLE}`);
    expect(await breadcrumb(page)).toEqual(['首页', '实验室管理', '基础维护', '检验项目']);
    expect(await page.locator('.sidebar .ant-menu-item-selected').textContent()).toBe('检验项目');
    await eventually(() => viewTitle(page)).toBe('检验项目');

    await openFromSidebar(page, INSTRUMENT);
    await eventually(() => page.title()).toBe(`仪器 - ${PRODUCT_TITLE}`);
    expect(await breadcrumb(page)).toEqual(['首页', '实验室管理', '基础维护', '仪器']);

    // The breadcrumb's root leads home.
    await page.locator('.app-breadcrumb').getByRole('link', { name: '首页' }).click();
    await page.waitForURL((u) => u.pathname === '/dashboard');
    await eventually(() => page.title()).toBe(`首页 - ${PRODUCT_TITLE}`);
    // BUG: src/web/app/EntryGate.tsx renders <Spin fullscreen tip=…>; antd 6 deprecated `tip`
    // (now `description`) and logs "Warning: [antd: Spin] `tip` is deprecated" as a console error
    // on every page entry.
    expect(consoleErrors).toEqual([]);
    await page.context().close();
  });

  it('keeps one submenu open at a time in the sidebar', async () => {
    const { page } = await newPage(browser);
    await signIn(page, server.url, 'admin');
    const group = page.locator('.sidebar .ant-menu-submenu-title[data-menu-id$="-/groupManager"]');
    const lab = page.locator('.sidebar .ant-menu-submenu-title[data-menu-id$="-/laboratoryManager"]');
    await group.click();
    await eventually(() => group.getAttribute('aria-expanded')).toBe('true');
    await lab.click();
    await eventually(() => lab.getAttribute('aria-expanded')).toBe('true');
    await eventually(() => group.getAttribute('aria-expanded')).toBe('false');
    await page.context().close();
  });

  it('collapses the sidebar to its icons with the hamburger and remembers it across a reload (cookie sidebarStatus)', async () => {
    const { page } = await newPage(browser);
    await signIn(page, server.url, 'admin');
    const sidebar = page.locator('.sidebar');
    const toggle = page.getByRole('button', { name: '展开/收起侧边栏' });
    expect(await height(sidebar)).toBeGreaterThan(0);
    expect(await sidebar.evaluate((e) => e.getBoundingClientRect().width)).toBe(210);

    await toggle.click();
    await eventually(() => sidebar.getAttribute('class')).toContain('ant-layout-sider-collapsed');
    await eventually(() => sidebar.evaluate((e) => e.getBoundingClientRect().width)).toBeLessThan(100);
    expect(await cookie(page, 'sidebarStatus')).toBe('0');
    // Collapsed, the menu is its icons: each one drawn from the server's sprite (an unknown name draws nothing).
    const drawn = () =>
      sidebar
        .locator('.menu-icon use')
        .evaluateAll((uses) => uses.map((u) => (u as SVGUseElement).getBBox().width > 8 || u.getAttribute('href')));
    await eventually(async () => (await drawn()).length).toBeGreaterThanOrEqual(3);
    await eventually(drawn).toEqual((await drawn()).map(() => true));

    await page.reload();
    await waitForShell(page);
    expect(await sidebar.getAttribute('class')).toContain('ant-layout-sider-collapsed');
    await eventually(() => sidebar.evaluate((e) => e.getBoundingClientRect().width)).toBeLessThan(100);

    await toggle.click();
    await eventually(() => sidebar.getAttribute('class')).not.toContain('ant-layout-sider-collapsed');
    expect(await cookie(page, 'sidebarStatus')).toBe('1');
    await page.reload();
    await waitForShell(page);
    expect(await sidebar.getAttribute('class')).not.toContain('ant-layout-sider-collapsed');
    await eventually(() => sidebar.evaluate((e) => e.getBoundingClientRect().width)).toBe(210);
    await page.context().close();
  });
});

describe('header search', () => {
  it('finds a screen by part of its Chinese title, labelled by its breadcrumb path; Enter opens the first result', async () => {
    const { page } = await newPage(browser);
    await signIn(page, server.url, 'admin');
    await typeInSearch(page, '检验项');
    await eventually(() => searchOptions(page)).toContain('实验室管理 > 基础维护 > 检验项目');
    await eventually(async () => (await searchOptions(page))[0]).toMatch(/ > 检验项目$/);
    await page.keyboard.press('Enter');
    await page.waitForURL((u) => u.pathname.endsWith('/inspectionItem'));
    await eventually(() => viewTitle(page)).toBe('检验项目');
    await eventually(() => activeTab(page)).toBe(pathname(page));
    await page.context().close();
  });

  it('forgives a slightly wrong title (标本类形 finds 标本类型)', async () => {
    const { page } = await newPage(browser);
    await signIn(page, server.url, 'editor');
    await typeInSearch(page, '标本类形');
    await eventually(() => searchOptions(page)).toContain('实验室管理 > 基础维护 > 标本类型');
    await searchResults(page).getByText('实验室管理 > 基础维护 > 标本类型', { exact: true }).click();
    await page.waitForURL((u) => u.pathname === SPECIMEN_TYPE);
    await eventually(() => activeTab(page)).toBe(SPECIMEN_TYPE);
    await eventually(() => page.title()).toBe(`标本类型 - ${PRODUCT_TITLE}`);
    await page.context().close();
  });

  it('finds a screen by its path (specimenType)', async () => {
    const { page } = await newPage(browser);
    await signIn(page, server.url, 'admin');
    await typeInSearch(page, 'specimenType');
    await eventually(() => searchOptions(page)).toContain('实验室管理 > 基础维护 > 标本类型');
    const options = await searchOptions(page);
    expect(options.slice(0, 2).every((o) => o.endsWith(' > 标本类型'))).toBe(true);
    await searchResults(page).getByText('实验室管理 > 基础维护 > 标本类型', { exact: true }).click();
    await page.waitForURL((u) => u.pathname === SPECIMEN_TYPE);
    await page.context().close();
  });

  it('offers an admin the admin-only screens but not an editor', async () => {
    const admin = (await newPage(browser)).page;
    await signIn(admin, server.url, 'admin');
    await typeInSearch(admin, '菜单维护');
    await eventually(() => searchOptions(admin)).toContain('实验室管理 > 系统维护 > 菜单维护');
    await admin.context().close();

    const { page } = await newPage(browser);
    await signIn(page, server.url, 'editor');
    await typeInSearch(page, '检验项目');
    await eventually(() => searchOptions(page)).toContain('实验室管理 > 基础维护 > 检验项目');
    await page.keyboard.press('Control+A');
    await page.keyboard.type('菜单维护');
    await eventually(() => searchOptions(page)).not.toContain('实验室管理 > 基础维护 > 检验项目');
    expect((await searchOptions(page)).some((o) => o.includes('菜单维护'))).toBe(false);
    await page.context().close();
  });
});
