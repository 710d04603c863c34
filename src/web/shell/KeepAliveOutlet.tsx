import { Activity, createContext, useContext, useRef, type ReactNode } from 'react';
import { useLocation, useOutlet } from 'react-router';
import { useSnapshot } from 'valtio';
import { tags } from './tags/tagsStore';

/** The path a kept-alive view was opened at; it keeps it while hidden, whatever the address bar says. */
const ViewPath = createContext<string | undefined>(undefined);

export function useViewPath(): string {
  const { pathname } = useLocation();
  return useContext(ViewPath) ?? pathname;
}

/**
 * Views stay alive while their tab is open (spec 2.3): hidden with React's <Activity>, so a filter
 * typed or a page scrolled is still there when the user comes back. noCache views are built anew each time.
 */
/* eslint-disable react-hooks/refs -- the cache of rendered views must be read and kept during render:
   it is what is rendered, and keeping it in state would render every switch twice. */
export function KeepAliveOutlet({ noCache }: { noCache: boolean }) {
  const outlet = useOutlet();
  const { pathname } = useLocation();
  const { visited, refreshes } = useSnapshot(tags);
  const cache = useRef(new Map<string, ReactNode>());

  const open = new Set(visited.map((v) => v.path));
  for (const key of cache.current.keys()) if (!open.has(key) && key !== pathname) cache.current.delete(key);
  if (noCache) cache.current.delete(pathname);
  else if (!cache.current.has(pathname)) cache.current.set(pathname, outlet);

  return (
    <>
      {[...cache.current].map(([path, element]) => (
        <Activity key={`${path}#${refreshes[path] ?? 0}`} mode={path === pathname ? 'visible' : 'hidden'}>
          <ViewPath.Provider value={path}>{element}</ViewPath.Provider>
        </Activity>
      ))}
      {noCache && (
        <ViewPath.Provider key={`${pathname}#${refreshes[pathname] ?? 0}`} value={pathname}>
          {outlet}
        </ViewPath.Provider>
      )}
    </>
  );
}
/* eslint-enable react-hooks/refs */
