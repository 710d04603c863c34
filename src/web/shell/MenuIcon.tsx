import { flattenMenus, type MenuNode } from '../../shared/menu/types';

/**
 * A menu's icon by its @ant-design/icons name, drawn from one sprite the server makes of the menu's icons
 * (menus/iconSprite.ts): a configurator may name any icon in menu maintenance without a rebuild, and the
 * app neither carries a loader per icon nor fetches each icon as a script. Styled as antd's own icons
 * (`anticon`, 1em, the text colour), so the menu sizes and colours it the same.
 */
export function MenuIcon({ name, sprite }: { name: string | undefined; sprite: string }) {
  if (!name) return null;
  return (
    <span role="img" aria-hidden="true" className="anticon menu-icon">
      <svg width="1em" height="1em" fill="currentColor" focusable="false">
        <use href={`${sprite}#${name}`} />
      </svg>
    </span>
  );
}

/** The sprite holding every icon of these menus, one URL for the same set whatever its order. */
export function menuIconSprite(nodes: MenuNode[]): string {
  const names = new Set(flattenMenus(nodes).flatMap(({ node }) => node.meta.icon ?? []));
  return `/icons/sprite.svg?names=${[...names].sort().map(encodeURIComponent).join(',')}`;
}
