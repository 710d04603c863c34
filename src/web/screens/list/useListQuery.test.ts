import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, renderHook, waitFor } from '@testing-library/react';
import { useListQuery, type ListAnswer } from './useListQuery';

interface Query {
  status?: string;
  page: number;
  size: number;
}
type Row = { id: number };

/** A server the test answers by hand, one call at a time. */
function server() {
  const calls: { query: Query; answer: (a: ListAnswer<Row>) => void; fail: (e: unknown) => void }[] = [];
  const load = vi.fn(
    (query: Query) =>
      new Promise<ListAnswer<Row>>((answer, fail) => {
        calls.push({ query, answer, fail });
      }),
  );
  return { load, calls, last: () => calls[calls.length - 1]! };
}

const rows = (...ids: number[]) => ids.map((id) => ({ id }));

afterEach(() => cleanup());

describe('the paging and query of a list', () => {
  it('shows loading until the first page comes, then its rows and total', async () => {
    const { load, last } = server();
    const { result } = renderHook(() => useListQuery({ initial: { page: 1, size: 2 }, load }));
    expect(result.current.loading).toBe(true);
    expect(last().query).toEqual({ page: 1, size: 2 });

    await act(async () => last().answer({ records: rows(1, 2), total: 5 }));
    await waitFor(() => expect(result.current.loading).toBe(false));
    expect(result.current.records).toEqual(rows(1, 2));
    expect(result.current.total).toBe(5);
  });

  it('turns pages, and goes back to the first page when the user filters', () => {
    const { load, last } = server();
    const { result } = renderHook(() => useListQuery<Query, Row>({ initial: { page: 1, size: 2 }, load }));
    act(() => result.current.setPage(3, 50));
    expect(last().query).toEqual({ page: 3, size: 50 });
    act(() => result.current.refine({ status: 'running' }));
    expect(last().query).toEqual({ page: 1, size: 50, status: 'running' });
  });

  it('asks the same query again on reload, showing loading meanwhile', async () => {
    const { load, last } = server();
    const { result } = renderHook(() => useListQuery({ initial: { page: 1, size: 2 }, load }));
    await act(async () => last().answer({ records: rows(1, 2), total: 2 }));
    await waitFor(() => expect(result.current.loading).toBe(false));

    act(() => result.current.reload());
    expect(load).toHaveBeenCalledTimes(2);
    expect(result.current.loading).toBe(true);
    expect(result.current.records).toEqual(rows(1, 2));
    await act(async () => last().answer({ records: rows(2), total: 1 }));
    await waitFor(() => expect(result.current.records).toEqual(rows(2)));
  });

  it('keeps the rows shown when a call fails, with its error, until an answer comes', async () => {
    const s = server();
    const { result } = renderHook(() => useListQuery({ initial: { page: 1, size: 2 }, load: s.load }));
    await act(async () => s.last().answer({ records: rows(1), total: 1 }));
    act(() => result.current.reload());
    const failure = new Error('查询失败');
    await act(async () => s.last().fail(failure));
    await waitFor(() => expect(result.current.error).toBe(failure));
    expect(result.current.records).toEqual(rows(1));
    expect(result.current.loading).toBe(false);

    act(() => result.current.reload());
    await act(async () => s.last().answer({ records: rows(1, 2), total: 2 }));
    await waitFor(() => expect(result.current.records).toEqual(rows(1, 2)));
    expect(result.current.error).toBeUndefined();
  });

  it('drops an answer that comes after the user asked something else', async () => {
    const { load, calls } = server();
    const { result } = renderHook(() => useListQuery<Query, Row>({ initial: { page: 1, size: 2 }, load }));
    act(() => result.current.setPage(2));
    await act(async () => calls[1]!.answer({ records: rows(3, 4), total: 4 }));
    await act(async () => calls[0]!.answer({ records: rows(1, 2), total: 4 }));
    await waitFor(() => expect(result.current.loading).toBe(false));
    expect(result.current.records).toEqual(rows(3, 4));
  });

  it('asks nothing while there is nothing to ask yet (the page still waits)', () => {
    const load = vi.fn(() => undefined);
    const { result } = renderHook(() => useListQuery<Query, Row>({ initial: { page: 1, size: 2 }, load }));
    expect(load).toHaveBeenCalledOnce();
    expect(result.current.loading).toBe(true);
    expect(result.current.records).toEqual([]);
  });
});
