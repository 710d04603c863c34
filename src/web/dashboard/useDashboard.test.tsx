import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, renderHook, waitFor } from '@testing-library/react';
import { PUSH_TOPIC_EVENT } from '../push/pushChannel';
import type { Dashboard } from '../../shared/dashboard/types';
import { useDashboard } from './useDashboard';

const words = (zh: string, en: string) => ({ 'zh-CN': zh, 'en-US': en });
const withCount = (count: number): Dashboard => ({
  day: '2026-11-26',
  sections: [
    {
      key: 'specimens',
      title: words('今日标本', "Today's specimens"),
      order: 10,
      tiles: [{ key: 'specimens.entered', label: words('今日录入', 'Entered today'), count, tone: 'normal' }],
    },
  ],
});
const entered = (d: Dashboard | undefined) => d?.sections[0]?.tiles[0]?.count;
const news = (detail: object) => act(() => void window.dispatchEvent(new CustomEvent(PUSH_TOPIC_EVENT, { detail })));

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('useDashboard', () => {
  it("reads the counts, and reads them again when the push channel says the lab's counts changed", async () => {
    const load = vi.fn().mockResolvedValueOnce(withCount(3)).mockResolvedValueOnce(withCount(4));
    const { result } = renderHook(() => useDashboard(1, load));
    await waitFor(() => expect(entered(result.current.dashboard)).toBe(3));
    news({ topic: 'dashboard', orgId: 1 });
    await waitFor(() => expect(entered(result.current.dashboard)).toBe(4));
    expect(load).toHaveBeenCalledTimes(2);
  });

  it("ignores another lab's news and other topics, and reads a burst of news once", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const load = vi.fn().mockResolvedValue(withCount(1));
    const { result } = renderHook(() => useDashboard(1, load));
    await waitFor(() => expect(result.current.loading).toBe(false));
    news({ topic: 'dashboard', orgId: 2 });
    news({ topic: 'screens', ids: ['front-entry'] });
    news({ topic: 'dashboard', orgId: 1 });
    news({ topic: 'dashboard', orgId: 1 });
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('keeps the last counts when a read fails, and tells the page', async () => {
    const load = vi.fn().mockResolvedValueOnce(withCount(5)).mockRejectedValueOnce(new Error('offline'));
    const { result } = renderHook(() => useDashboard(1, load));
    await waitFor(() => expect(entered(result.current.dashboard)).toBe(5));
    await act(() => result.current.reload());
    expect(result.current.error).toBeInstanceOf(Error);
    expect(entered(result.current.dashboard)).toBe(5);
  });

  it('shows counts read at sign-in from its first render: no loading state, and no second render for the same answer', async () => {
    const atSignIn = withCount(7);
    const load = vi.fn().mockResolvedValue(atSignIn);
    let renders = 0;
    const { result } = renderHook(() => {
      renders += 1;
      return useDashboard(1, load, () => atSignIn);
    });
    expect(result.current.loading).toBe(false);
    expect(entered(result.current.dashboard)).toBe(7);
    await waitFor(() => expect(load).toHaveBeenCalledTimes(1));
    await act(() => Promise.resolve());
    expect(renders).toBe(1);
  });
});
