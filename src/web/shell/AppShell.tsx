import { useEffect } from 'react';
import { Layout } from 'antd';
import { useLocation } from 'react-router';
import { useSnapshot } from 'valtio';
import { PRODUCT_TITLE, PRODUCT_TITLE_EN } from '../i18n/productTitle';
import { isMobileWidth, layout, rememberedSidebar, setSidebar } from '../preferences/layout';
import { settings } from '../preferences/settings';
import { i18n } from '../i18n';
import { findRoute, routeState } from '../permissions/routes';
import { CONSTANT_PAGES, constantView } from '../pages/registry';
import { PushAlerts } from '../push/PushAlerts';
import { KeepAliveOutlet } from './KeepAliveOutlet';
import { Navbar } from './Navbar';
import { Sidebar } from './Sidebar';
import { addView } from './tags/tagsStore';
import { TagsView } from './tags/TagsView';

/**
 * Follows the window: mobile below 992 px closes the sidebar (without remembering it); back at a desk's
 * width, the sidebar is as the user last left it there (a tablet turned twice). The body's width
 * is read when the browser has laid it out anyway (a ResizeObserver's turn), never by asking for it while
 * the shell is being drawn: that forced a layout of the whole new page at sign-in (~60 ms here).
 */
function useDevice() {
  useEffect(() => {
    const observer = new ResizeObserver(([body]) => {
      if (!body) return;
      const mobile = isMobileWidth(body.borderBoxSize[0]?.inlineSize ?? body.contentRect.width);
      const changed = (layout.device === 'mobile') !== mobile;
      layout.device = mobile ? 'mobile' : 'desktop';
      if (changed) setSidebar(!mobile && rememberedSidebar(), false);
    });
    observer.observe(document.body);
    return () => observer.disconnect();
  }, []);
}

/** The current view's title and flags, from the menu tree or the constant routes. */
function useCurrentView() {
  const { pathname } = useLocation();
  const { routes } = useSnapshot(routeState);
  const entry = findRoute(routes as typeof routeState.routes, pathname);
  const meta = entry?.isLeaf ? entry.meta : constantView(pathname);
  return { pathname, meta };
}

/** The shell of spec 2.3: sidebar, header, tab bar, and the kept-alive page. */
export function AppShell() {
  useDevice();
  const { pathname, meta } = useCurrentView();
  const { sidebarOpened, device } = useSnapshot(layout);
  const { tagsView, fixedHeader } = useSnapshot(settings);
  const { locale } = useSnapshot(i18n);
  const { routes } = useSnapshot(routeState);

  useEffect(() => {
    for (const { path, constant } of CONSTANT_PAGES) {
      if (constant.affix) addView({ path, title: constant.title, affix: true });
    }
  }, []);

  useEffect(() => {
    if (meta && !meta.hidden) addView({ path: pathname, title: meta.title, affix: meta.affix, noCache: meta.noCache });
    const title = meta?.title[locale];
    const product = locale === 'zh-CN' ? PRODUCT_TITLE : PRODUCT_TITLE_EN;
    document.title = title ? `${title} - ${product}` : product;
    if (layout.device === 'mobile' && layout.sidebarOpened) setSidebar(false, false);
  }, [pathname, meta, locale, routes]);

  return (
    <Layout className={`app-wrapper ${device} ${sidebarOpened ? 'sidebar-open' : 'sidebar-closed'}`}>
      {device === 'mobile' && sidebarOpened && <div className="drawer-bg" onClick={() => setSidebar(false, false)} />}
      <Sidebar />
      <Layout className="main-container">
        <div className={fixedHeader ? 'app-header fixed-header' : 'app-header'}>
          <Navbar />
          {tagsView && <TagsView />}
        </div>
        <Layout.Content className="app-main">
          <KeepAliveOutlet noCache={Boolean(meta?.noCache)} />
        </Layout.Content>
      </Layout>
      <PushAlerts />
    </Layout>
  );
}
