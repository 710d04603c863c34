/**
 * `npm run screenshots`: the pictures of README's "A day in the lab", taken from the running product so
 * they stay current: a server on a fresh demo (a data directory of its own, removed afterwards), the
 * built browser app, and Debian's headless Chromium (CHROMIUM_PATH, default /usr/bin/chromium; never a
 * downloaded browser). Each step signs in as the account the README names and saves
 * docs/screenshots/<step>.png at 1440×900.
 */
import { spawn, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Page } from 'playwright-core';

const root = path.resolve(import.meta.dirname, '..');
const out = path.join(root, 'docs/screenshots');
const port = Number(process.env.SCREENSHOT_PORT || 18089);
const url = `http://127.0.0.1:${port}`;
const password = 'Lims@2026';
const VIEWPORT = { width: 1440, height: 900 };

/**
 * The pictures show the app as a lab's machine draws it, in the system's Chinese font (README): a
 * machine without one would draw every Chinese word as boxes.
 */
function requireChineseFont() {
  let families = '';
  try {
    families = execFileSync('fc-list', [':lang=zh', 'family'], { encoding: 'utf8' }).trim();
  } catch {
    // No fontconfig: no font either.
  }
  if (!families)
    throw new Error(
      'screenshots: no Chinese font here (apt-get install fonts-wqy-microhei); every word would be boxes',
    );
}

const PAGES = {
  intake: '/laboratoryManager/permission/frontEntry',
  handover: '/laboratoryManager/handoverManage/handover',
  accept: '/laboratoryManager/samplePreparations/checkAccept',
  testing: '/laboratoryManager/inspection/generalInspection',
  reports: '/laboratoryManager/reportCard/index',
};

async function startServer(dataDir: string) {
  if (!existsSync(path.join(root, 'dist/web/index.html')))
    execFileSync('npm', ['run', 'build', '--silent'], {
      cwd: root,
      stdio: 'inherit',
      env: { ...process.env, NODE_ENV: 'production' },
    });
  const server = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    cwd: root,
    stdio: 'inherit',
    env: {
      LOG_LEVEL: 'warn',
      ...process.env,
      PORT: String(port),
      LIMS_DATA_DIR: dataDir,
      LIMS_DEMO_PASSWORD: password,
    },
  });
  // The first start seeds the demo: wait for the server to answer (about a minute on a slow machine).
  for (let waited = 0; waited < 300_000; waited += 1000) {
    const up = await fetch(`${url}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) return server;
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  server.kill('SIGTERM');
  throw new Error('the server did not start');
}

async function signIn(page: Page, account: string, path: string) {
  await page.goto(`${url}/login`);
  await page.getByPlaceholder('用户名').fill(account);
  await page.getByPlaceholder('密码').fill(password);
  await page.locator('button.login-submit').click();
  await page.waitForURL((u) => u.pathname !== '/login');
  if (path !== '/dashboard') await page.goto(url + path);
}

/** A screen page with its rows (or its empty table) drawn. */
const listShown = (page: Page) => page.locator('.screen-page .ant-table-wrapper').first().waitFor();

async function shoot(page: Page, name: string) {
  await page.mouse.move(0, 0);
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  await page.screenshot({ path: path.join(out, `${name}.png`) });
  console.log(`screenshots: docs/screenshots/${name}.png`);
}

async function main() {
  requireChineseFont();
  mkdirSync(out, { recursive: true });
  const dataDir = mkdtempSync(path.join(tmpdir(), 'lims-screenshots-'));
  const server = await startServer(dataDir);
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run'],
  });
  try {
    const context = await browser.newContext({ locale: 'zh-CN', viewport: VIEWPORT, reducedMotion: 'reduce' });
    const page = await context.newPage();

    await page.goto(`${url}/login`);
    await page.locator('button.login-submit').waitFor();
    await shoot(page, '01-login');

    // The front desk (editor) enters a specimen on the everyday intake screen.
    await signIn(page, 'editor', PAGES.intake);
    await listShown(page);
    await page
      .locator('.screen-page')
      .getByRole('button', { name: /新\s*增/ })
      .click();
    await page.locator('.record-dialog').waitFor();
    await page.locator('#root_patientName').fill('张晓梅');
    await shoot(page, '02-intake');
    await page.keyboard.press('Escape');

    for (const [name, path] of [
      ['03-label-and-list', PAGES.intake],
      ['04-handover', PAGES.handover],
      ['05-accept', PAGES.accept],
      ['06-testing', PAGES.testing],
      ['07-reports', PAGES.reports],
    ] as const) {
      await page.goto(url + path);
      await listShown(page);
      await shoot(page, name);
    }

    await page.goto(`${url}/dashboard`);
    await page.locator('.dashboard-counts [data-tile]').first().waitFor();
    await page.locator('[data-testid="todo-tasks"][aria-busy="false"]').waitFor();
    await shoot(page, '08-dashboard');
    await context.close();
  } finally {
    await browser.close();
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
