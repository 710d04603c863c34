import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startServer, type TestServer } from '../support/server';
import { launchBrowser, newPage } from '../support/browser';
import {
  activeTab,
  openFromSidebar,
  pathname,
  showTab,
  signIn,
  tab,
  tabMenu,
  tabPaths,
  waitForShell,
  waitForView,
  eventually,
} from '../support/shell';

/** Spec 2.3: the tab bar of visited pages. */
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
const THREE = [INSPECTION_ITEM, SPECIMEN_TYPE, INSTRUMENT];

/** Signs in as admin and opens the three screens from the sidebar, the last one active. */
async function withThreeTabs(): Promise<Page> {
  const { page } = await newPage(browser);
  await signIn(page, server.url, 'admin');
  for (const path of THREE) await openFromSidebar(page, path);
  await eventually(() => tabPaths(page)).toEqual(['/dashboard', ...THREE]);
  return page;
}

describe('tab bar', () => {
  it('opens each screen as a tab after the pinned 首页 tab, highlighting the current one', async () => {
    const page = await withThreeTabs();
    await eventually(() => activeTab(page)).toBe(INSTRUMENT);
    expect(await page.locator('nav.tags-view .tags-view-item').allTextContents()).toEqual([
      '首页',
      '检验项目',
      '标本类型',
      '仪器',
    ]);
    // 首页 is affix: no close icon; the others have one.
    expect(await tab(page, '/dashboard').locator('.tags-view-close').count()).toBe(0);
    for (const path of THREE) expect(await tab(page, path).locator('.tags-view-close').count()).toBe(1);

    // Clicking a tab shows its screen; opening a screen again does not add a second tab.
    await showTab(page, INSPECTION_ITEM);
    await eventually(() => activeTab(page)).toBe(INSPECTION_ITEM);
    await openFromSidebar(page, SPECIMEN_TYPE);
    await eventually(() => activeTab(page)).toBe(SPECIMEN_TYPE);
    expect(await tabPaths(page)).toEqual(['/dashboard', ...THREE]);
    await page.context().close();
  });

  it('Close Others keeps the pinned tab and the current one', async () => {
    const page = await withThreeTabs();
    await showTab(page, SPECIMEN_TYPE);
    await tabMenu(page, SPECIMEN_TYPE, '关闭其它');
    await eventually(() => tabPaths(page)).toEqual(['/dashboard', SPECIMEN_TYPE]);
    expect(pathname(page)).toBe(SPECIMEN_TYPE);
    await eventually(() => activeTab(page)).toBe(SPECIMEN_TYPE);
    await page.context().close();
  });

  it('Close Others on a background tab shows that tab; Close All leaves only 首页; the pinned tab cannot be closed', async () => {
    const page = await withThreeTabs();
    await tabMenu(page, INSPECTION_ITEM, '关闭其它');
    await eventually(() => tabPaths(page)).toEqual(['/dashboard', INSPECTION_ITEM]);
    await page.waitForURL((u) => u.pathname === INSPECTION_ITEM);
    await waitForView(page, INSPECTION_ITEM);

    // 关闭 is disabled in the pinned tab's menu.
    await tab(page, '/dashboard').click({ button: 'right' });
    const close = page.locator('.tags-context-menu:visible .ant-dropdown-menu-item').filter({ hasText: /^关闭$/ });
    await eventually(() => close.getAttribute('aria-disabled')).toBe('true');
    await page.keyboard.press('Escape');
    await page.locator('.tags-context-menu:visible').waitFor({ state: 'hidden' });

    await tabMenu(page, INSPECTION_ITEM, '关闭所有');
    await eventually(() => tabPaths(page)).toEqual(['/dashboard']);
    await page.waitForURL((u) => u.pathname === '/dashboard');
    await page.context().close();
  });

  it('brings the tabs back after a browser refresh', async () => {
    const page = await withThreeTabs();
    await showTab(page, SPECIMEN_TYPE);
    await page.reload();
    await waitForShell(page);
    await eventually(() => tabPaths(page)).toEqual(['/dashboard', ...THREE]);
    await eventually(() => activeTab(page)).toBe(SPECIMEN_TYPE);
    expect(await page.locator('nav.tags-view .tags-view-item').allTextContents()).toEqual([
      '首页',
      '检验项目',
      '标本类型',
      '仪器',
    ]);
    await page.context().close();
  });

  it('closes a tab on a middle click, but never the pinned one', async () => {
    const page = await withThreeTabs();
    // A background tab: it goes, the current screen stays.
    await tab(page, SPECIMEN_TYPE).click({ button: 'middle' });
    await eventually(() => tabPaths(page)).toEqual(['/dashboard', INSPECTION_ITEM, INSTRUMENT]);
    expect(pathname(page)).toBe(INSTRUMENT);
    await tab(page, '/dashboard').click({ button: 'middle' });
    // The middle click on 首页 changed nothing: a later close still sees it there.
    await tab(page, INSPECTION_ITEM).click({ button: 'middle' });
    await eventually(() => tabPaths(page)).toEqual(['/dashboard', INSTRUMENT]);
    expect(pathname(page)).toBe(INSTRUMENT);
    await page.context().close();
  });

  it('closing the active tab goes to the last tab left, not to a neighbour', async () => {
    const page = await withThreeTabs();
    await showTab(page, INSPECTION_ITEM);
    await tab(page, INSPECTION_ITEM).locator('.tags-view-close').click();
    await page.waitForURL((u) => u.pathname === INSTRUMENT);
    await waitForView(page, INSTRUMENT);
    await eventually(() => tabPaths(page)).toEqual(['/dashboard', SPECIMEN_TYPE, INSTRUMENT]);
    await eventually(() => activeTab(page)).toBe(INSTRUMENT);

    // Closed through the context menu, the last one left is shown as well; down to 首页 at the end.
    await tabMenu(page, INSTRUMENT, '关闭');
    await page.waitForURL((u) => u.pathname === SPECIMEN_TYPE);
    await waitForView(page, SPECIMEN_TYPE);
    await tab(page, SPECIMEN_TYPE).click({ button: 'middle' });
    await page.waitForURL((u) => u.pathname === '/dashboard');
    await eventually(() => tabPaths(page)).toEqual(['/dashboard']);
    await page.context().close();
  });

  it('Refresh rebuilds the screen of the tab (the dashboard reads the signed-in user again)', async () => {
    const { page } = await newPage(browser);
    await signIn(page, server.url, 'admin');
    await page.locator('.dashboard-welcome').waitFor();
    const reread = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/user/login' && r.status() === 200);
    await tabMenu(page, '/dashboard', '刷新');
    await reread;
    await page.locator('.dashboard-welcome').waitFor();
    expect(await tabPaths(page)).toEqual(['/dashboard']);
    await page.context().close();
  });
});
