import { useCallback, useState } from 'react';
import type { ScreenSchema } from '../../../shared/screens/fields';
import { sortableFields } from '../../../shared/screens/fields';
import { dataProvider, type ListParams, type ScreenRecord } from '../dataProvider';
import { useListQuery } from './useListQuery';

/** A tree list (list.tree) is read whole: its rows nest under parents that another page would cut off. */
const TREE_SIZE = 1000;

/**
 * A screen's list: the paging and query of `useListQuery` in the screen's terms (filters, sort, page
 * and size, the public-platform flag), read through the data provider. A new version of the schema
 * (its file changed) keeps the query where its fields still exist.
 */
export function useListController(
  screen: ScreenSchema,
  defaultPageSize: number,
  basic = false,
  /** Filters the list opens with (those a link in the address asks for). */
  initialFilters: Record<string, unknown> = {},
) {
  const load = useCallback((params: ListParams) => dataProvider.getList(screen, params), [screen]);
  const list = useListQuery<ListParams, ScreenRecord>({
    initial: () => ({
      page: 1,
      size: screen.list?.tree ? TREE_SIZE : defaultPageSize,
      sort: screen.list?.defaultSort,
      filters: initialFilters,
      ...(basic && { basic }),
    }),
    load,
  });
  const { query: params, setQuery, refine } = list;
  // Adjusted while rendering (not in an effect): the list never asks the old query under the new schema.
  const [seen, setSeen] = useState(screen);
  if (seen !== screen) {
    setSeen(screen);
    const next = keepQuery(screen, params);
    if (next !== params) setQuery(next);
  }

  return {
    params,
    records: list.records,
    total: list.total,
    more: list.more,
    loading: list.loading,
    error: list.error,
    reload: list.reload,
    setFilters: useCallback((filters: Record<string, unknown>) => refine({ filters }), [refine]),
    setPage: list.setPage,
    setSort: useCallback((sort: ListParams['sort']) => setQuery((p) => ({ ...p, sort })), [setQuery]),
  };
}

export type ListController = ReturnType<typeof useListController>;

/** The query of a list under a changed schema: filters of fields still offered, a sort still allowed, else the default. */
export function keepQuery(screen: ScreenSchema, params: ListParams): ListParams {
  const filterable = new Set(screen.filters ?? []);
  const sortable = new Set(sortableFields(screen));
  const filters = Object.fromEntries(Object.entries(params.filters).filter(([key]) => filterable.has(key)));
  const sortKept = !params.sort || sortable.has(params.sort.field);
  const sort = sortKept ? params.sort : screen.list?.defaultSort;
  const same = sortKept && Object.keys(filters).length === Object.keys(params.filters).length;
  return same ? params : { ...params, filters, sort };
}
