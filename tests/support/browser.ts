import { chromium, type Browser, type Page } from 'playwright-core';

/** Debian's Chromium, never a downloaded one; flags keep it off this machine's closed network. */
export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-dev-shm-usage',
    ],
  });
}

/**
 * A fresh page in its own context, collecting console errors so a test can assert there were none.
 * `script` runs in every document before the app's own (axe-core for the accessibility checks); the
 * browser adds it itself, outside the app's content policy, which stays in force for the app.
 */
export async function newPage(
  browser: Browser,
  locale = 'zh-CN',
  viewport = { width: 1400, height: 900 },
  script?: string,
): Promise<{ page: Page; consoleErrors: string[] }> {
  // Reduced motion, as a user may ask of the system: antd's animations are off (AntdRoot), so no step
  // waits for a dialog to finish zooming in.
  const context = await browser.newContext({ locale, viewport, reducedMotion: 'reduce' });
  if (script) await context.addInitScript({ content: script });
  const page = await context.newPage();
  const consoleErrors: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') consoleErrors.push(msg.text());
  });
  page.on('pageerror', (err) => consoleErrors.push(err.message));
  return { page, consoleErrors };
}
