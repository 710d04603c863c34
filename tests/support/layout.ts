import type { Page } from 'playwright-core';

/**
 * What a user sees wrong with the layout of the page showing now (issue 25), read from element boxes
 * in one pass inside the page: the window scrolling sideways; the header's breadcrumb, buttons and
 * tab bar running into each other; and on a list, a key column or a row's action out of view, cut
 * off or under a pinned column without scrolling the table. `keys` are the list's key columns (their
 * cells carry `screen-col-<key>`); with `actions`, every row must offer at least one action. Answers one
 * sentence per problem.
 */
export function layoutProblems(page: Page, keys: readonly string[], actions = false): Promise<string[]> {
  return page.evaluate(probe, { keys: [...keys], actions });
}

/**
 * The layout's problems once it has settled: measured frame after frame until none is left or `ms` have
 * passed (a loaded machine may draw a table's rows before its pinned columns take their place), then
 * the last measure's.
 */
export async function settledLayoutProblems(
  page: Page,
  keys: readonly string[],
  actions = false,
  ms = 5000,
): Promise<string[]> {
  const deadline = Date.now() + ms;
  let problems = await layoutProblems(page, keys, actions);
  while (problems.length > 0 && Date.now() < deadline) {
    await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
    problems = await layoutProblems(page, keys, actions);
  }
  return problems;
}

function probe({ keys, actions: rowsAct }: { keys: string[]; actions: boolean }): string[] {
  const problems: string[] = [];
  const width = window.innerWidth;
  const visible = (el: Element | null): el is HTMLElement => el instanceof HTMLElement && el.offsetParent !== null;
  const box = (el: Element) => el.getBoundingClientRect();
  /** Two boxes share more than a pixel's sliver. */
  const overlap = (a: DOMRect, b: DOMRect) =>
    Math.min(a.right, b.right) - Math.max(a.left, b.left) > 1 &&
    Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 1;
  /** A box lies within another from left to right. */
  const within = (a: DOMRect, b: { left: number; right: number }) => a.left >= b.left - 1 && a.right <= b.right + 1;
  const named = (el: Element) => (el.textContent ?? '').trim().slice(0, 20) || el.className.toString().slice(0, 40);

  const scrollWidth = document.documentElement.scrollWidth;
  if (scrollWidth > width + 1) problems.push(`the window scrolls sideways (${scrollWidth} px in ${width})`);

  // The header: one line of breadcrumb beside the buttons, the tab bar below it.
  const navbar = document.querySelector('.navbar');
  const crumbs = document.querySelector('.app-breadcrumb ol') ?? document.querySelector('.app-breadcrumb');
  const buttons = document.querySelector('.navbar-right');
  const tags = document.querySelector('nav.tags-view');
  if (navbar && crumbs) {
    const bar = box(navbar);
    if (box(crumbs).bottom > bar.bottom + 1 || box(crumbs).top < bar.top - 1)
      problems.push('the breadcrumb does not fit in the header');
    if (buttons && overlap(box(crumbs), box(buttons))) problems.push("the breadcrumb runs under the header's buttons");
    if (tags && overlap(box(crumbs), box(tags))) problems.push('the breadcrumb overlaps the tab bar');
    for (const button of buttons?.querySelectorAll('button, input') ?? [])
      if (visible(button) && !within(box(button), { left: 0, right: width }))
        problems.push(`the header's ${named(button)} is outside the window`);
    if (tags && visible(tags) && box(tags).top < bar.bottom - 1) problems.push('the tab bar is under the header');
  }

  const view = [...document.querySelectorAll('.app-main .screen-page, .app-main .process-model-list')].find(visible);
  if (!view) return problems;
  const screen = { left: 0, right: width };
  for (const control of view.querySelectorAll(
    '.screen-filters .ant-form-item, .screen-filters button, .screen-toolbar-row button, .ant-pagination',
  ))
    if (visible(control) && !within(box(control), screen)) problems.push(`${named(control)} is outside the window`);

  // A phone: each row a card, its key fields and actions inside it and inside the window.
  if (view.querySelector('.screen-cards')) {
    for (const card of [...view.querySelectorAll('.screen-card')].filter(visible).slice(0, 5)) {
      const frame = box(card);
      const row = `card ${named(card.querySelector('.screen-card-title') ?? card)}`;
      if (!within(frame, screen)) problems.push(`${row} is wider than the window`);
      for (const key of keys) {
        const field = card.querySelector(`.screen-col-${key}`);
        if (!visible(field)) problems.push(`${row} does not show its key field ${key}`);
        else if (!within(box(field), frame)) problems.push(`${row}: its key field ${key} sticks out`);
      }
      const actions = [...card.querySelectorAll('.screen-row-actions > button')].filter(visible);
      if (rowsAct && actions.length === 0) problems.push(`${row} offers no action`);
      actions.forEach((action, i) => {
        if (!within(box(action), frame)) problems.push(`${row}: its action ${named(action)} sticks out`);
        for (const other of actions.slice(i + 1))
          if (overlap(box(action), box(other))) problems.push(`${row}: ${named(action)} overlaps ${named(other)}`);
      });
    }
    return problems;
  }

  // A table: key columns and row actions in view as the list opens, none under a pinned column.
  const container = view.querySelector('.ant-table-container');
  if (!visible(container)) return problems;
  const frame = { left: Math.max(0, box(container).left), right: Math.min(width, box(container).right) };
  const body = view.querySelector('.ant-table-body') ?? container;
  const bodyBottom = box(body).bottom;
  const header = view.querySelector('.ant-table-thead tr');
  const rows = [...view.querySelectorAll('tr.ant-table-row')]
    .filter((r) => visible(r) && box(r).top < bodyBottom)
    .slice(0, 6);
  const pinned = (row: Element) => [...row.querySelectorAll('.ant-table-cell-fix')];
  for (const [i, row] of (header ? [header, ...rows] : rows).entries()) {
    const where =
      i === 0 && header
        ? 'the header'
        : `row ${named(row.querySelector('td:not(.ant-table-selection-column)') ?? row)}`;
    for (const key of keys) {
      const cell = row.querySelector(`.screen-col-${key}`);
      if (!cell) {
        problems.push(`${where} has no key column ${key}`);
        continue;
      }
      const at = box(cell);
      if (!within(at, frame)) problems.push(`${where}: key column ${key} is out of view`);
      for (const other of pinned(row))
        if (other !== cell && overlap(at, box(other)))
          problems.push(`${where}: key column ${key} is under a pinned column`);
    }
    const actions = row.querySelectorAll('.screen-row-actions > button');
    if (rowsAct && row !== header && actions.length === 0) problems.push(`${where} offers no action`);
    for (const action of actions) {
      const at = box(action);
      const cell = action.closest('td');
      if (!within(at, frame)) problems.push(`${where}: action ${named(action)} is out of view`);
      else if (cell && !within(at, box(cell))) problems.push(`${where}: action ${named(action)} is cut off`);
    }
  }
  return problems;
}
