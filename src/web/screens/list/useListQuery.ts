import { useCallback, useEffect, useState } from 'react';

/** One answer of a list call: a page of rows, how many there are, and whether the count stopped short. */
export interface ListAnswer<R> {
  records: R[];
  total?: number;
  /** The server stopped counting at `total` (LIMS_LIST_COUNT_CAP): there are more rows than that. */
  more?: boolean;
}

export interface ListQueryOptions<Q, R> {
  /** The query the list opens with. */
  initial: Q | (() => Q);
  /**
   * Asks the server for the query's rows; undefined when there is nothing to ask yet. A new function
   * asks again, so keep it stable (useCallback) and let it change only when what it asks changes.
   */
  load: (query: Q) => Promise<ListAnswer<R>> | undefined;
}

/**
 * The paging and query of a list (react-admin's list controller, headless): the query the user set
 * up, the rows that answer it, whether they are still coming, and what went wrong. A failed call keeps
 * the rows last shown beside its error; the next answer clears it.
 */
export function useListQuery<Q extends object, R>({ initial, load }: ListQueryOptions<Q, R>) {
  const [query, setQuery] = useState<Q>(initial);
  const [version, setVersion] = useState(0);
  // Each answer remembers the query it answers: loading is "the last answer is for another query".
  const key = `${JSON.stringify(query)}#${version}`;
  const [answer, setAnswer] = useState<ListAnswer<R> & { key: string; error?: unknown }>({ key: '', records: [] });

  useEffect(() => {
    const asked = load(query);
    if (!asked) return;
    let current = true;
    asked.then(
      (result) => current && setAnswer({ key, ...result }),
      (error: unknown) => current && setAnswer((prev) => ({ ...prev, key, error })),
    );
    return () => {
      current = false;
    };
  }, [load, query, key]);

  return {
    query,
    setQuery,
    records: answer.records,
    total: answer.total ?? answer.records.length,
    more: answer.more === true,
    loading: answer.key !== key,
    error: answer.key === key ? answer.error : undefined,
    /** The same query asked again (after a change made on the page). */
    reload: useCallback(() => setVersion((v) => v + 1), []),
    /** A new filter, keyword or status: a paged list starts again at its first page. */
    refine: useCallback(
      (change: Partial<Q>) => setQuery((q) => ({ ...q, ...change, ...('page' in q && { page: 1 }) })),
      [],
    ),
    setPage: useCallback(
      (page: number, size?: number) => setQuery((q) => ({ ...q, page, ...(size !== undefined && { size }) })),
      [],
    ),
  };
}

export type ListQuery<Q extends object, R> = ReturnType<typeof useListQuery<Q, R>>;
