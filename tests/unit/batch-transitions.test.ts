import { describe, expect, it } from 'vitest';
import { servedScreen } from '../../src/server/kernel/screens/served';
import { scanActionProblems, transitionActionProblems } from '../../src/server/kernel/screens/views';
import type { ScreenSchema } from '../../src/shared/screens/fields';
import { matches } from '../../src/shared/screens/predicate';

const label = (zh: string) => ({ 'zh-CN': zh, 'en-US': zh });
const tubes: ScreenSchema = {
  schemaVersion: 2,
  id: 'tubes',
  title: label('标本'),
  resource: {
    name: 'tube',
    lifecycle: {
      field: 'status',
      initial: 'registered',
      transitions: [
        { name: 'receive', label: label('接收'), from: ['registered'], to: 'received' },
        { name: 'reject', label: label('拒收'), from: ['registered'], to: 'rejected', requires: ['reason'] },
      ],
    },
  },
  fields: [
    {
      key: 'status',
      type: 'enum',
      label: label('状态'),
      options: ['registered', 'received', 'rejected'].map((value) => ({ value, label: label(value) })),
    },
    { key: 'reason', type: 'text', label: label('原因') },
  ],
  actions: {
    row: [{ kind: 'transition', name: 'receive' }],
    batch: [{ kind: 'transition', name: 'reject', label: label('批量拒收') }],
  },
};

describe('a transition in the batch bar', () => {
  it('is served as one call for the selected rows, asking the step its fields once, offered while each is in a state it leaves', () => {
    const served = servedScreen(tubes, tubes);
    expect(served.actions?.batch?.[0]).toEqual({
      kind: 'command',
      name: 'reject',
      label: label('批量拒收'),
      endpoint: '/api/resources/tube/transitions/reject',
      method: 'POST',
      fields: [{ key: 'reason', type: 'text', label: label('原因'), required: true, readOnly: false }],
      visibleWhen: { field: 'status', op: 'in', value: ['registered'] },
    });
    // A row's button stays the row's call, shown in the states it leaves.
    expect(served.actions?.row?.[0]).toMatchObject({
      endpoint: '/api/resources/tube/{id}/transitions/receive',
      visibleWhen: { field: 'status', op: 'in', value: ['registered'] },
    });
  });

  it('is a row or batch action only, of a transition the lifecycle has', () => {
    expect(transitionActionProblems(tubes, tubes)).toEqual([]);
    const toolbar = { ...tubes, actions: { toolbar: [{ kind: 'transition' as const, name: 'receive' }] } };
    expect(transitionActionProblems(toolbar, tubes)).toEqual([
      { path: '/actions/toolbar/0', message: 'a transition is a row or batch action' },
    ]);
    const unknown = { ...tubes, actions: { batch: [{ kind: 'transition' as const, name: 'archive' }] } };
    expect(transitionActionProblems(unknown, tubes)).toEqual([
      { path: '/actions/batch/0/name', message: 'no transition "archive"' },
    ]);
  });
});

describe('the action a scanner desk runs on each scan', () => {
  const desk = (action: string, row = tubes.actions!.row!) => ({
    ...tubes,
    list: { scan: { field: 'status', action } },
    actions: { row },
  });

  it('is a row action that asks for nothing', () => {
    expect(scanActionProblems(desk('receive'), tubes)).toEqual([]);
    expect(servedScreen(desk('receive'), tubes).actions?.row?.[0]).toMatchObject({ kind: 'command', name: 'receive' });
  });

  it('is refused when the screen has no such row action, or when it asks for input or a confirmation', () => {
    const where = '/list/scan/action';
    expect(scanActionProblems(desk('archive'), tubes)).toEqual([
      { path: where, message: 'no row transition or command "archive"' },
    ]);
    const rejecting = desk('reject', [{ kind: 'transition', name: 'reject' }]);
    expect(scanActionProblems(rejecting, tubes)).toEqual([
      { path: where, message: '"reject" asks for input or confirmation: it cannot run on a scan' },
    ]);
    const confirming = desk('receive', [{ kind: 'transition', name: 'receive', confirm: label('确定接收？') }]);
    expect(scanActionProblems(confirming, tubes)).toEqual([
      { path: where, message: '"receive" asks for input or confirmation: it cannot run on a scan' },
    ]);
  });
});

describe('a step kept from whoever did the earlier one (transition.notBy)', () => {
  const audits: ScreenSchema = {
    ...tubes,
    resource: {
      name: 'audit',
      lifecycle: {
        field: 'status',
        initial: 'registered',
        transitions: [
          { name: 'receive', label: label('通过'), from: ['registered'], to: 'received', notBy: 'enteredBy' },
        ],
      },
    },
    fields: [...tubes.fields, { key: 'enteredBy', type: 'text', label: label('录入人') }],
    actions: { row: [{ kind: 'transition', name: 'receive' }] },
  };

  it('is not offered on the rows the viewer entered, by name or account, and is on the others', () => {
    const served = servedScreen(audits, audits, { userName: '王检验', userAccount: 'editor' });
    const shown = (row: Record<string, unknown>) => matches(served.actions!.row![0]!.visibleWhen, row);
    expect(shown({ status: 'registered', enteredBy: '王检验' })).toBe(false);
    expect(shown({ status: 'registered', enteredBy: 'editor' })).toBe(false);
    expect(shown({ status: 'registered', enteredBy: '刘芳' })).toBe(true);
    expect(shown({ status: 'received', enteredBy: '刘芳' })).toBe(false);
  });
});

describe('the edit button of a record whose lifecycle limits edits (editableIn)', () => {
  it('is offered only in the states the server takes an edit in, and within the screen’s own condition', () => {
    const limited: ScreenSchema = {
      ...tubes,
      resource: { ...tubes.resource, lifecycle: { ...tubes.resource.lifecycle!, editableIn: ['registered'] } },
      actions: { row: [{ kind: 'edit', visibleWhen: { field: 'reason', op: 'empty' } }] },
    };
    const edit = servedScreen(limited, limited).actions!.row![0]!;
    expect(matches(edit.visibleWhen, { status: 'registered' })).toBe(true);
    expect(matches(edit.visibleWhen, { status: 'received' })).toBe(false);
    expect(matches(edit.visibleWhen, { status: 'registered', reason: '凝固' })).toBe(false);
  });
});
