import { useMemo, useState } from 'react';
import { Layout, Menu, type MenuProps } from 'antd';
import { Link, useLocation } from 'react-router';
import { useSnapshot } from 'valtio';
import { PRODUCT_TITLE, PRODUCT_TITLE_EN } from '../i18n/productTitle';
import { layout } from '../preferences/layout';
import { settings } from '../preferences/settings';
import { i18n } from '../i18n';
import { routeState } from '../permissions/routes';
import { joinPath, type MenuNode } from '../../shared/menu/types';
import type { Locale } from '../../shared/i18n/messages';
import { MenuIcon, menuIconSprite } from './MenuIcon';

/** Spec 2.3 / 9: 210 px wide, collapsible, one submenu open at a time. */
export const SIDEBAR_WIDTH = 210;
type Item = Required<MenuProps>['items'][number];

interface ItemOptions {
  locale: Locale;
  sprite: string;
  /** Whether a submenu's own items are made now: those of a closed one are made when it opens. */
  expanded: (key: string) => boolean;
}

/**
 * The menu's items. A closed submenu has none yet: antd's Menu renders (and registers) every item it is
 * given, which for an administrator's ~150 routes was ~95 ms of the first render after sign-in.
 */
function toItems(nodes: readonly MenuNode[], parent: string, options: ItemOptions): Item[] {
  const { locale, sprite, expanded } = options;
  return nodes
    .filter((node) => !node.meta.hidden)
    .map((node): Item => {
      const fullPath = joinPath(parent, node.path);
      const children = (node.children ?? []).filter((c) => !c.meta.hidden);
      // A section with a single page shows the page itself, unless it asks to stay a section.
      if (children.length === 1 && !node.meta.alwaysShow && !children[0]!.children) {
        return toItems(children, fullPath, options)[0]!;
      }
      const icon = <MenuIcon name={node.meta.icon} sprite={sprite} />;
      const title = node.meta.title[locale];
      // A name longer than the 210 px sidebar (English ones often are) ends in … and shows whole on hover.
      const label = (
        <span className="sidebar-label" title={title}>
          {title}
        </span>
      );
      if (children.length > 0)
        return { key: fullPath, icon, label, children: expanded(fullPath) ? toItems(children, fullPath, options) : [] };
      return { key: fullPath, icon, label: <Link to={fullPath}>{label}</Link> };
    });
}

/** Keys of the submenus that contain a path: /a, /a/b for /a/b/c. */
function ancestors(path: string): string[] {
  const parts = path.split('/').filter(Boolean);
  return parts.slice(0, -1).map((_, i) => `/${parts.slice(0, i + 1).join('/')}`);
}

export function Sidebar() {
  const { pathname } = useLocation();
  const { routes } = useSnapshot(routeState);
  const { locale } = useSnapshot(i18n);
  const { sidebarOpened, device } = useSnapshot(layout);
  const { sidebarLogo } = useSnapshot(settings);
  const [openKeys, setOpenKeys] = useState<string[]>(() => ancestors(pathname));
  const collapsed = !sidebarOpened;
  const sprite = useMemo(() => menuIconSprite(routes as MenuNode[]), [routes]);
  const items = useMemo(() => {
    const tree = routes as MenuNode[];
    // Made: the open submenus, and those holding the current page (antd marks them as its section). A
    // collapsed sidebar opens its submenus as pop-ups on hover, of which the Menu tells nothing: all made.
    const made = new Set([...openKeys, ...ancestors(pathname)]);
    const expanded = collapsed ? () => true : (key: string) => made.has(key);
    return toItems(tree, '/', { locale, sprite, expanded });
  }, [routes, locale, sprite, openKeys, pathname, collapsed]);
  const [openedFor, setOpenedFor] = useState(pathname);
  // A new page opens its own branch (state adjusted while rendering, not in an effect).
  if (openedFor !== pathname) {
    setOpenedFor(pathname);
    setOpenKeys(ancestors(pathname));
  }

  // Accordion: opening a submenu closes every other branch.
  const onOpenChange = (keys: string[]) => {
    const opened = keys.find((k) => !openKeys.includes(k));
    setOpenKeys(opened ? [...ancestors(opened), opened] : keys);
  };

  return (
    <Layout.Sider
      className="sidebar"
      width={SIDEBAR_WIDTH}
      collapsed={collapsed}
      collapsedWidth={device === 'mobile' ? 0 : 54}
      trigger={null}
      theme="dark"
    >
      {sidebarLogo && (
        <Link to="/dashboard" className="sidebar-logo">
          <span className="sidebar-logo-mark">LIMS</span>
          {!collapsed && <span className="sidebar-title">{locale === 'zh-CN' ? PRODUCT_TITLE : PRODUCT_TITLE_EN}</span>}
        </Link>
      )}
      <Menu
        mode="inline"
        theme="dark"
        items={items}
        selectedKeys={[pathname]}
        openKeys={collapsed ? undefined : openKeys}
        onOpenChange={onOpenChange}
        inlineIndent={16}
      />
    </Layout.Sider>
  );
}
