import { describe, expect, it } from 'vitest';
import { newPage } from '../support/browser';
import { adminWalk, partOf, PARTS } from '../support/admin-walk';
import { LEAVES } from '../support/every-route';
import { AXE_SOURCE, once, violations } from '../support/axe';

/**
 * Part 1 of the administrator's walk of every route (support/admin-walk.ts; parts 2 and 3 are
 * every-route-2 and every-route-3), and the login page's accessibility.
 */
const run = adminWalk(1);

describe('the walk in parts', () => {
  it('covers every route once', () => {
    const parts = Array.from({ length: PARTS }, (_, i) => partOf(LEAVES, i + 1).map((l) => l.path));
    expect(parts.flat()).toEqual(LEAVES.map((l) => l.path));
    expect(parts.every((p) => p.length > 0)).toBe(true);
  });
});

describe('accessibility (axe-core, serious and critical)', () => {
  it('finds nothing on the login page', async () => {
    const { page } = await newPage(run.browser, undefined, undefined, AXE_SOURCE);
    await page.goto(`${run.server.url}/login`);
    await page.getByPlaceholder('用户名').waitFor();
    expect(once(await violations(page, '/login'))).toEqual([]);
    await page.context().close();
  });
});
