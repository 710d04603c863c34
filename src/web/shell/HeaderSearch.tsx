import { useEffect, useMemo, useState } from 'react';
import { Dropdown } from 'antd';
import { SearchOutlined } from '@ant-design/icons';
import type FuseType from 'fuse.js';
import { useNavigate } from 'react-router';
import { useSnapshot } from 'valtio';
import { layout } from '../preferences/layout';
import { i18n, useT } from '../i18n';
import { flattenRoutes, routeState } from '../permissions/routes';

/** Spec 2.3 / 9: fuzzy match over visible titled pages; title weighs 0.7, path 0.3; threshold 0.4; 32 characters. */
const MAX_PATTERN = 32;
const FUSE_OPTIONS = {
  keys: [
    { name: 'title', weight: 0.7 },
    { name: 'path', weight: 0.3 },
  ],
  threshold: 0.4,
  shouldSort: true,
  ignoreLocation: true,
};

interface SearchItem {
  path: string;
  title: string;
  label: string;
}

/** fuse.js, fetched the first time someone turns to the search box rather than with the shell. */
function useFuse(wanted: boolean) {
  const [Fuse, setFuse] = useState<typeof FuseType>();
  useEffect(() => {
    if (wanted && !Fuse) void import('fuse.js').then((m) => setFuse(() => m.default));
  }, [wanted, Fuse]);
  return Fuse;
}

/** The visible titled pages of the user, labelled by breadcrumb path so two pages of one name differ. */
function useSearchItems(): SearchItem[] {
  const { routes } = useSnapshot(routeState);
  const { locale } = useSnapshot(i18n);
  return useMemo(
    () =>
      flattenRoutes(routes as typeof routeState.routes)
        .filter((r) => r.isLeaf && !r.meta.hidden && r.meta.title)
        .map((r) => ({
          path: r.fullPath,
          title: r.meta.title[locale],
          label: r.chain.map((m) => m.title[locale]).join(' > '),
        })),
    [routes, locale],
  );
}

/**
 * Spec 2.3 header search: a box whose matches drop down below it; arrows move through them, Enter opens
 * the highlighted one (the best match first). A plain input and the shell's own dropdown menu rather
 * than a select, which would bring its virtual list into every session for a box most never use.
 */
export function HeaderSearch() {
  const t = useT();
  const navigate = useNavigate();
  const { size } = useSnapshot(layout);
  const [query, setQuery] = useState('');
  const [focused, setFocused] = useState(false);
  const [active, setActive] = useState(0);
  const Fuse = useFuse(focused);
  const items = useSearchItems();
  const fuse = useMemo(() => Fuse && new Fuse(items, FUSE_OPTIONS), [Fuse, items]);
  const results = query && fuse ? fuse.search(query.slice(0, MAX_PATTERN), { limit: 20 }).map((r) => r.item) : [];
  const current = results[Math.min(active, results.length - 1)];

  const open = (path: string) => {
    setQuery('');
    navigate(path);
  };
  const onKeyDown = (e: React.KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      const step = e.key === 'ArrowDown' ? 1 : -1;
      setActive((i) => (Math.min(i, results.length - 1) + step + results.length) % Math.max(results.length, 1));
    } else if (e.key === 'Enter' && current) open(current.path);
    else if (e.key === 'Escape') setQuery('');
  };

  return (
    <Dropdown
      open={focused && results.length > 0}
      rootClassName="header-search-dropdown"
      menu={{
        items: results.map((r) => ({ key: r.path, label: r.label })),
        selectedKeys: current ? [current.path] : [],
        onClick: ({ key }) => open(key),
      }}
      // Choosing with the mouse must not take the focus from the box first, which would close the list.
      popupRender={(menu) => <div onMouseDown={(e) => e.preventDefault()}>{menu}</div>}
    >
      <span className={`header-search size-${size}`}>
        <SearchOutlined />
        <input
          placeholder={t('shell.search')}
          aria-label={t('shell.search')}
          role="combobox"
          aria-expanded={focused && results.length > 0}
          value={query}
          onChange={(e) => {
            setQuery(e.target.value);
            setActive(0);
          }}
          onKeyDown={onKeyDown}
          onFocus={() => setFocused(true)}
          onBlur={() => setFocused(false)}
        />
      </span>
    </Dropdown>
  );
}
