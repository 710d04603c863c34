import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, renderHook, waitFor } from '@testing-library/react';
import { http as mock, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { CHART_ROWS, useChartRows } from '../../src/web/charts/useChartRows';
import type { ListController } from '../../src/web/screens/list/useListController';
import type { ScreenRecord } from '../../src/web/screens/dataProvider';
import type { ScreenSchema } from '../../src/shared/screens/fields';

/** Where the chart's rows come from: the table's own page when it holds them all, else the same query asked for all rows. */
const screen: ScreenSchema = {
  schemaVersion: 2,
  id: 'qc-chart',
  title: { 'zh-CN': '质控图', 'en-US': 'QC charts' },
  resource: { name: 'statQcChart' },
  fields: [{ key: 'value', type: 'number', label: { 'zh-CN': '测定值', 'en-US': 'Value' } }],
  endpoints: { list: '/api/statistics/qcChart' },
  chart: { kind: 'leveyJennings', x: 'runAt', values: ['value'] },
};
const rows = (n: number): ScreenRecord[] =>
  Array.from({ length: n }, (_, i) => ({ id: i + 1, version: 1, value: 5 + i / 10 }));

const asked: URLSearchParams[] = [];
let failNext = false;
const server = setupServer(
  mock.get('*/api/statistics/qcChart', ({ request }) => {
    const query = new URL(request.url).searchParams;
    asked.push(query);
    if (failNext)
      return HttpResponse.json({ resultCode: 500, resultMessage: '查询失败', resultObject: null }, { status: 500 });
    return HttpResponse.json({
      resultCode: 200,
      resultMessage: 'ok',
      resultObject: { records: rows(query.get('plan') === '4' ? 5 : 3), total: 3 },
    });
  }),
);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  cleanup();
  asked.length = 0;
  failNext = false;
});
afterAll(() => server.close());

function listOf(over: Partial<ListController>): ListController {
  const noop = () => undefined;
  return {
    params: {
      page: 1,
      size: 2,
      sort: { field: 'runAt', order: 'asc' },
      filters: { plan: 3, runAt: ['2026-01-18', '2026-01-19 23:59:59'] },
    },
    records: rows(2),
    total: 2,
    more: false,
    loading: false,
    error: undefined,
    reload: noop,
    setFilters: noop,
    setPage: noop,
    setSort: noop,
    ...over,
  };
}

/** Lets pending answers arrive, so a test can tell that no call was made. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

describe('rows of a screen chart', () => {
  it('draws the table’s own rows when its page holds them all, without asking the server again', async () => {
    const list = listOf({});
    const { result } = renderHook(() => useChartRows(screen, list));
    await settle();
    expect(result.current.records).toBe(list.records);
    expect(asked).toHaveLength(0);
  });

  it('asks the table’s query (filters and order) for up to CHART_ROWS rows when the table shows one page of more', async () => {
    const list = listOf({ total: 3 });
    const { result } = renderHook(() => useChartRows(screen, list));
    await waitFor(() => expect(result.current.records).toHaveLength(3));
    expect(asked).toHaveLength(1);
    expect(Object.fromEntries(asked[0]!)).toEqual({
      page: '1',
      size: String(CHART_ROWS),
      sort: 'runAt,asc',
      plan: '3',
      runAtFrom: '2026-01-18',
      runAtTo: '2026-01-19 23:59:59',
    });
    expect(result.current.total).toBe(3);
  });

  it('asks again when the table answers a new query, and not while it is still loading', async () => {
    const first = listOf({ total: 3 });
    const { result, rerender } = renderHook(({ list }) => useChartRows(screen, list), {
      initialProps: { list: first },
    });
    await waitFor(() => expect(result.current.records).toHaveLength(3));
    const next = { ...first.params, filters: { plan: 4 } };
    rerender({ list: { ...first, params: next, loading: true } });
    await settle();
    expect(asked).toHaveLength(1);
    rerender({ list: { ...first, params: next, records: rows(2), loading: false } });
    await waitFor(() => expect(result.current.records).toHaveLength(5));
    expect(asked[1]!.get('plan')).toBe('4');
  });

  it('says when the chart’s own query failed, with no rows to draw', async () => {
    failNext = true;
    const list = listOf({ total: 3 });
    const { result } = renderHook(() => useChartRows(screen, list));
    await waitFor(() => expect(result.current.error).toBeDefined());
    expect(result.current.records).toEqual([]);
  });
});
