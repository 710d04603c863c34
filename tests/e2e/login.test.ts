import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { startServer, DEMO_PASSWORD, type TestServer } from '../support/server';
import { launchBrowser, newPage } from '../support/browser';

let server: TestServer;
let browser: Browser;
beforeAll(async () => {
  [server, browser] = await Promise.all([startServer(), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.dispose();
});

describe('signing in through the real page', () => {
  it('sends a visitor without a token to the login page, then to the page asked for', async () => {
    const { page, consoleErrors } = await newPage(browser);
    const entryCalls: string[] = [];
    page.on('request', (r) => {
      const path = new URL(r.url()).pathname;
      if (['/api/ui/menu', '/api/dictionary/all', '/api/organization/getUserLabType'].includes(path))
        entryCalls.push(path);
    });
    await page.goto(`${server.url}/dashboard`);
    await page.waitForURL(/\/login\?redirect=%2Fdashboard/);
    await page.getByPlaceholder('用户名').fill('  admin  ');
    // While the user types, antd's first render is rehearsed out of sight (app/warmUp.tsx)...
    const warmUp = page.locator('body > [data-warm-up][hidden][aria-hidden=true]');
    await warmUp.locator('.ant-menu').waitFor({ state: 'attached' });
    await page.getByPlaceholder('密码').fill(DEMO_PASSWORD);
    await page.getByRole('button', { name: /登\s*录/ }).click();
    await page.waitForURL(/\/dashboard$/);
    await expect.poll(() => page.locator('.dashboard-welcome').textContent()).toBe('欢迎，系统管理员');
    // ...and nothing of it stays once the shell is there.
    await expect.poll(() => warmUp.count()).toBe(0);
    expect(await page.getByText('华康医学检验中心实验室').count()).toBe(1);
    expect(await page.title()).toContain('实验室信息管理系统');
    expect(consoleErrors).toEqual([]);
    // Page entry (spec 4) asks each of its calls once.
    expect(entryCalls.sort()).toEqual(['/api/dictionary/all', '/api/organization/getUserLabType', '/api/ui/menu']);
    await page.context().close();
  });

  it('shows the error for a bad password and stays on the login page', async () => {
    const { page } = await newPage(browser);
    await page.goto(`${server.url}/login`);
    await page.getByPlaceholder('用户名').fill('editor');
    await page.getByPlaceholder('密码').fill('Wrong@2026');
    await page.getByRole('button', { name: /登\s*录/ }).click();
    await page.getByRole('alert').filter({ hasText: '用户名或密码错误' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/login');
    const cookies = await page.context().cookies();
    expect(cookies.some((c) => c.name.startsWith('lims-token-'))).toBe(false);
    await page.context().close();
  });

  it('logs out: the token is revoked and the dashboard needs a new sign-in', async () => {
    const { page } = await newPage(browser);
    await page.goto(`${server.url}/login`);
    await page.getByPlaceholder('用户名').fill('editor');
    await page.getByPlaceholder('密码').fill(DEMO_PASSWORD);
    await page.getByRole('button', { name: /登\s*录/ }).click();
    await page.waitForURL(/\/dashboard$/);
    await page.getByRole('button', { name: 'user-menu' }).click();
    await page.getByRole('menuitem', { name: '退出登录' }).click();
    await page.waitForURL(/\/login/);
    await page.goto(`${server.url}/dashboard`);
    await page.waitForURL(/\/login\?redirect=/);
    await page.context().close();
  });
});
