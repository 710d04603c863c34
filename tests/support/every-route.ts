import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { tab } from './shell';
import { flattenMenus, type MenuFile, type MenuNode } from '../../src/shared/menu/types';
import { labTypeWrites, screenAllows, type LabType } from '../../src/shared/screens/access';
import type { ScreenSchema } from '../../src/shared/screens/fields';

/**
 * Visiting every route of the spec 2.2 tree (issue 6), for the administrator's, the editor's and the
 * base organisation's e2e files, which run beside each other: each page the role sees renders its table with demo rows (or its
 * hand-written page), opens its create dialog where the role may create, and logs no console error.
 */
const schemaDir = path.resolve(import.meta.dirname, '../../schemas');
const menuFile = JSON.parse(readFileSync(path.join(schemaDir, 'menus.json'), 'utf8')) as MenuFile;

export interface Leaf {
  path: string;
  title: string;
  /** The route, or a section above it, lists roles without the editor (spec 2.2 brackets). */
  adminOnly: boolean;
  /** Path of the highest admin-only node on the way to the route (the route itself, or a section). */
  adminOnlyTop?: string;
  /** A public-platform route (spec 6): only the base organisation writes there. */
  basic: boolean;
}

/** Who visits: the role and the lab type of the user's organisation (spec 1). */
export interface Visitor {
  role: 'admin' | 'editor';
  labType: LabType;
}

/**
 * Whether the visitor must find a 新增 button on the screen, read from its schema file: the toolbar
 * declares create, the schema's permissions let the role create and the lab type write, and a
 * public-platform route is written by the base organisation only.
 */
function createExpected(screenId: string, leaf: Leaf, visitor: Visitor): boolean {
  const screen = JSON.parse(readFileSync(path.join(schemaDir, 'screens', `${screenId}.json`), 'utf8')) as ScreenSchema;
  const create = screen.actions?.toolbar?.find((a) => a.kind === 'create');
  if (!create || (create.roles && !create.roles.includes(visitor.role))) return false;
  const writes = labTypeWrites(screen, visitor.labType) && (!leaf.basic || visitor.labType === 'base');
  return writes && screenAllows(screen, create.permission ?? 'create', [visitor.role]);
}

const closedToEditor = (node: MenuNode) => !!node.meta.roles && !node.meta.roles.includes('editor');

function leavesOf(nodes: MenuNode[]): Leaf[] {
  const byPath = new Map(flattenMenus(nodes).map((f) => [f.fullPath, f]));
  return [...byPath.values()]
    .filter(({ node }) => !node.children?.length && !node.meta.hidden)
    .map(({ fullPath, node }) => {
      const chain: { fullPath: string; node: MenuNode }[] = [];
      for (let at = byPath.get(fullPath); at; at = at.parentPath ? byPath.get(at.parentPath) : undefined)
        chain.unshift(at);
      const top = chain.find((c) => closedToEditor(c.node));
      const basic = chain.some((c) => c.node.meta.isBasic);
      return {
        path: fullPath,
        title: node.meta.title['zh-CN'],
        adminOnly: top !== undefined,
        adminOnlyTop: top?.fullPath,
        basic,
      };
    });
}

export const LEAVES = leavesOf(menuFile.routes);

/** What the visible view of the shell shows right now. */
export type Shown = { kind: 'rows' | 'emptyTable' | 'placeholder' | 'error' | 'page' | 'loading'; detail: string };

/**
 * What a visit found on one route: the kind of view it settled on, or `created` when its table showed
 * rows and its create dialog opened and closed, so a test can require that of a route, not only the
 * absence of problems (which is all a route the schema lets nobody create on can show).
 */
export type Outcome = Shown['kind'] | 'created';

/** Classifies the visible view; with `settledOnly`, answers null while it is still loading or its table is empty. */
function classify(settledOnly: boolean): Shown | null {
  const shown = ((): Shown => {
    const main = document.querySelector('.app-main');
    const visible = (el: Element | null) => el instanceof HTMLElement && el.offsetParent !== null;
    const first = (selector: string) => [...(main?.querySelectorAll(selector) ?? [])].find(visible) ?? null;
    const error = first('.error-page') ?? first('.ant-alert-error');
    if (error) return { kind: 'error', detail: error.textContent ?? '' };
    const screen = first('.screen-page');
    if (screen) {
      // A table's rows, or on a phone the cards that stand in for them.
      const rows = [...screen.querySelectorAll('tr.ant-table-row, .screen-card')].filter(visible).length;
      const busy = screen.querySelector('.ant-spin-spinning') !== null;
      return {
        kind: rows > 0 ? 'rows' : busy ? 'loading' : 'emptyTable',
        detail: screen.getAttribute('data-screen') ?? '',
      };
    }
    if (first('.page-placeholder'))
      return { kind: 'placeholder', detail: first('.page-placeholder')?.textContent ?? '' };
    if (first('.page-loading') || first('.ant-spin-spinning')) return { kind: 'loading', detail: '' };
    const text = [...(main?.children ?? [])]
      .filter(visible)
      .map((el) => (el as HTMLElement).innerText)
      .join('')
      .trim();
    return { kind: text ? 'page' : 'loading', detail: text.slice(0, 60) };
  })();
  return settledOnly && (shown.kind === 'loading' || shown.kind === 'emptyTable') ? null : shown;
}

