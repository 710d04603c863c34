import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, renderHook, waitFor } from '@testing-library/react';
import { messages, shown, WithFeedback } from '../../testing/feedback';
import { refusal } from '../../testing/refusal';
import { useSave } from './useSave';

function setup() {
  const onSaved = vi.fn();
  const hook = renderHook(() => useSave<{ mode: 'create' | 'edit' }>(onSaved), { wrapper: WithFeedback });
  act(() => hook.result.current.open({ mode: 'create' }));
  return { ...hook, onSaved };
}

afterEach(() => cleanup());

describe('saving from a dialog', () => {
  it('waits while the write runs; success says so, closes the dialog and reloads', async () => {
    const { result, onSaved } = setup();
    let finish!: (text: string) => void;
    let saving!: Promise<void>;
    act(() => {
      saving = result.current.save(() => new Promise((resolve) => (finish = resolve)), '保存失败');
    });
    expect(result.current.saving).toBe(true);
    expect(result.current.dialog).toEqual({ mode: 'create' });

    await act(async () => {
      finish('新增成功');
      await saving;
    });
    await shown('新增成功');
    expect(result.current.saving).toBe(false);
    expect(result.current.dialog).toBeUndefined();
    expect(onSaved).toHaveBeenCalledOnce();
  });

  it("keeps the dialog open on a refusal, with the server's field errors and its words", async () => {
    const { result, onSaved } = setup();
    const errors = [{ field: 'code', message: '编码不能为空' }];
    await act(() => result.current.save(() => Promise.reject(refusal(400, '编码不能为空', { errors })), '保存失败'));
    await shown('编码不能为空');
    expect(result.current.dialog).toEqual({ mode: 'create' });
    expect(result.current.errors).toEqual(errors);
    expect(onSaved).not.toHaveBeenCalled();
    expect(messages()).not.toContain('新增成功');
  });

  it('shows its own failure word when the server gives no reason, and forgets the errors on close', async () => {
    const { result } = setup();
    await act(() => result.current.save(() => Promise.reject(new Error('network')), '保存失败'));
    await shown('保存失败');
    act(() => result.current.close());
    await waitFor(() => expect(result.current.dialog).toBeUndefined());
    expect(result.current.errors).toEqual([]);
  });
});
