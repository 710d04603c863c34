import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { startServer, DEMO_PASSWORD, type TestServer } from '../support/server';
import { launchBrowser, newPage } from '../support/browser';
import { api, login, tokenFor } from '../support/client';
import {
  nextFrames,
  pageSession,
  pathname,
  revokePageToken,
  signIn,
  submitLogin,
  tab,
  tabMenu,
  waitForDashboard,
  waitForShell,
  eventually,
} from '../support/shell';

/** Spec 2.5, 5, 8: the change-password dialog, the 401 box, and pushed alerts. */
let server: TestServer;
let browser: Browser;
beforeAll(async () => {
  [server, browser] = await Promise.all([startServer(), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.dispose();
});

const dialog = (page: Page) => page.locator('.change-password-dialog');

/** The error shown under one field of the change-password dialog ('' when none). */
function fieldError(page: Page, label: '原密码' | '新密码' | '确认密码'): Locator {
  return dialog(page)
    .locator('.ant-form-item')
    .filter({ has: page.locator('label', { hasText: new RegExp(`^${label}$`) }) })
    .locator('.ant-form-item-explain-error');
}

/** Read without waiting: an error fading out between a count and a read would hold a read for 30 s. */
const errorText = async (page: Page, label: '原密码' | '新密码' | '确认密码') =>
  (await fieldError(page, label).allTextContents())[0] ?? '';

/** Types into a field (replacing what is there) and leaves it, which is when the rules run. */
async function typeAndLeave(page: Page, label: '原密码' | '新密码' | '确认密码', value: string) {
  const input = dialog(page).getByLabel(label, { exact: true });
  await input.fill(value);
  await input.blur();
}

/**
 * Opens the dialog from the user dropdown. On a busy machine a click can land while the shell is still
 * settling and the dropdown closes again, so it looks again until the dialog is there.
 */
async function openChangePassword(page: Page) {
  const entry = page.getByRole('menuitem', { name: '修改密码' });
  await eventually(async () => {
    if (await dialog(page).isVisible()) return true;
    if (await entry.isVisible()) await entry.click({ timeout: 2_000 }).catch(() => undefined);
    else
      await page
        .getByRole('button', { name: 'user-menu' })
        .click({ timeout: 2_000 })
        .catch(() => undefined);
    await dialog(page)
      .waitFor({ timeout: 1_000 })
      .catch(() => undefined);
    return dialog(page).isVisible();
  }, 30_000).toBe(true);
}

/** An account made by the admin: its passwordFlag is 1 until its owner chooses a password. */
async function createAccount(account: string, password: string): Promise<void> {
  const admin = api(server.url, await tokenFor(server.url, 'admin', DEMO_PASSWORD));
  const roles = (await admin.get<{ id: number; code: string }[]>('/api/user/getRoleByOrgId?orgId=1')).body.resultObject;
  const editorRole = roles.find((r) => r.code === 'editor');
  if (!editorRole) throw new Error('no editor role in org 1');
  const created = await admin.post('/api/user', {
    userAccount: account,
    userName: `用户${account}`,
    password,
    roleIds: [editorRole.id],
  });
  expect(created.status).toBe(200);
}

describe('change-password dialog', () => {
  it('checks each rule when a field is left, with the spec’s messages', async () => {
    const { page } = await newPage(browser);
    await signIn(page, server.url, 'editor');
    await openChangePassword(page);
    expect(await dialog(page).locator('.ant-modal-title').textContent()).toBe('修改密码');

    // Old password: required, and shorter than 20.
    await typeAndLeave(page, '原密码', '');
    await eventually(() => errorText(page, '原密码')).toBe('请输入原密码');
    await typeAndLeave(page, '原密码', 'x'.repeat(20));
    await eventually(() => errorText(page, '原密码')).toBe('输入长度需小于20');
    await typeAndLeave(page, '原密码', 'x'.repeat(19));
    await eventually(() => errorText(page, '原密码')).toBe('');

    // New password: required; 8-15 characters of at least three kinds.
    await typeAndLeave(page, '新密码', '');
    await eventually(() => errorText(page, '新密码')).toBe('请输入密码');
    const weak = '密码是数字、大小写字母、特殊字符三种及以上组合,且长度8-15位';
    await typeAndLeave(page, '新密码', 'abcdefgh');
    await eventually(() => errorText(page, '新密码')).toBe(weak);
    await typeAndLeave(page, '新密码', 'Ab@1');
    await eventually(() => errorText(page, '新密码')).toBe(weak);
    await typeAndLeave(page, '新密码', 'Abcdefgh@123456');
    await eventually(() => errorText(page, '新密码')).toBe('');
    await typeAndLeave(page, '新密码', 'Abcdefgh@1234567');
    await eventually(() => errorText(page, '新密码')).toBe(weak);
    await typeAndLeave(page, '新密码', 'Abc@1234');
    await eventually(() => errorText(page, '新密码')).toBe('');

    // Confirmation: required, and equal to the new password.
    await typeAndLeave(page, '确认密码', '');
    await eventually(() => errorText(page, '确认密码')).toBe('请再次输入密码');
    await typeAndLeave(page, '确认密码', 'Abc@12345');
    await eventually(() => errorText(page, '确认密码')).toBe('两次输入密码不一致!');
    // Changing the new password checks the confirmation again.
    await typeAndLeave(page, '新密码', 'Abc@12345');
    await eventually(() => errorText(page, '确认密码')).toBe('');
    await typeAndLeave(page, '新密码', 'Abc@123456');
    await eventually(() => errorText(page, '确认密码')).toBe('两次输入密码不一致!');

    // Not forced: 取消 closes it, with no warning.
    await dialog(page)
      .getByRole('button', { name: /取\s*消/ })
      .click();
    await dialog(page).waitFor({ state: 'hidden' });
    expect(await page.getByText('需要修改密码').count()).toBe(0);
    await page.context().close();
  });

  it('opens by itself for an account with passwordFlag 1, cannot be closed, and after the change signs the user out', async () => {
    const start = 'Start@2026';
    const chosen = 'Mine@2026ok';
    await createAccount('newcomer', start);
    const { page } = await newPage(browser);
    await signIn(page, server.url, 'newcomer', start);
    await dialog(page).waitFor();
    // No way out: no cancel button, the X only warns, Escape does nothing.
    expect(
      await dialog(page)
        .getByRole('button', { name: /取\s*消/ })
        .isVisible(),
    ).toBe(false);
    await dialog(page).locator('.ant-modal-close').click();
    await page.locator('.ant-message').getByText('需要修改密码').waitFor();
    expect(await dialog(page).isVisible()).toBe(true);
    await page.keyboard.press('Escape');
    await nextFrames(page);
    expect(await dialog(page).isVisible()).toBe(true);

    // Still open and usable (a closed dialog would leave no fields to type in). The server still
    // checks the old password.
    await typeAndLeave(page, '原密码', 'Wrong@2026');
    await typeAndLeave(page, '新密码', chosen);
    await typeAndLeave(page, '确认密码', chosen);
    await dialog(page)
      .getByRole('button', { name: /确\s*定/ })
      .click();
    await page.locator('.ant-message-error').getByText('原密码错误').waitFor();
    expect(pathname(page)).toBe('/dashboard');
    expect(await dialog(page).isVisible()).toBe(true);

    await typeAndLeave(page, '原密码', start);
    await dialog(page)
      .getByRole('button', { name: /确\s*定/ })
      .click();
    await page.waitForURL((u) => u.pathname === '/login');

    // The new password works, the old one no longer does, and the dialog no longer forces itself.
    expect((await login(server.url, 'newcomer', start)).status).not.toBe(200);
    await submitLogin(page, 'newcomer', chosen);
    await page.waitForURL((u) => u.pathname === '/dashboard');
    await waitForDashboard(page);
    await openChangePassword(page);
    await dialog(page)
      .getByRole('button', { name: /取\s*消/ })
      .click();
    await dialog(page).waitFor({ state: 'hidden' });
    await page.context().close();
  });

  it('tells the user 密码修改成功 where they land after the change (the login page)', async () => {
    const start = 'Start@2026';
    const chosen = 'Mine@2026ok';
    await createAccount('confirmer', start);
    const { page } = await newPage(browser);
    await signIn(page, server.url, 'confirmer', start);
    await dialog(page).waitFor();
    await typeAndLeave(page, '原密码', start);
    await typeAndLeave(page, '新密码', chosen);
    await typeAndLeave(page, '确认密码', chosen);
    await dialog(page)
      .getByRole('button', { name: /确\s*定/ })
      .click();
    await page.waitForURL((u) => u.pathname === '/login');
    // The shell unmounts on the way out; the login page itself says the change went through.
    await page.getByRole('status').getByText('密码修改成功').waitFor();
    await page.context().close();
  });
});

describe('sign-in no longer valid', () => {
  it('asks to sign in again, once at a time, when a call answers 401; 重新登录 goes to the login page', async () => {
    const { page } = await newPage(browser);
    await signIn(page, server.url, 'admin');
    await waitForDashboard(page);
    await revokePageToken(page, server.url);

    // Refreshing the 首页 tab re-reads the user: the server now answers 401.
    const refused = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/user/login');
    await tabMenu(page, '/dashboard', '刷新');
    expect((await refused).status()).toBe(401);
    const box = page.locator('.ant-modal-confirm');
    await box.waitFor();
    expect(await box.locator('.ant-modal-confirm-content').textContent()).toBe('您的登录信息已失效，请重新登录。');
    expect(await box.getByRole('button', { name: '重新登录' }).isVisible()).toBe(true);
    expect(await box.getByRole('button', { name: /取\s*消/ }).isVisible()).toBe(true);

    // A second refused call while the box is up does not stack a second box. (The box's mask covers
    // the tab bar, so the tab's menu is driven with DOM events.)
    await tab(page, '/dashboard').dispatchEvent('contextmenu');
    const refresh = page.locator('.tags-context-menu').getByRole('menuitem', { name: '刷新' });
    await refresh.waitFor();
    const again = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/user/login');
    await refresh.dispatchEvent('click');
    expect((await again).status()).toBe(401);
    await nextFrames(page);
    expect(await page.locator('.ant-modal-confirm').count()).toBe(1);

    // 取消 closes it and the user stays; the next refused call asks again.
    await box.getByRole('button', { name: /取\s*消/ }).click();
    await box.waitFor({ state: 'detached' });
    expect(pathname(page)).toBe('/dashboard');
    await tabMenu(page, '/dashboard', '刷新');
    await box.waitFor();
    await box.getByRole('button', { name: '重新登录' }).click();
    await page.waitForURL((u) => u.pathname === '/login');
    expect(new URL(page.url()).searchParams.get('redirect')).toBe('/dashboard');
    const cookies = await page.context().cookies();
    expect(cookies.some((c) => c.name.startsWith('lims-token-'))).toBe(false);
    await page.context().close();
  });
});

/** Records what the page plays (headless Chromium has no speaker to listen to). */
const recordSounds = (page: Page) =>
  page.addInitScript(() => {
    const played: string[] = [];
    Object.assign(window, { played });
    HTMLMediaElement.prototype.play = function (this: HTMLMediaElement) {
      played.push(this.currentSrc || this.src);
      return Promise.resolve();
    };
  });
const soundsPlayed = (page: Page) => page.evaluate(() => (window as unknown as { played: string[] }).played);
/** The editor signed in, the page's sounds recorded, and the admin who pushes to them. */
async function editorHearing() {
  const { page } = await newPage(browser);
  await recordSounds(page);
  await signIn(page, server.url, 'editor');
  await waitForShell(page);
  const { userId } = await pageSession(page);
  return { page, userId, admin: api(server.url, await tokenFor(server.url, 'admin', DEMO_PASSWORD)) };
}

describe('push alerts', () => {
  it('shows an alert pushed to the signed-in user as a notification with its title and message', async () => {
    const { page, userId, admin } = await editorHearing();
    const alert = page.locator('.push-alert');
    // The page connects its socket on its own; send until the alert arrives (a send before the socket
    // is up reaches nobody).
    await expect
      .poll(
        async () => {
          if ((await alert.count()) > 0) return true;
          const sent = await admin.post('/api/push/send', {
            userIds: [Number(userId)],
            type: 'warning',
            title: '质控失控',
            message: '血糖 L1 连续两次超出 2SD',
          });
          expect(sent.status).toBe(200);
          return (await alert.count()) > 0;
        },
        { timeout: 20_000, interval: 500 },
      )
      .toBe(true);
    const first = alert.first();
    await first.waitFor();
    expect(await first.textContent()).toContain('质控失控');
    expect(await first.textContent()).toContain('血糖 L1 连续两次超出 2SD');
    // A warning-type notification, with the alert sound played from the hidden audio element.
    expect(await first.locator('.ant-notification-notice-icon-warning').count()).toBe(1);
    expect(await page.locator('audio.alert-sound').count()).toBe(1);
    const played = await soundsPlayed(page);
    expect(played.length).toBeGreaterThan(0);
    expect(played.every((src) => src.endsWith('/alert.wav'))).toBe(true);
    await page.context().close();
  });

  it('gathers a run of alerts of one title into one notice that counts them, ringing once for the run', async () => {
    const { page, userId, admin } = await editorHearing();
    const send = async (title: string, message: string) =>
      expect(
        (await admin.post('/api/push/send', { userIds: [Number(userId)], type: 'info', title, message })).status,
      ).toBe(200);
    const notices = page.locator('.push-alert');
    // Once the socket is up (a send before it reaches nobody), a desk's run of five new tasks.
    await expect
      .poll(
        async () => {
          if ((await notices.count()) === 0) await send('连接就绪', '推送已连接');
          return notices.count();
        },
        { timeout: 20_000, interval: 500 },
      )
      .toBeGreaterThan(0);
    const before = (await soundsPlayed(page)).length;
    for (let n = 1; n <= 5; n++) await send('新任务', `标本接收 · 26103000${n}`);

    const run = notices.filter({ hasText: '新任务' });
    await run.locator('.ant-notification-notice-title').getByText('新任务（5 条）').waitFor();
    expect(await run.count()).toBe(1);
    const lines = await run.locator('.ant-notification-notice-description > div').allInnerTexts();
    expect(lines).toEqual(['标本接收 · 261030005', '标本接收 · 261030004', '标本接收 · 261030003', '另有 2 条']);
    // Two notices in all (the connection's and the run's), not one a task piled up the screen.
    expect(await notices.count()).toBe(2);
    expect((await soundsPlayed(page)).length - before).toBe(1);
    await page.context().close();
  });
});
