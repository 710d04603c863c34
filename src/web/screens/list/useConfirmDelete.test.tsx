import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, renderHook, waitFor } from '@testing-library/react';
import { box, messages, press, shown, WithFeedback } from '../../testing/feedback';
import { refusal } from '../../testing/refusal';
import { useConfirmDelete, type DeleteTexts } from './useConfirmDelete';
import { useSelection } from './useSelection';

const texts: DeleteTexts = {
  title: '警告',
  content: '此操作将永久删除该数据, 是否继续?',
  ok: '确定',
  cancel: '取消',
  done: '删除成功',
  cancelled: '已取消删除',
  failed: '删除失败',
};
const rows = [1, 2, 3].map((id) => ({ id }));

/** A list with a selection and a delete, as a page holds them. */
function setup(remove: (ids: number[]) => Promise<unknown>) {
  const reload = vi.fn();
  const hook = renderHook(
    () => {
      const selection = useSelection(rows);
      return { selection, confirmDelete: useConfirmDelete({ remove, texts, selection, reload }) };
    },
    { wrapper: WithFeedback },
  );
  act(() => hook.result.current.selection.setSelected([1, 3]));
  return { ...hook, reload };
}

afterEach(() => cleanup());

describe('confirm-delete', () => {
  it('asks first; once confirmed it deletes the selected ids, says so, clears the selection and reloads', async () => {
    const remove = vi.fn(() => Promise.resolve());
    const { result, reload } = setup(remove);
    act(() => void result.current.confirmDelete(result.current.selection.selected));
    const warning = await box(texts.content);
    expect(warning.textContent).toContain('警告');
    expect(remove).not.toHaveBeenCalled();

    press(warning, '确定');
    await shown('删除成功');
    expect(remove).toHaveBeenCalledWith([1, 3]);
    await waitFor(() => expect(result.current.selection.selected).toEqual([]));
    expect(reload).toHaveBeenCalledOnce();
  });

  it('deletes nothing when cancelled, and says so', async () => {
    const remove = vi.fn(() => Promise.resolve());
    const { result, reload } = setup(remove);
    act(() => void result.current.confirmDelete([2]));
    press(await box(texts.content), '取消');
    await shown('已取消删除');
    expect(remove).not.toHaveBeenCalled();
    expect(reload).not.toHaveBeenCalled();
    expect(result.current.selection.selected).toEqual([1, 3]);
  });

  it("keeps the selection and shows the server's reason when the delete is refused", async () => {
    const { result, reload } = setup(() => Promise.reject(refusal(500, '该数据已被引用，不能删除')));
    act(() => void result.current.confirmDelete(result.current.selection.selected));
    press(await box(texts.content), '确定');
    await shown('该数据已被引用，不能删除');
    expect(messages()).not.toContain('删除成功');
    expect(result.current.selection.selected).toEqual([1, 3]);
    expect(reload).not.toHaveBeenCalled();
  });
});
