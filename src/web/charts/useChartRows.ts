import { useEffect, useState } from 'react';
import type { ScreenSchema } from '../../shared/screens/fields';
import type { ListController } from '../screens/list/useListController';
import { dataProvider, type ScreenRecord } from '../screens/dataProvider';

/** The most rows one list call answers; a chart of more says so and asks for a narrower query. */
export const CHART_ROWS = 1000;

export interface ChartRows {
  records: ScreenRecord[];
  total: number;
  error?: unknown;
}

/**
 * Rows for the chart, from the table's query so that its filters and order apply to both: the table's
 * own rows when its page holds them all (the usual statistics case, no second call), else the same
 * query's first CHART_ROWS rows, asked again each time the table answers.
 */
export function useChartRows(screen: ScreenSchema, list: ListController): ChartRows {
  const complete = list.params.page === 1 && list.records.length >= list.total;
  const wanted = !complete && !list.loading && list.error === undefined;
  const [fetched, setFetched] = useState<ChartRows>({ records: [], total: 0 });
  const { records: basis, params } = list;
  useEffect(() => {
    if (!wanted) return;
    let current = true;
    dataProvider.getList(screen, { ...params, page: 1, size: CHART_ROWS }).then(
      (answer) => current && setFetched(answer),
      (error: unknown) => current && setFetched({ records: [], total: 0, error }),
    );
    return () => {
      current = false;
    };
    // basis: a new table answer (also a reload after a write) asks again.
  }, [wanted, screen, params, basis]);
  return complete ? { records: list.records, total: list.total } : fetched;
}
