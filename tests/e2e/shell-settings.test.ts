import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startServer, type TestServer } from '../support/server';
import { launchBrowser, newPage } from '../support/browser';
import { cookie, height, signIn, style, waitForShell, eventually } from '../support/shell';
import { readablePrimary } from '../../src/web/app/readableColour';

/** Spec 2.3: the settings drawer (theme colour, tags view, fixed header, logo) and the size switcher. */
let server: TestServer;
let browser: Browser;
beforeAll(async () => {
  [server, browser] = await Promise.all([startServer(), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.dispose();
});

const rgbOf = (hex: string) => `rgb(${[1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)).join(', ')})`;
const selectedMenuBg = (page: Page) => style(page.locator('.sidebar .ant-menu-item-selected'), 'background-color');

async function openSettings(page: Page) {
  await page.getByRole('button', { name: '系统布局配置' }).click();
  await page.locator('.settings-drawer').waitFor();
}

async function closeSettings(page: Page) {
  await page.locator('.settings-drawer .ant-drawer-close').click();
  await page.locator('.settings-drawer').waitFor({ state: 'hidden' });
}

/** Picks a size from the header menu; waits for the last menu to finish closing so no click is lost on it. */
async function chooseSize(page: Page, label: '默认' | '中等' | '小型' | '迷你') {
  const openMenu = page.locator('.ant-dropdown:visible');
  await openMenu.waitFor({ state: 'hidden' });
  await page.getByRole('button', { name: '布局大小' }).click();
  await openMenu.getByRole('menuitem', { name: label }).click();
  await openMenu.waitFor({ state: 'hidden' });
}

describe('settings drawer', () => {
  it('changes the theme colour at once (the selected menu item turns red) and keeps it after a reload', async () => {
    const { page } = await newPage(browser);
    await signIn(page, server.url, 'admin');
    // The default theme is #409EFF, in the shade white text on it can be read in (issue 23: 4.5:1).
    await eventually(() => selectedMenuBg(page)).toBe(rgbOf(readablePrimary('#409EFF')));
    await openSettings(page);
    const presets = page.locator('.settings-drawer [role="radio"]');
    expect(await presets.evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')))).toEqual([
      '#409EFF',
      '#1890ff',
      '#304156',
      '#212121',
      '#11a983',
      '#13c2c2',
      '#6959CD',
      '#f5222d',
    ]);
    expect(await page.getByRole('radio', { name: '#409EFF' }).getAttribute('aria-checked')).toBe('true');

    await page.getByRole('radio', { name: '#f5222d' }).click();
    await eventually(() => page.getByRole('radio', { name: '#f5222d' }).getAttribute('aria-checked')).toBe('true');
    await eventually(() => selectedMenuBg(page)).toBe(rgbOf(readablePrimary('#f5222d')));
    await closeSettings(page);

    await page.reload();
    await waitForShell(page);
    await eventually(() => selectedMenuBg(page)).toBe(rgbOf(readablePrimary('#f5222d')));
    await page.context().close();
  });

  it('turns the tab bar off and on, and remembers it', async () => {
    const { page } = await newPage(browser);
    await signIn(page, server.url, 'admin');
    await page.locator('nav.tags-view').waitFor();
    await openSettings(page);
    const tagsSwitch = page.getByRole('switch', { name: '开启 Tags-View' });
    expect(await tagsSwitch.getAttribute('aria-checked')).toBe('true');
    await tagsSwitch.click();
    await page.locator('nav.tags-view').waitFor({ state: 'detached' });
    await closeSettings(page);
    await page.reload();
    await waitForShell(page);
    expect(await page.locator('nav.tags-view').count()).toBe(0);

    await openSettings(page);
    await page.getByRole('switch', { name: '开启 Tags-View' }).click();
    await page.locator('nav.tags-view').waitFor();
    await page.context().close();
  });

  it('fixes the header and hides the sidebar logo on request', async () => {
    const { page } = await newPage(browser);
    await signIn(page, server.url, 'admin');
    expect(await page.locator('.app-header.fixed-header').count()).toBe(0);
    await page.locator('.sidebar .sidebar-logo').waitFor();
    expect(await page.locator('.sidebar .sidebar-title').textContent()).toBe('实验室信息管理系统');

    await openSettings(page);
    await page.getByRole('switch', { name: '固定 Header' }).click();
    await page.locator('.app-header.fixed-header').waitFor();
    await page.getByRole('switch', { name: '侧边栏 Logo' }).click();
    await page.locator('.sidebar .sidebar-logo').waitFor({ state: 'detached' });
    await closeSettings(page);

    await page.reload();
    await waitForShell(page);
    expect(await page.locator('.app-header.fixed-header').count()).toBe(1);
    expect(await page.locator('.sidebar .sidebar-logo').count()).toBe(0);
    await page.context().close();
  });
});

describe('size switcher', () => {
  it('resizes the controls for 默认 / 中等 / 小型 / 迷你 and keeps the choice in cookie size', async () => {
    const { page } = await newPage(browser);
    await signIn(page, server.url, 'admin');
    const search = page.locator('.header-search');
    const hamburger = page.getByRole('button', { name: '展开/收起侧边栏' });
    // Medium (antd middle) to start with: 32 px controls.
    await eventually(() => height(search)).toBe(32);

    await chooseSize(page, '默认');
    await eventually(() => height(search)).toBe(40);
    await eventually(() => height(hamburger)).toBe(40);
    expect(await cookie(page, 'size')).toBe('default');

    await chooseSize(page, '小型');
    await eventually(() => height(search)).toBe(24);
    await eventually(() => height(hamburger)).toBe(24);
    expect(await cookie(page, 'size')).toBe('small');

    // Mini is small with antd's compact algorithm: smaller still.
    await chooseSize(page, '迷你');
    await eventually(() => height(hamburger)).toBeLessThan(24);
    expect(await cookie(page, 'size')).toBe('mini');

    await chooseSize(page, '默认');
    await eventually(() => height(search)).toBe(40);
    await page.reload();
    await waitForShell(page);
    await eventually(() => height(search)).toBe(40);
    // The menu marks the size in force.
    await page.getByRole('button', { name: '布局大小' }).click();
    await eventually(() => page.locator('.ant-dropdown:visible .ant-dropdown-menu-item-selected').textContent()).toBe(
      '默认',
    );

    await page.getByRole('menuitem', { name: '中等' }).click();
    await eventually(() => height(search)).toBe(32);
    expect(await cookie(page, 'size')).toBe('medium');
    await page.context().close();
  });
});
