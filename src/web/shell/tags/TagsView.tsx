import { useState } from 'react';
import { Dropdown } from 'antd';
import { CloseOutlined } from '@ant-design/icons';
import { useLocation, useNavigate } from 'react-router';
import { useSnapshot } from 'valtio';
import { i18n, useT } from '../../i18n';
import { closeAll, closeOthers, closeView, refreshView, tags } from './tagsStore';

/**
 * Spec 2.3: the tab bar of visited pages. Right-click: Refresh, Close, Close Others, Close All; a
 * middle click closes; affix tabs never close; closing the active tab shows the last one left.
 */
export function TagsView() {
  const t = useT();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const { visited } = useSnapshot(tags);
  const { locale } = useSnapshot(i18n);
  const [menuFor, setMenuFor] = useState<string>();

  const close = (path: string) => {
    const next = closeView(path);
    if (path === pathname) navigate(next ?? '/dashboard');
  };

  const onMenu = (key: string, path: string) => {
    if (key === 'refresh') refreshView(path);
    if (key === 'close') close(path);
    if (key === 'closeOthers') {
      closeOthers(path);
      if (path !== pathname) navigate(path);
    }
    if (key === 'closeAll') navigate(closeAll() ?? '/dashboard');
  };

  return (
    // A tab list to assistive technology (axe: a tab needs one); the open tabs are reached with Tab and
    // opened with Enter or Space, as a click would.
    <nav className="tags-view" aria-label="tags-view" role="tablist">
      {visited.map((view) => (
        <Dropdown
          key={view.path}
          trigger={['contextMenu']}
          open={menuFor === view.path}
          onOpenChange={(open) => setMenuFor(open ? view.path : undefined)}
          menu={{
            className: 'tags-context-menu',
            style: { width: 105 },
            items: [
              { key: 'refresh', label: t('tags.refresh') },
              { key: 'close', label: t('tags.close'), disabled: view.affix },
              { key: 'closeOthers', label: t('tags.closeOthers') },
              { key: 'closeAll', label: t('tags.closeAll') },
            ],
            onClick: ({ key }) => {
              setMenuFor(undefined);
              onMenu(key, view.path);
            },
          }}
        >
          <span
            role="tab"
            aria-selected={view.path === pathname}
            className={`tags-view-item${view.path === pathname ? ' active' : ''}`}
            data-path={view.path}
            tabIndex={0}
            onClick={() => navigate(view.path)}
            onKeyDown={(e) => {
              if (e.key !== 'Enter' && e.key !== ' ') return;
              e.preventDefault();
              navigate(view.path);
            }}
            onMouseUp={(e) => {
              if (e.button === 1 && !view.affix) close(view.path);
            }}
          >
            {view.title[locale]}
            {!view.affix && (
              <CloseOutlined
                className="tags-view-close"
                aria-label={t('tags.close')}
                onClick={(e) => {
                  e.stopPropagation();
                  close(view.path);
                }}
              />
            )}
          </span>
        </Dropdown>
      ))}
    </nav>
  );
}
