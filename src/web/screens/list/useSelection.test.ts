import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, renderHook } from '@testing-library/react';
import { useSelection } from './useSelection';

const rows = (...ids: string[]) => ids.map((id) => ({ id, name: `流程${id}` }));

afterEach(() => cleanup());

describe('the selection of a list', () => {
  it('holds the ticked rows, by id and as rows in list order', () => {
    const { result } = renderHook(() => useSelection(rows('a', 'b', 'c')));
    act(() => result.current.setSelected(['c', 'a']));
    expect(result.current.selected).toEqual(['c', 'a']);
    expect(result.current.chosen.map((r) => r.id)).toEqual(['a', 'c']);
  });

  it('lets a row that leaves the list (deleted, filtered away) leave the selection', () => {
    const { result, rerender } = renderHook(({ list }) => useSelection(list), {
      initialProps: { list: rows('a', 'b') },
    });
    act(() => result.current.setSelected(['a', 'b']));
    rerender({ list: rows('b') });
    expect(result.current.selected).toEqual(['b']);
    expect(result.current.chosen).toEqual(rows('b'));
  });

  it('empties on clear', () => {
    const { result } = renderHook(() => useSelection(rows('a', 'b')));
    act(() => result.current.setSelected(['a']));
    act(() => result.current.clear());
    expect(result.current.selected).toEqual([]);
  });
});
