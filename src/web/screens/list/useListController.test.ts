import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { act, cleanup, renderHook, waitFor } from '@testing-library/react';
import { http as mock, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import type { ScreenSchema } from '../../../shared/screens/fields';
import { useListController } from './useListController';

const label = (zh: string) => ({ 'zh-CN': zh, 'en-US': zh });
const screen: ScreenSchema = {
  schemaVersion: 3,
  id: 'qc-result',
  title: label('质控结果'),
  resource: { name: 'qcResult' },
  fields: [
    { key: 'code', type: 'text', label: label('编号'), sortable: true },
    { key: 'status', type: 'text', label: label('状态') },
    { key: 'runAt', type: 'date', label: label('日期'), sortable: true },
  ],
  filters: ['code', 'status', 'runAt'],
  list: { defaultSort: { field: 'runAt', order: 'desc' } },
};

const asked: Record<string, string>[] = [];
const server = setupServer(
  mock.get('*/api/resources/qcResult', ({ request }) => {
    asked.push(Object.fromEntries(new URL(request.url).searchParams));
    return HttpResponse.json({
      resultCode: 200,
      resultMessage: 'ok',
      resultObject: { records: [{ id: 1, version: 1, code: 'QC1' }], total: 120 },
    });
  }),
);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  cleanup();
  asked.length = 0;
});
afterAll(() => server.close());

const last = () => asked[asked.length - 1];

describe("a screen's list", () => {
  it("opens on the schema's sort and the first page size, and shows the answer", async () => {
    const { result } = renderHook(() => useListController(screen, 50));
    await waitFor(() => expect(result.current.loading).toBe(false));
    expect(last()).toEqual({ page: '1', size: '50', sort: 'runAt,desc' });
    expect(result.current.records.map((r) => r.code)).toEqual(['QC1']);
    expect(result.current.total).toBe(120);
  });

  it('reads a tree list whole, and a public-platform route asks for the base rows', async () => {
    const tree = { ...screen, list: { tree: { parentField: 'parentId' } } };
    renderHook(() => useListController(tree, 50, true));
    await waitFor(() => expect(last()).toMatchObject({ size: '1000', basic: '1' }));
  });

  it('starts again at page 1 when the user filters; a date range goes as from and to', async () => {
    const { result } = renderHook(() => useListController(screen, 50));
    act(() => result.current.setPage(3, 100));
    await waitFor(() => expect(last()).toMatchObject({ page: '3', size: '100' }));
    act(() => result.current.setFilters({ code: 'QC', runAt: ['2026-01-01', '2026-01-31'] }));
    await waitFor(() =>
      expect(last()).toEqual({
        page: '1',
        size: '100',
        sort: 'runAt,desc',
        code: 'QC',
        runAtFrom: '2026-01-01',
        runAtTo: '2026-01-31',
      }),
    );
  });

  it('keeps the query under a new version of the schema where its fields still exist', async () => {
    const { result, rerender } = renderHook(({ s }) => useListController(s, 50), { initialProps: { s: screen } });
    act(() => result.current.setSort({ field: 'code', order: 'asc' }));
    act(() => result.current.setFilters({ code: 'QC', status: 'open' }));
    await waitFor(() => expect(last()).toMatchObject({ code: 'QC', status: 'open', sort: 'code,asc' }));

    const narrower: ScreenSchema = {
      ...screen,
      fields: screen.fields.map((f) => (f.key === 'code' ? { ...f, sortable: false } : f)),
      filters: ['code', 'runAt'],
    };
    rerender({ s: narrower });
    await waitFor(() => expect(last()).toEqual({ page: '1', size: '50', sort: 'runAt,desc', code: 'QC' }));
    expect(result.current.params.filters).toEqual({ code: 'QC' });
  });
});
