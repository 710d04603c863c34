import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { startServer, type TestServer } from '../support/server';
import { launchBrowser, newPage } from '../support/browser';
import { nextFrames, pathname, signIn, tabMenu, waitForDashboard } from '../support/shell';

/**
 * Spec 8: a sign-in left idle past the limit answers HTTP 511 and the app asks to sign in again. This
 * file's server lets a token idle for only 4 s (it records a token's use at most every 5 s), so the
 * test polls, refreshing the 首页 tab, until the server says 511: no sleeping.
 */
let server: TestServer;
let browser: Browser;
beforeAll(async () => {
  [server, browser] = await Promise.all([startServer({ LIMS_IDLE_TIMEOUT_SECONDS: '4' }), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.dispose();
});

describe('idle sign-in', () => {
  it('shows 长时间未进行操作，请重新登录。 on HTTP 511, and 重新登录 leads to the login page', async () => {
    const { page } = await newPage(browser);
    await signIn(page, server.url, 'admin');
    await waitForDashboard(page);

    const idleBox = page.locator('.ant-modal-confirm').filter({ hasText: '长时间未进行操作，请重新登录。' });
    // Each refresh of the 首页 tab re-reads the user; once the token has idled past the limit the next
    // call answers 511. Another call of the dashboard may meet the 511 first and raise the box over the
    // tab bar, so a refresh that cannot be clicked is given up quickly and the box looked for again.
    await expect
      .poll(
        async () => {
          if ((await idleBox.count()) === 0) await tabMenu(page, '/dashboard', '刷新', 2_000).catch(() => undefined);
          return idleBox.count();
        },
        { timeout: 30_000, interval: 250 },
      )
      .toBe(1);

    expect(await idleBox.getByRole('button', { name: '重新登录' }).isVisible()).toBe(true);
    expect(await idleBox.getByRole('button', { name: /取\s*消/ }).isVisible()).toBe(true);
    expect(pathname(page)).toBe('/dashboard');
    // One prompt for one expired sign-in.
    // The 511 answer ends the session, so calls still in flight answer 401: still one box.
    await nextFrames(page);
    expect(await page.locator('.ant-modal-confirm').count()).toBe(1);

    await idleBox.getByRole('button', { name: '重新登录' }).click();
    await page.waitForURL((u) => u.pathname === '/login');
    expect(new URL(page.url()).searchParams.get('redirect')).toBe('/dashboard');
    const cookies = await page.context().cookies();
    expect(cookies.some((c) => c.name.startsWith('lims-token-'))).toBe(false);
    await page.context().close();
  });
});
