import { useCallback, useEffect, useMemo, useState } from 'react';
import type { ScreenSchema } from '../../shared/screens/fields';
import { sortableFields } from '../../shared/screens/fields';
import { matches } from '../../shared/screens/predicate';
import { dataProvider, type ListParams, type ScreenRecord } from './dataProvider';

/**
 * Headless controllers of a screen (react-admin's split): each holds one concern's state and knows no
 * antd; the views in this folder only render them.
 */
/** A tree list (list.tree) is read whole: its rows nest under parents that another page would cut off. */
const TREE_SIZE = 1000;

export function useListController(screen: ScreenSchema, defaultPageSize: number, basic = false) {
  const [params, setParams] = useState<ListParams>(() => ({
    page: 1,
    size: screen.list?.tree ? TREE_SIZE : defaultPageSize,
    sort: screen.list?.defaultSort,
    filters: {},
    ...(basic && { basic }),
  }));
  const [version, setVersion] = useState(0);
  // A new version of the schema (its file changed) keeps the query where its fields still exist.
  const [seen, setSeen] = useState(screen);
  if (seen !== screen) {
    setSeen(screen);
    const next = keepQuery(screen, params);
    if (next !== params) setParams(next);
  }
  // Each answer remembers the query it answers: loading is "the last answer is for another query".
  const key = `${JSON.stringify(params)}#${version}`;
  // `more`: the server stopped counting at `total` (LIMS_LIST_COUNT_CAP); there are more rows than that.
  const [answer, setAnswer] = useState<{
    key: string;
    records: ScreenRecord[];
    total: number;
    more?: boolean;
    error?: unknown;
  }>({
    key: '',
    records: [],
    total: 0,
  });

  useEffect(() => {
    let current = true;
    dataProvider.getList(screen, params).then(
      (result) => current && setAnswer({ key, ...result }),
      (error: unknown) => current && setAnswer((prev) => ({ ...prev, key, error })),
    );
    return () => {
      current = false;
    };
  }, [screen, params, key]);

  const data = { records: answer.records, total: answer.total, more: answer.more === true };
  const loading = answer.key !== key;
  const error = answer.key === key ? answer.error : undefined;

  return {
    params,
    ...data,
    loading,
    error,
    reload: useCallback(() => setVersion((v) => v + 1), []),
    setFilters: useCallback((filters: Record<string, unknown>) => setParams((p) => ({ ...p, page: 1, filters })), []),
    setPage: useCallback((page: number, size: number) => setParams((p) => ({ ...p, page, size })), []),
    setSort: useCallback((sort: ListParams['sort']) => setParams((p) => ({ ...p, sort })), []),
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

export function useSelection(screen: ScreenSchema, records: ScreenRecord[]) {
  const [keys, setKeys] = useState<number[]>([]);
  const present = useMemo(() => new Set(records.map((r) => r.id)), [records]);
  const selected = useMemo(() => keys.filter((k) => present.has(k)), [keys, present]);
  const selectable = useCallback((record: ScreenRecord) => matches(screen.list?.selectableWhen, record), [screen]);
  return { selected, setSelected: setKeys, clear: useCallback(() => setKeys([]), []), selectable };
}

export type DialogMode = 'create' | 'edit' | 'view';

export function useRecordDialog() {
  const [state, setState] = useState<{ mode: DialogMode; record?: ScreenRecord } | undefined>();
  return {
    state,
    open: useCallback((mode: DialogMode, record?: ScreenRecord) => setState({ mode, record }), []),
    close: useCallback(() => setState(undefined), []),
  };
}
