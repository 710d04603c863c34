import { afterEach, describe, expect, it, vi } from 'vitest';
import { AlertRuns, RING_GAP_MS, SHOWN_MESSAGES, SHOWN_MS } from '../../src/web/push/alertRuns';

const task = (message: string) => ({ type: 'info' as const, title: '新任务', message });

describe('pushed alerts gathered into runs', () => {
  it('gathers a desk’s run of alerts into one notice, counting them, the latest messages first', () => {
    const runs = new AlertRuns();
    const shown = [1, 2, 3, 4, 5].map((n) => runs.add(task(`标本接收 · 000${n}`), n * 100));
    expect(shown.map((r) => r.opened)).toEqual([true, false, false, false, false]);
    expect(new Set(shown.map((r) => r.key)).size).toBe(1);
    const last = shown[4]!;
    expect(last.count).toBe(5);
    expect(last.latest).toEqual(['标本接收 · 0005', '标本接收 · 0004', '标本接收 · 0003']);
    expect(last.latest).toHaveLength(SHOWN_MESSAGES);
  });

  it('rings when a notice opens, and as its run grows no more than once every few seconds', () => {
    const runs = new AlertRuns();
    expect(runs.add(task('a'), 0).ring).toBe(true);
    expect(runs.add(task('b'), 1_000).ring).toBe(false);
    expect(runs.add(task('c'), RING_GAP_MS).ring).toBe(true);
    // Another title is another notice, and opening it rings whatever rang just before.
    const qc = runs.add({ type: 'warning', title: '质控失控', message: '血糖 L1' }, RING_GAP_MS + 10);
    expect(qc).toMatchObject({ opened: true, ring: true, count: 1 });
  });

  it('starts a new run once the run’s notice has closed', () => {
    const runs = new AlertRuns();
    const first = runs.add(task('a'), 0);
    runs.add(task('b'), 10);
    runs.closed(first.key);
    expect(runs.add(task('c'), 20)).toMatchObject({ opened: true, count: 1, latest: ['c'] });
  });

  describe('a run’s notice', () => {
    afterEach(() => {
      vi.useRealTimers();
    });

    it('shows until 30 s after its latest alert, then goes, and the next alert opens a new one', () => {
      vi.useFakeTimers();
      const gone: string[] = [];
      const runs = new AlertRuns((key) => gone.push(key));
      const first = runs.add(task('a'), 0);
      vi.advanceTimersByTime(SHOWN_MS - 1_000);
      runs.add(task('b'), SHOWN_MS - 1_000);
      // 30 s after the first alert the run goes on: its notice stays.
      vi.advanceTimersByTime(2_000);
      expect(gone).toEqual([]);
      vi.advanceTimersByTime(SHOWN_MS);
      expect(gone).toEqual([first.key]);
      expect(runs.add(task('c'), 2 * SHOWN_MS + 10)).toMatchObject({ opened: true, count: 1 });
    });
  });
});
