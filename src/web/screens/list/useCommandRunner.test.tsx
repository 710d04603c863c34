import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, renderHook, waitFor } from '@testing-library/react';
import type { ActionDef, ScreenSchema } from '../../../shared/screens/fields';
import { box, messages, press, shown, WithFeedback } from '../../testing/feedback';
import { refusal } from '../../testing/refusal';
import { registerCommand, type CommandContext, type CommandOutcome } from '../commands';
import type { ListParams } from '../dataProvider';
import { commandKey, useCommandRunner } from './useCommandRunner';

const label = (zh: string) => ({ 'zh-CN': zh, 'en-US': zh });
const screen: ScreenSchema = {
  schemaVersion: 2,
  id: 'handover',
  title: label('交接单'),
  resource: { name: 'handover' },
  fields: [{ key: 'code', type: 'text', label: label('编号') }],
};
const params: ListParams = {
  page: 2,
  size: 50,
  sort: { field: 'code', order: 'desc' },
  filters: { status: 'open', createdAt: ['2026-01-01', '2026-01-31'] },
};
const rows = [1, 2].map((id) => ({ id, version: 1, code: `JJ${id}` }));

/** A registered command the test finishes by hand; each test names its own. */
function command(name: string, over: Partial<ActionDef> = {}) {
  type Answer = string | CommandOutcome | undefined;
  const runs: { context: CommandContext; finish: (answer?: Answer) => void; refuse: (e: unknown) => void }[] = [];
  const unregister = registerCommand(
    name,
    (context) => new Promise<Answer>((finish, refuse) => runs.push({ context, finish: (a) => finish(a), refuse })),
  );
  afterEach(() => {
    runs.length = 0;
  });
  afterAll(unregister);
  const action: ActionDef = { kind: 'command', name, label: label('确认接收'), ...over };
  return { action, runs };
}

function setup() {
  const reload = vi.fn();
  const succeeded = vi.fn();
  const hook = renderHook(() => useCommandRunner(screen, { params, reload }, succeeded), { wrapper: WithFeedback });
  return { ...hook, reload, succeeded };
}

afterEach(() => cleanup());

describe('running a screen command', () => {
  const receive = command('probe.receive');
  const other = command('probe.other');

  it('runs on its rows while its button spins and the others wait; then says so and reloads', async () => {
    const { result, reload, succeeded } = setup();
    const key = commandKey('batch', receive.action);
    act(() => result.current.run(receive.action, rows, key));
    expect(receive.runs[0]!.context.records).toEqual(rows);
    expect(result.current.button(key)).toEqual({ loading: true, disabled: false });
    expect(result.current.button(commandKey('toolbar', other.action))).toEqual({ loading: false, disabled: true });

    // A second command while one runs does nothing.
    act(() => result.current.run(other.action, rows, commandKey('toolbar', other.action)));
    expect(other.runs).toHaveLength(0);

    await act(async () => receive.runs[0]!.finish());
    await shown('确认接收成功');
    expect(reload).toHaveBeenCalledOnce();
    // The page hears which button's command succeeded (a batch's selection is cleared).
    expect(succeeded).toHaveBeenCalledExactlyOnceWith(key);
    expect(result.current.button(key)).toEqual({ loading: false, disabled: false });
  });

  it("on the toolbar works on the list's filters and sort, not its page", async () => {
    const { result } = setup();
    act(() => result.current.run(other.action, [], commandKey('toolbar', other.action)));
    expect(other.runs[0]!.context.listQuery).toEqual({
      sort: 'code,desc',
      status: 'open',
      createdAtFrom: '2026-01-01',
      createdAtTo: '2026-01-31',
    });
    await act(async () => other.runs[0]!.finish('已生成 3 张交接单'));
    await shown('已生成 3 张交接单');
  });
});

