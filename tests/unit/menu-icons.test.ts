import { describe, expect, it } from 'vitest';
import { menuIconSprite } from '../../src/web/shell/MenuIcon';
import { iconSprite } from '../../src/server/menus/iconSprite';
import type { MenuNode } from '../../src/shared/menu/types';

describe('menu icons', () => {
  it('asks one sprite for every icon of the menu tree, the same URL whatever the order', () => {
    const node = (path: string, icon?: string, children?: MenuNode[]): MenuNode => ({
      path,
      meta: { title: { 'zh-CN': path, 'en-US': path }, icon },
      children,
    });
    const tree = [node('a', 'CarOutlined', [node('b', 'BugOutlined'), node('c'), node('d', 'CarOutlined')])];
    const url = menuIconSprite(tree);
    expect(url).toBe('/icons/sprite.svg?names=BugOutlined,CarOutlined');
    expect(menuIconSprite([node('x', 'BugOutlined'), node('y', 'CarOutlined')])).toBe(url);
  });

  it('makes a symbol of each known icon with its own view box, the two-tone ones in their colours', () => {
    const svg = iconSprite(['Loading3QuartersOutlined', 'BugTwoTone', 'HeartFilled', 'BugOutlined', 'BugOutlined']);
    const ids = [...svg.matchAll(/<symbol id="(\w+)" viewBox="([\d ]+)">/g)].map((m) => m[1]);
    expect(ids).toEqual(['Loading3QuartersOutlined', 'BugTwoTone', 'HeartFilled', 'BugOutlined']);
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"><symbol/);
    expect(svg).toContain('fill="#E6E6E6"');
    expect(iconSprite(['bug', 'Bug', '../outlined/bug'])).toBe('<svg xmlns="http://www.w3.org/2000/svg"></svg>');
  });
});
