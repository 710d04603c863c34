import { expect } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { DEMO_PASSWORD } from './server';

/** Small helpers for the end-to-end tests of the application shell (sidebar, tabs, header, dialogs). */

export const PRODUCT_TITLE = '实验室信息管理系统';

/**
 * expect.poll with room for a busy machine: vitest's default gives up after 1 s, too short when several
 * servers and browsers share the CPU. Still a wait for a condition, never a fixed sleep.
 */
export function eventually<T>(read: () => T | Promise<T>, timeout = 10_000) {
  return expect.poll(read, { timeout, interval: 50 });
}

/** Fills the login form and submits it; does not wait for where the app goes next. */
export async function submitLogin(page: Page, account: string, password = DEMO_PASSWORD): Promise<void> {
  await page.getByPlaceholder('用户名').fill(account);
  await page.getByPlaceholder('密码').fill(password);
  await page.getByRole('button', { name: /登\s*录/ }).click();
}

/**
 * Signs in through the real login page and waits until the shell is up (sidebar menu rendered).
 * `path` is the page asked for first (default /login); a protected path goes through the redirect.
 */
export async function signIn(
  page: Page,
  url: string,
  account: string,
  password = DEMO_PASSWORD,
  path = '/login',
): Promise<void> {
  await page.goto(url + path);
  await page.waitForURL(/\/login/);
  await submitLogin(page, account, password);
  await page.waitForURL((u) => u.pathname !== '/login');
  await waitForShell(page);
}

/** The shell is up: the sidebar has its menu. */
export async function waitForShell(page: Page): Promise<void> {
  await page.locator('.sidebar .ant-menu').first().waitFor();
}

/** The dashboard has loaded its data (its own /api/user/login call is answered). */
export async function waitForDashboard(page: Page): Promise<void> {
  await page.locator('.dashboard-page[aria-busy="false"] .dashboard-welcome').waitFor();
}

/** Submenu keys above a page: /a and /a/b for /a/b/c. */
function ancestors(path: string): string[] {
  const parts = path.split('/').filter(Boolean);
  return parts.slice(0, -1).map((_, i) => `/${parts.slice(0, i + 1).join('/')}`);
}

/** Opens each submenu above a path that is not open yet. */
async function expandTo(page: Page, path: string): Promise<void> {
  for (const key of ancestors(path)) {
    const title = page.locator(`.sidebar .ant-menu-submenu-title[data-menu-id$="-${key}"]`);
    if ((await title.getAttribute('aria-expanded')) !== 'true') await title.click();
  }
}

/**
 * Opens a page by clicking through the (expanded) sidebar: each submenu above it, then its link. On a busy
 * machine a click can land while a submenu is still sliding open or shut (one open at a time), so it
 * looks again until the page is there.
 */
export async function openFromSidebar(page: Page, path: string): Promise<void> {
  const link = page.locator(`.sidebar a[href="${path}"]`);
  const arrived = () => new URL(page.url()).pathname === path;
  await eventually(async () => {
    if (arrived()) return true;
    if (await link.isVisible()) await link.click({ timeout: 2_000 }).catch(() => undefined);
    else await expandTo(page, path);
    await page.waitForURL((u) => u.pathname === path, { timeout: 1_000 }).catch(() => undefined);
    return arrived();
  }, 30_000).toBe(true);
  await waitForView(page, path);
}

/**
 * Waits until the shell shows a menu page: its sidebar item is selected, which happens once the
 * navigation is committed (the address bar changes earlier, while a lazily loaded page is fetched).
 */
export async function waitForView(page: Page, path: string): Promise<void> {
  await page.locator(`.sidebar .ant-menu-item-selected a[href="${path}"]`).waitFor({ state: 'attached' });
}

/** The tab of one path in the tab bar. */
export function tab(page: Page, path: string): Locator {
  return page.locator(`nav.tags-view .tags-view-item[data-path="${path}"]`);
}

/** Clicks a tab and waits until its page is the one shown. */
export async function showTab(page: Page, path: string): Promise<void> {
  await tab(page, path).click();
  await page.waitForURL((u) => u.pathname === path);
  if (path !== '/dashboard') await waitForView(page, path);
  await eventually(() => activeTab(page)).toBe(path);
}

/** The paths of the tabs, left to right. */
export function tabPaths(page: Page): Promise<string[]> {
  return page
    .locator('nav.tags-view .tags-view-item')
    .evaluateAll((els) => els.map((e) => e.getAttribute('data-path') ?? ''));
}

/** The path of the highlighted tab. */
export function activeTab(page: Page): Promise<string | null> {
  return page.locator('nav.tags-view .tags-view-item.active').getAttribute('data-path');
}

/**
 * Right-clicks a tab and chooses an entry of its context menu (刷新, 关闭, 关闭其它, 关闭所有). Waits for
 * the last menu to finish closing first: a click on a menu still fading out is lost.
 */
export async function tabMenu(
  page: Page,
  path: string,
  entry: '刷新' | '关闭' | '关闭其它' | '关闭所有',
  timeout?: number,
): Promise<void> {
  const openMenu = page.locator('.tags-context-menu:visible');
  await openMenu.waitFor({ state: 'hidden', timeout });
  await tab(page, path).click({ button: 'right', timeout });
  await openMenu.getByRole('menuitem', { name: entry, exact: true }).click({ timeout });
  await openMenu.waitFor({ state: 'hidden', timeout });
}

/** The pathname the page shows now. */
export function pathname(page: Page): string {
  return new URL(page.url()).pathname;
}

/** The token and user id the page keeps in its cookies (spec 4: cookie keyed by the user's id). */
export async function pageSession(page: Page): Promise<{ userId: string; token: string }> {
  const cookies = await page.context().cookies();
  const tokenCookie = cookies.find((c) => c.name.startsWith('lims-token-'));
  if (!tokenCookie) throw new Error('no token cookie: is the page signed in?');
  return { userId: tokenCookie.name.slice('lims-token-'.length), token: tokenCookie.value };
}

/** The value of one cookie of the page's context. */
export async function cookie(page: Page, name: string): Promise<string | undefined> {
  return (await page.context().cookies()).find((c) => c.name === name)?.value;
}

/** Revokes the page's token from outside, as another session or an administrator would. */
export async function revokePageToken(page: Page, url: string): Promise<void> {
  const { token } = await pageSession(page);
  const res = await fetch(`${url}/api/user/logOut`, { headers: { authorization: `Bearer ${token}` } });
  expect(res.status).toBe(200);
}

/** A computed style of the first element of a locator. */
export function style(locator: Locator, property: string): Promise<string> {
  return locator.first().evaluate((el, prop) => getComputedStyle(el).getPropertyValue(prop), property);
}

/** Rendered height of the first element of a locator, in px. */
export function height(locator: Locator): Promise<number> {
  return locator.first().evaluate((el) => el.getBoundingClientRect().height);
}

/** Waits until the page has painted twice: lets React commit what an event already set going. */
export function nextFrames(page: Page): Promise<void> {
  return page.evaluate(
    () => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))),
  );
}
