import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';

/**
 * The sidebar's icons as one SVG sprite: `/icons/sprite.svg?names=BugOutlined,CarOutlined` answers a
 * <symbol> per named @ant-design/icons icon. A configurator may name any of the 800 icons for a menu (menu
 * maintenance) without a rebuild; the browser app carried a loader for each of them (17 KB gzip in the
 * shell) and fetched every icon of the menu as its own script. Now it asks this once, and the answer is
 * cached: the same names give the same sprite until the icon package changes.
 */
const THEMES: Record<string, string> = { outlined: 'Outlined', filled: 'Filled', twotone: 'TwoTone' };
const require = createRequire(import.meta.url);
let symbols: Map<string, string> | undefined;

/** bug → Bug, loading-3-quarters → Loading3Quarters: the name @ant-design/icons exports the file under. */
const pascal = (kebab: string) => kebab.replace(/(^|-)([a-z0-9])/g, (_, __, c: string) => c.toUpperCase());

/** Every icon of the package as a <symbol>, by its export name: read once, on the first sprite asked. */
function iconSymbols(): Map<string, string> {
  if (symbols) return symbols;
  const root = path.join(path.dirname(require.resolve('@ant-design/icons-svg/package.json')), 'inline-svg');
  symbols = new Map();
  for (const [dir, suffix] of Object.entries(THEMES)) {
    for (const file of readdirSync(path.join(root, dir))) {
      const name = pascal(file.replace(/\.svg$/, '')) + suffix;
      const svg = readFileSync(path.join(root, dir, file), 'utf8');
      const viewBox = /viewBox="([^"]+)"/.exec(svg)?.[1] ?? '0 0 1024 1024';
      const body = svg.replace(/^<svg[^>]*>/, '').replace(/<\/svg>\s*$/, '');
      symbols.set(name, `<symbol id="${name}" viewBox="${viewBox}">${body}</symbol>`);
    }
  }
  return symbols;
}

/** The sprite of the names asked (unknown names, a configurator's typo, are left out: no icon shows). */
export function iconSprite(names: readonly string[]): string {
  const all = iconSymbols();
  const known = [...new Set(names)].flatMap((n) => all.get(n) ?? []);
  return `<svg xmlns="http://www.w3.org/2000/svg">${known.join('')}</svg>`;
}

export function iconSpriteRoutes(app: FastifyInstance) {
  app.get<{ Querystring: { names?: string } }>(
    '/icons/sprite.svg',
    {
      config: { public: true },
      schema: { querystring: { type: 'object', properties: { names: { type: 'string', maxLength: 20000 } } } },
    },
    async (request, reply) => {
      const names = (request.query.names ?? '').split(',').filter(Boolean);
      return reply.type('image/svg+xml').header('Cache-Control', 'public, max-age=86400').send(iconSprite(names));
    },
  );
}
