import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import { setupServer } from 'msw/node';
import { forgetEarlyReads, keepForScreen } from '../../api/earlyReads';
import { DONE_TASKS_URL, TODO_TASKS_URL, type TaskRow } from './api';
import { TaskPanels } from './TaskPanels';

// No handlers: any request the panels made would fail the test.
const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  cleanup();
  forgetEarlyReads();
});
afterAll(() => server.close());

const task: TaskRow = {
  id: 't1',
  instanceId: 'i1',
  elementId: 'review',
  name: '审核',
  formKey: null,
  candidateGroups: ['审核组'],
  assignee: null,
  status: 'active',
  createdAt: '2026-11-29T08:00:00Z',
  completedAt: null,
  result: null,
  processKey: 'specimen',
  processName: '标本流程',
  businessKey: 'S202611290001',
  instanceStatus: 'running',
  patientName: '张三',
  items: '血常规',
};

describe('the dashboard task panels', () => {
  it('show the tasks read at sign-in in their first render, without a loading state or a read of their own', async () => {
    keepForScreen(TODO_TASKS_URL, Promise.resolve([task]));
    keepForScreen(DONE_TASKS_URL, Promise.resolve([]));
    // The answers have come before the dashboard is built (the shell waited for the page-entry calls).
    await act(() => Promise.resolve());
    render(<TaskPanels />);
    expect(screen.getByTestId('todo-tasks').getAttribute('aria-busy')).toBe('false');
    expect(screen.getByText('S202611290001')).toBeTruthy();
    await act(() => Promise.resolve());
    expect(screen.getByText('张三')).toBeTruthy();
  });
});
