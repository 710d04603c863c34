import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, DEMO_PASSWORD, type TestServer } from '../support/server';
import { api, tokenFor } from '../support/client';
import { joinPath, type MenuNode } from '../../src/shared/menu/types';

/**
 * Issue 6 count test: the leaves of the menu tree the server serves are exactly the leaf routes of
 * spec 2.2 (tests/fixtures/spec-2.2-routes.json, written from the spec text) plus the few the fixture
 * lists outside it with their reason; each is backed by a screen schema or a named hand-written module.
 */
interface FixtureLeaf {
  spec?: string;
  why?: string;
  path: string;
  module?: string;
}
interface Fixture {
  sections: { section: string; leaves: FixtureLeaf[] }[];
  'outsideSpec2.2': FixtureLeaf[];
  count: number;
}

const root = path.resolve(import.meta.dirname, '../..');
const fixture = JSON.parse(readFileSync(path.join(root, 'tests/fixtures/spec-2.2-routes.json'), 'utf8')) as Fixture;
const specLeaves = fixture.sections.flatMap((s) => s.leaves);
const allLeaves = [...specLeaves, ...fixture['outsideSpec2.2']];
// Hand-written pages are listed once, in the page registry (route table, menu pages and tabs read it).
const menuPage = readFileSync(path.join(root, 'src/web/pages/registry.ts'), 'utf8');

let server: TestServer;
let tree: MenuNode[];
let client: ReturnType<typeof api>;

beforeAll(async () => {
  server = await startServer();
  // The main lab's administrator: every role id, and the lab uses places, so no route is filtered out.
  client = api(server.url, await tokenFor(server.url, 'admin', DEMO_PASSWORD));
  tree = (await client.get<{ routes: MenuNode[] }>('/api/ui/menu')).body.resultObject.routes;
});
afterAll(() => server?.dispose());

function leaves(nodes: MenuNode[], parent = '/'): { path: string; node: MenuNode }[] {
  return nodes.flatMap((node) => {
    const full = joinPath(parent, node.path);
    return node.children?.length ? leaves(node.children, full) : [{ path: full, node }];
  });
}

describe('the route tree against spec 2.2', () => {
  it('lists every leaf of spec 2.2 once, under its section', () => {
    expect(specLeaves.length).toBe(fixture.count);
    expect(new Set(specLeaves.map((l) => l.path)).size).toBe(specLeaves.length);
    for (const { section, leaves: items } of fixture.sections) {
      const top = section.includes('/groupManager') ? '/groupManager/' : '/laboratoryManager/';
      for (const leaf of items) expect(leaf.path.startsWith(top), `${leaf.path} under ${section}`).toBe(true);
    }
  });

  it('has exactly the fixture leaves in the menu tree the server serves', () => {
    const served = leaves(tree).map((l) => l.path);
    expect(served.length).toBe(allLeaves.length);
    expect([...served].sort()).toEqual(allLeaves.map((l) => l.path).sort());
  });

  it('backs each leaf with a screen schema the server serves, or a named hand-written module', async () => {
    const problems: string[] = [];
    for (const { path: leafPath, node } of leaves(tree)) {
      const expected = allLeaves.find((l) => l.path === leafPath);
      if (expected?.module) {
        const file = expected.module.split(' ')[0]!;
        if (!existsSync(path.join(root, file))) problems.push(`${leafPath}: module ${file} does not exist`);
        if (leafPath !== '/dashboard' && !menuPage.includes(`'${leafPath}'`))
          problems.push(`${leafPath}: not in the page registry`);
        continue;
      }
      if (!node.meta.screen) {
        problems.push(`${leafPath}: no screen schema`);
        continue;
      }
      const screen = await client.get<{ id: string; fields: unknown[] }>(`/api/ui/screens/${node.meta.screen}`);
      if (screen.status !== 200 || screen.body.resultObject.fields.length === 0)
        problems.push(`${leafPath}: screen ${node.meta.screen} is not served`);
    }
    expect(problems).toEqual([]);
  });

  it("lets the editor read the screen and the rows of every route the editor's menu opens", async () => {
    const editor = api(server.url, await tokenFor(server.url, 'editor', DEMO_PASSWORD));
    const routes = (await editor.get<{ routes: MenuNode[] }>('/api/ui/menu')).body.resultObject.routes;
    const closed: string[] = [];
    for (const { path: leafPath, node } of leaves(routes)) {
      if (!node.meta.screen) continue;
      const screen = await editor.get<{ resource: { name: string }; endpoints?: { list?: string } }>(
        `/api/ui/screens/${node.meta.screen}`,
      );
      if (screen.status !== 200) {
        closed.push(`${leafPath}: screen ${screen.status}`);
        continue;
      }
      const list =
        screen.body.resultObject.endpoints?.list ?? `/api/resources/${screen.body.resultObject.resource.name}`;
      const rows = await editor.get(`${list}?page=1&size=1${node.meta.isBasic ? '&basic=1' : ''}`);
      if (rows.status !== 200) closed.push(`${leafPath}: list ${rows.status}`);
    }
    expect(leaves(routes).length).toBeGreaterThan(50);
    expect(closed).toEqual([]);
  });
});
