import { describe, expect, it } from 'vitest';
import { newPage } from '../support/browser';
import { serverAndBrowser } from '../support/e2e';
import { cookie, eventually, signIn, waitForDashboard } from '../support/shell';

/** Spec 2.3, 4: the shell on a narrow window, the full-screen toggle, and the second language. */
const run = serverAndBrowser();

const SPECIMEN_TYPE = '/laboratoryManager/basic/specimenType';

describe('the shell on devices and in languages', () => {
  it('closes the sidebar below 992 px, again after a page is chosen, without remembering it: back at a desk it is as left there; hides full screen', async () => {
    const { page, consoleErrors } = await newPage(run.browser);
    await signIn(page, run.server.url, 'admin');
    await waitForDashboard(page);
    const shell = page.locator('.app-wrapper');
    const fullscreen = page.getByRole('button', { name: '全屏' });
    expect(await shell.getAttribute('class')).toMatch(/\bdesktop\b.*\bsidebar-open\b/);
    expect(await fullscreen.count()).toBe(1);

    // The window shrinks to a phone's width: the sidebar closes, the full-screen button goes.
    await page.setViewportSize({ width: 800, height: 900 });
    await eventually(() => shell.getAttribute('class')).toMatch(/\bmobile\b.*\bsidebar-closed\b/);
    expect(await fullscreen.count()).toBe(0);
    expect(await cookie(page, 'sidebarStatus')).not.toBe('0');

    // Opened by hand, it closes by itself once a page is chosen.
    await page.locator('.hamburger').click();
    await eventually(() => shell.getAttribute('class')).toContain('sidebar-open');
    for (const key of ['/laboratoryManager', '/laboratoryManager/basic']) {
      await page.locator(`.sidebar .ant-menu-submenu-title[data-menu-id$="-${key}"]`).click();
    }
    await page.locator(`.sidebar a[href="${SPECIMEN_TYPE}"]`).click();
    await page.waitForURL((u) => u.pathname === SPECIMEN_TYPE);
    await eventually(() => shell.getAttribute('class')).toContain('sidebar-closed');
    expect(await cookie(page, 'sidebarStatus')).not.toBe('0');

    // Back to a desk's width: a desktop again, with the full-screen button and the sidebar open as it
    // was left there (the phone's closes were not remembered).
    await page.setViewportSize({ width: 1400, height: 900 });
    await eventually(() => shell.getAttribute('class')).toMatch(/\bdesktop\b.*\bsidebar-open\b/);
    expect(await fullscreen.count()).toBe(1);

    // Closed by hand at the desk, it stays closed after a turn through a phone's width.
    await page.locator('.hamburger').click();
    await eventually(() => shell.getAttribute('class')).toContain('sidebar-closed');
    await page.setViewportSize({ width: 800, height: 900 });
    await eventually(() => shell.getAttribute('class')).toContain('mobile');
    await page.setViewportSize({ width: 1400, height: 900 });
    await eventually(() => shell.getAttribute('class')).toMatch(/\bdesktop\b.*\bsidebar-closed\b/);
    expect(consoleErrors).toEqual([]);
    await page.context().close();
  });

  it('keeps the sidebar under an open dialog (dimmed, not clickable) and, on a phone, above its own backdrop', async () => {
    const { page, consoleErrors } = await newPage(run.browser);
    await signIn(page, run.server.url, 'admin', undefined, SPECIMEN_TYPE);
    await page.getByRole('button', { name: /新\s*增/ }).click();
    const dialog = page.locator('.record-dialog');
    await dialog.waitFor();
    await page.waitForFunction(() => document.getAnimations().length === 0);

    // A click on the dashboard's menu entry lands on the dialog's mask: no navigation, the dialog stays.
    const entry = page.locator('.sidebar .ant-menu a[href="/dashboard"]');
    const box = (await entry.boundingBox())!;
    const topmost = (x: number, y: number) =>
      page.evaluate(([x, y]) => !!document.elementFromPoint(x, y)?.closest('.sidebar'), [x, y] as const);
    expect(await topmost(box.x + box.width / 2, box.y + box.height / 2)).toBe(false);
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    expect(new URL(page.url()).pathname).toBe(SPECIMEN_TYPE);
    expect(await dialog.isVisible()).toBe(true);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });

    // On a phone's width the opened sidebar lies over the page's backdrop, and a click on it navigates.
    await page.setViewportSize({ width: 800, height: 900 });
    await eventually(() => page.locator('.app-wrapper').getAttribute('class')).toContain('sidebar-closed');
    await page.locator('.hamburger').click();
    await page.locator('.drawer-bg').waitFor();
    const opened = (await entry.boundingBox())!;
    await eventually(() => topmost(opened.x + opened.width / 2, opened.y + opened.height / 2)).toBe(true);
    await page.mouse.click(opened.x + opened.width / 2, opened.y + opened.height / 2);
    await page.waitForURL((u) => u.pathname === '/dashboard');
    expect(consoleErrors).toEqual([]);
    await page.context().close();
  });

  it("warns 'you browser can not work' where full screen is not allowed", async () => {
    const { page } = await newPage(run.browser);
    await page.addInitScript(() =>
      Object.defineProperty(Document.prototype, 'fullscreenEnabled', { get: () => false }),
    );
    await signIn(page, run.server.url, 'admin');
    await waitForDashboard(page);
    await page.getByRole('button', { name: '全屏' }).click();
    await page.locator('.ant-message-notice').filter({ hasText: 'you browser can not work' }).waitFor();
    await page.context().close();
  });

  it('switches the shell, the pages and antd itself to English, and keeps the choice after a reload', async () => {
    const { page, consoleErrors } = await newPage(run.browser);
    await signIn(page, run.server.url, 'admin');
    await waitForDashboard(page);
    await page.getByRole('button', { name: 'language' }).click();

    await eventually(() => page.locator('.dashboard-welcome').textContent()).toBe('Welcome, 系统管理员');
    await eventually(() => page.locator('.app-breadcrumb').textContent()).toContain('Dashboard');
    expect(await page.locator('.sidebar').textContent()).toContain('Laboratory management');
    expect(await page.getByRole('button', { name: 'Full screen' }).count()).toBe(1);

    await page.reload();
    await waitForDashboard(page);
    expect(await page.locator('.dashboard-welcome').textContent()).toBe('Welcome, 系统管理员');
    // A screen's table speaks antd's English too (its pagination).
    await page.goto(`${run.server.url}${SPECIMEN_TYPE}`);
    await eventually(() => page.locator('.screen-page:visible .ant-pagination-options').first().textContent()).toMatch(
      /\/ page/,
    );
    expect(consoleErrors).toEqual([]);
    await page.context().close();
  });
});