/** Opens a path inside the running app, as a click on a link would. */
export async function open(page: Page, to: string) {
  await page.evaluate((p) => {
    window.history.pushState({}, '', p);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, to);
}

/**
 * Waits until the route's own view is up (the page title names it, spec 2.1) and settles: rows, a
 * placeholder, a hand-written page or an error; else says what it shows.
 */
export async function settle(page: Page, title: string, timeout = 15_000): Promise<Shown> {
  const titled = await page
    .waitForFunction((t) => document.title.startsWith(`${t} - `), title, { timeout, polling: 50 })
    .then(
      () => true,
      () => false,
    );
  if (!titled) return { kind: 'error', detail: `the page title is "${await page.title()}", not the route's` };
  try {
    const handle = await page.waitForFunction(classify, true, { timeout, polling: 50 });
    return (await handle.jsonValue()) as Shown;
  } catch {
    return (await page.evaluate(classify, false))!;
  }
}

/**
 * More to check on each route while a walk is there (the accessibility and window-fit checks): called once the route
 * has settled, and with its create dialog open. It keeps what it finds itself.
 */
export interface RouteAudit {
  route(page: Page, leaf: Leaf, shown: Shown): Promise<void>;
  dialog(page: Page, leaf: Leaf): Promise<void>;
}

/** Several checks on one walk, each in the order given. */
export function allOf(...audits: RouteAudit[]): RouteAudit {
  return {
    async route(page, leaf, shown) {
      for (const audit of audits) await audit.route(page, leaf, shown);
    },
    async dialog(page, leaf) {
      for (const audit of audits) await audit.dialog(page, leaf);
    },
  };
}

/**
 * Opens the visible screen's create dialog and closes it again, where the visitor may create; answers
 * a problem or null. A 新增 button shown where the schema forbids it is a problem too.
 */
async function tryCreateDialog(
  page: Page,
  expected: boolean,
  onOpen?: (page: Page) => Promise<void>,
): Promise<string | null> {
  const create = page.locator('.screen-page:visible .screen-toolbar').getByRole('button', { name: /^新\s*增$/ });
  const shown = (await create.count()) > 0;
  if (shown !== expected)
    return expected
      ? 'no 新增 button, though the schema lets this user create'
      : 'a 新增 button the schema does not allow';
  if (!shown) return null;
  await create.first().click();
  const dialog = page.locator('.ant-modal.record-dialog');
  try {
    await dialog.waitFor({ state: 'visible', timeout: 10_000 });
    if (onOpen) {
      await dialog.locator('form').first().waitFor();
      await onOpen(page);
    }
    // A click that lands while the dialog still zooms in can be lost on a busy machine: try again.
    for (let attempt = 1; ; attempt++) {
      await dialog.getByRole('button', { name: /^取\s*消$/ }).click();
      const closed = await dialog.waitFor({ state: 'detached', timeout: 3_000 }).then(
        () => true,
        () => false,
      );
      if (closed) return null;
      if (attempt === 3) return 'create dialog: does not close on 取消';
    }
  } catch (e) {
    return `create dialog: ${(e as Error).message.split('\n')[0]}`;
  }
}

/** The text of a dialog open over the page, or null. */
function openModalText(page: Page): Promise<string | null> {
  return page.evaluate(() => {
    const wrap = [...document.querySelectorAll('.ant-modal-wrap')].find(
      (el) => (el as HTMLElement).offsetParent !== null || getComputedStyle(el).display !== 'none',
    );
    return wrap ? (wrap as HTMLElement).innerText.slice(0, 200) : null;
  });
}

/** Keys of the sidebar's rendered menu entries (submenus and links), by full path. */
function sidebarKeys(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll('.sidebar [data-menu-id]')].map((e) => {
      const id = e.getAttribute('data-menu-id') ?? '';
      return id.slice(id.indexOf('-/') + 1);
    }),
  );
}

/**
 * Visits each route in turn and says what is wrong with it; `outcomes`, when given, gets what each route
 * showed, and `audit`, when given, checks more on each route. The tab of the route before is closed
 * (middle click, spec 2.3) so kept-alive views do not pile up in the page.
 */
export async function visitAll(
  page: Page,
  visitor: Visitor,
  consoleErrors: string[],
  leaves: Leaf[],
  seenKeys: Set<string>,
  outcomes?: Map<string, Outcome>,
  audit?: RouteAudit,
): Promise<string[]> {
  const problems: string[] = [];
  let previous: string | undefined;
  for (const leaf of leaves) {
    const errorsBefore = consoleErrors.length;
    const where = `${leaf.path} (${leaf.title})`;
    await open(page, leaf.path);
    const shown = await settle(page, leaf.title);
    if (shown.kind === 'error') problems.push(`${where}: error page ${shown.detail}`);
    else if (shown.kind === 'emptyTable') problems.push(`${where}: screen ${shown.detail} lists no row`);
    else if (shown.kind === 'loading') problems.push(`${where}: still loading after 15 s`);
    else if (shown.kind === 'placeholder') problems.push(`${where}: only a placeholder`);
    await audit?.route(page, leaf, shown);
    let outcome: Outcome = shown.kind;
    if (shown.kind === 'rows') {
      const expected = createExpected(shown.detail, leaf, visitor);
      const problem = await tryCreateDialog(page, expected, audit && ((p) => audit.dialog(p, leaf)));
      if (problem) problems.push(`${where}: ${problem}`);
      else if (expected) outcome = 'created';
    }
    outcomes?.set(leaf.path, outcome);
    for (const key of await sidebarKeys(page)) seenKeys.add(key);
    // A dialog the page opened by itself is a problem of the page; close it to go on.
    const modal = await openModalText(page);
    if (modal !== null) {
      problems.push(`${where}: a dialog is open: ${modal}`);
      await page.keyboard.press('Escape');
      await page.locator('.ant-modal-wrap').filter({ visible: true }).waitFor({ state: 'hidden' });
    }
    if (previous && previous !== leaf.path) await tab(page, previous).click({ button: 'middle' });
    previous = leaf.path;
    for (const e of consoleErrors.slice(errorsBefore)) problems.push(`${where}: console error ${e.slice(0, 200)}`);
  }
  return problems;
}
