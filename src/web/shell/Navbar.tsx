import { lazy, Suspense, useState } from 'react';
import { Avatar, Breadcrumb, Button, Dropdown, Tooltip } from 'antd';
import {
  FullscreenExitOutlined,
  FullscreenOutlined,
  FontSizeOutlined,
  GlobalOutlined,
  MenuFoldOutlined,
  MenuUnfoldOutlined,
  SettingOutlined,
  UserOutlined,
} from '@ant-design/icons';
import { Link, useLocation, useNavigate } from 'react-router';
import { useSnapshot } from 'valtio';
import { http } from '../api/http';
import { notify } from '../feedback/feedback';
import { layout, setSidebar, setSize, UI_SIZES, type UiSize } from '../preferences/layout';
import { resetSession } from '../session/pageEntry';
import { userState } from '../auth/user';
import { i18n, setLocale, useT } from '../i18n';
import { findRoute, routeState } from '../permissions/routes';
import { HeaderSearch } from './HeaderSearch';
import { resetTags } from './tags/tagsStore';

// Loaded when first opened: most sessions never open them.
const ChangePasswordDialog = lazy(() => import('./ChangePasswordDialog'));
const SettingsDrawer = lazy(() => import('./SettingsDrawer'));

function useFullscreen() {
  const t = useT();
  const [on, setOn] = useState(Boolean(document.fullscreenElement));
  const toggle = async () => {
    if (!document.fullscreenEnabled) {
      notify.warning(t('shell.fullscreenUnsupported'));
      return;
    }
    if (document.fullscreenElement) await document.exitFullscreen();
    else await document.documentElement.requestFullscreen();
    setOn(Boolean(document.fullscreenElement));
  };
  return { on, toggle };
}

/** Breadcrumb rooted at the dashboard (spec 2.3). */
function Crumbs() {
  const { pathname } = useLocation();
  const { routes } = useSnapshot(routeState);
  const { locale } = useSnapshot(i18n);
  const t = useT();
  const entry = findRoute(routes as typeof routeState.routes, pathname);
  const chain = entry && entry.fullPath !== '/dashboard' ? entry.chain : [];
  return (
    <Breadcrumb
      className="app-breadcrumb"
      items={[
        { title: <Link to="/dashboard">{t('dashboard.title')}</Link> },
        ...chain.map((meta) => ({ title: meta.title[locale] })),
      ]}
    />
  );
}

export function Navbar() {
  const t = useT();
  const navigate = useNavigate();
  const { sidebarOpened, device, size } = useSnapshot(layout);
  const { info, passwordFlag } = useSnapshot(userState);
  const [passwordOpen, setPasswordOpen] = useState(false);
  const [settingsOpen, setSettingsOpen] = useState(false);
  const fullscreen = useFullscreen();
  const forced = passwordFlag === 1;

  const logout = async () => {
    await http.get('/api/user/logOut').catch(() => undefined);
    resetSession();
    resetTags();
    navigate('/login', { replace: true });
  };

  return (
    <div className="navbar">
      <Button
        type="text"
        className="hamburger"
        aria-label={t('shell.toggleSidebar')}
        icon={sidebarOpened ? <MenuFoldOutlined /> : <MenuUnfoldOutlined />}
        onClick={() => setSidebar(!sidebarOpened, device === 'desktop')}
      />
      <Crumbs />
      <div className="navbar-right">
        <HeaderSearch />
        {device !== 'mobile' && (
          <Tooltip title={t('shell.fullscreen')}>
            <Button
              type="text"
              aria-label={t('shell.fullscreen')}
              icon={fullscreen.on ? <FullscreenExitOutlined /> : <FullscreenOutlined />}
              onClick={() => void fullscreen.toggle()}
            />
          </Tooltip>
        )}
        <Dropdown
          trigger={['click']}
          menu={{
            selectable: true,
            selectedKeys: [size],
            items: UI_SIZES.map((key) => ({ key, label: t(`size.${key}`) })),
            onClick: ({ key }) => setSize(key as UiSize),
          }}
        >
          <Button type="text" aria-label={t('shell.size')} icon={<FontSizeOutlined />} />
        </Dropdown>
        <Tooltip title={t('common.language')}>
          <Button
            type="text"
            aria-label="language"
            icon={<GlobalOutlined />}
            onClick={() => setLocale(i18n.locale === 'zh-CN' ? 'en-US' : 'zh-CN')}
          />
        </Tooltip>
        <Button
          type="text"
          aria-label={t('shell.settings')}
          icon={<SettingOutlined />}
          onClick={() => setSettingsOpen(true)}
        />
        <Dropdown
          trigger={['click']}
          menu={{
            items: [
              { key: 'profile', label: t('shell.profile') },
              { key: 'password', label: t('shell.changePassword') },
              { type: 'divider' },
              { key: 'logout', label: t('common.logout') },
            ],
            onClick: ({ key }) => {
              if (key === 'profile') navigate('/profile');
              if (key === 'password') setPasswordOpen(true);
              if (key === 'logout') void logout();
            },
          }}
        >
          <Button
            type="text"
            className="user-menu"
            // The accessible name holds the visible name (WCAG 2.5.3), so speech input can say it too.
            aria-label={`${info?.user.userName ?? ''} user-menu`.trim()}
          >
            <Avatar size="small" icon={<UserOutlined />} src={info?.user.avatar ?? undefined} />
            <span className="user-name">{info?.user.userName}</span>
          </Button>
        </Dropdown>
      </div>
      <Suspense>
        {(passwordOpen || forced) && (
          <ChangePasswordDialog open={passwordOpen || forced} forced={forced} onClose={() => setPasswordOpen(false)} />
        )}
        {settingsOpen && <SettingsDrawer open={settingsOpen} onClose={() => setSettingsOpen(false)} />}
      </Suspense>
    </div>
  );
}
