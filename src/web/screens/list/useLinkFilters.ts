import { useState } from 'react';
import { useLocation } from 'react-router';
import type { ScreenSchema } from '../../../shared/screens/fields';
import { linkFilters } from './linkFilters';

/**
 * The filters the page's address asks for (linkFilters), read when the page opens and again when a link
 * brings the open page another query. A page kept open in its tab hears the address of whichever page
 * shows, so it reads only addresses of its own path.
 */
export function useLinkFilters(screen: ScreenSchema): Record<string, unknown> {
  const { pathname, search } = useLocation();
  const [home] = useState(pathname);
  const mine = pathname === home ? search : undefined;
  const [seen, setSeen] = useState(mine ?? '');
  const [filters, setFilters] = useState(() => linkFilters(screen, mine ?? ''));
  // Adjusted while rendering (not in an effect), so the list never asks the old query first.
  if (mine !== undefined && mine !== seen) {
    setSeen(mine);
    setFilters(linkFilters(screen, mine));
  }
  return filters;
}