describe('a command that asks first', () => {
  const cancel = command('probe.cancel', { confirm: label('作废后不能恢复，是否继续?') });

  it('runs nothing until the user confirms', async () => {
    const { result } = setup();
    act(() => result.current.run(cancel.action, rows.slice(0, 1), commandKey('row', cancel.action, 1)));
    press(await box('作废后不能恢复，是否继续?'), '取消');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(cancel.runs).toHaveLength(0);

    act(() => result.current.run(cancel.action, rows.slice(0, 1), commandKey('row', cancel.action, 1)));
    press(await box('作废后不能恢复，是否继续?'), '确定');
    await waitFor(() => expect(cancel.runs).toHaveLength(1));
  });
});

describe('a command with inputs', () => {
  const confirm = command('probe.confirm', {
    fields: [{ key: 'password', type: 'text', label: label('接收人密码') }],
  });

  it("opens its dialog; a refusal keeps it open with the server's field errors, success closes it", async () => {
    const { result, reload } = setup();
    const key = commandKey('row', confirm.action, 1);
    act(() => result.current.run(confirm.action, rows.slice(0, 1), key));
    expect(result.current.asking).toMatchObject({ key, errors: [] });
    expect(confirm.runs).toHaveLength(0);

    act(() => result.current.run(confirm.action, rows.slice(0, 1), key, { password: 'wrong' }));
    expect(confirm.runs[0]!.context.values).toEqual({ password: 'wrong' });
    const errors = [{ field: 'password', message: '接收人密码错误' }];
    await act(async () => confirm.runs[0]!.refuse(refusal(400, '接收人密码错误', { errors })));
    await shown('接收人密码错误');
    expect(result.current.asking?.errors).toEqual(errors);
    expect(reload).not.toHaveBeenCalled();

    act(() => result.current.run(confirm.action, rows.slice(0, 1), key, { password: 'right' }));
    await act(async () => confirm.runs[1]!.finish());
    await waitFor(() => expect(result.current.asking).toBeUndefined());
    expect(reload).toHaveBeenCalledOnce();
  });
});

describe('the outcome of a command (issue 25)', () => {
  const confirm = command('probe.outcome', {
    fields: [{ key: 'password', type: 'text', label: label('接收人密码') }],
  });
  const issue = command('probe.issue', { label: label('取号') });

  it("takes away an earlier try's error when a later one succeeds", async () => {
    const { result, succeeded } = setup();
    const key = commandKey('row', confirm.action, 1);
    act(() => result.current.run(confirm.action, rows.slice(0, 1), key, { password: 'wrong' }));
    await act(async () => confirm.runs[0]!.refuse(refusal(400, '用户名或密码错误')));
    await shown('用户名或密码错误');
    expect(succeeded).not.toHaveBeenCalled();

    act(() => result.current.run(confirm.action, rows.slice(0, 1), key, { password: 'right' }));
    await act(async () => confirm.runs[1]!.finish());
    await shown('确认接收成功');
    // The error (8 s) would have outlived the success (1 s): it is gone the moment the success shows.
    expect(messages()).not.toContain('用户名或密码错误');
  });

  it('shows the values it answered in a box that stays until closed', async () => {
    const { result } = setup();
    act(() => result.current.run(issue.action, rows.slice(0, 1), commandKey('row', issue.action, 1)));
    await act(async () => issue.runs[0]!.finish({ values: [{ label: '条码号', value: '2605120001' }] }));
    const dialog = await box('2605120001');
    expect(dialog.textContent).toContain('取号成功');
    expect(dialog.textContent).toContain('条码号');
    press(dialog, '关闭');
  });

  it('names the files it saved', async () => {
    const { result } = setup();
    act(() => result.current.run(issue.action, [], commandKey('toolbar', issue.action)));
    await act(async () => issue.runs[0]!.finish({ files: ['交接单_JJ1.pdf'] }));
    await shown('取号成功，已保存 交接单_JJ1.pdf');
  });
});
