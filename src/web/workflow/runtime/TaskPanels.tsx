import { lazy, Suspense, useCallback, useEffect, useState } from 'react';
import type { ReactNode } from 'react';
import { Button, Card } from 'antd';
import { useSnapshot } from 'valtio';
import { errorMessage } from '../../api/http';
import { notify } from '../../feedback/feedback';
import { i18n } from '../../i18n';
import { PUSH_ALERT_EVENT } from '../../push/pushChannel';
import { rt } from './i18n';
import { arrivedTasks, claimTask, doneTasks, todoTasks, type TaskRow } from './api';
import { resultLabel, statusOf, time } from './results';
import './runtime.css';

// The dialogs carry the form machinery and bpmn-js: they load when a task is opened, not with the dashboard.
const TaskDialog = lazy(() => import('./TaskDialog'));
const TraceDialog = lazy(() => import('./TraceDialog'));
const BatchTaskDialog = lazy(() => import('./BatchTaskDialog'));

type Open =
  { kind: 'task'; id: string } | { kind: 'trace'; id: string } | { kind: 'batch'; tasks: TaskRow[] } | undefined;

/** Tasks a user may complete together: one kind (the same task of the same process), none waiting on a suspension. */
const oneKind = (tasks: TaskRow[]) =>
  new Set(tasks.map((t) => `${t.processKey}\u0000${t.elementId}`)).size === 1 &&
  tasks.every((t) => t.instanceStatus !== 'suspended');

/** The user's tasks, read afresh on mount, on a pushed alert (a new task), on window focus and on 刷新. */
function useTasks() {
  const [version, setVersion] = useState(0);
  // Each answer remembers the reload it answers: loading is "the last answer is for an older one".
  // Lists read at sign-in that have already come answer the first load from the first render.
  const [answer, setAnswer] = useState<{ version: number; todo: TaskRow[]; done: TaskRow[] }>(() => {
    const arrived = arrivedTasks();
    return arrived ? { version: 0, ...arrived } : { version: -1, todo: [], done: [] };
  });
  const reload = useCallback(() => setVersion((v) => v + 1), []);
  useEffect(() => {
    let current = true;
    Promise.all([todoTasks(), doneTasks()]).then(
      // The same lists as shown keep the same state: no second render of the panels.
      ([todo, done]) =>
        current &&
        setAnswer((a) => (a.version === version && a.todo === todo && a.done === done ? a : { version, todo, done })),
      (e: unknown) => {
        if (!current) return;
        setAnswer((a) => ({ ...a, version }));
        notify.error(errorMessage(e, rt('查询失败')));
      },
    );
    return () => {
      current = false;
    };
  }, [version]);
  useEffect(() => {
    window.addEventListener(PUSH_ALERT_EVENT, reload);
    window.addEventListener('focus', reload);
    return () => {
      window.removeEventListener(PUSH_ALERT_EVENT, reload);
      window.removeEventListener('focus', reload);
    };
  }, [reload]);
  return { todo: answer.todo, done: answer.done, loading: answer.version !== version, reload };
}

interface Column {
  key: string;
  title: ReactNode;
  width?: number;
  render: (task: TaskRow) => ReactNode;
}

/**
 * A plain table of tasks: the dashboard ships without antd's Table (its sorting, filtering and paging
 * machinery would double the dashboard's JavaScript for a list of a few rows). The server sends at most 500.
 */
function TaskTable({ columns, rows }: { columns: Column[]; rows: TaskRow[] }) {
  return (
    <div className="task-table">
      <table>
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c.key} style={c.width ? { width: c.width } : undefined}>
                {c.title}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((t) => (
            <tr key={t.id} className="task-row">
              {columns.map((c) => (
                <td key={c.key}>{c.render(t)}</td>
              ))}
            </tr>
          ))}
          {rows.length === 0 && (
            <tr>
              <td colSpan={columns.length} className="task-empty">
                {rt('暂无数据')}
              </td>
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}

/**
 * The dashboard's 待办任务 (tasks of the user's positions and candidate lists in their organisation;
 * claim, open) and 已办任务 (what they completed or sent back; trace) panels.
 */
export function TaskPanels() {
  useSnapshot(i18n);
  const { todo, done, loading, reload } = useTasks();
  const [open, setOpen] = useState<Open>();
  const [chosen, setChosen] = useState<ReadonlySet<string>>(new Set());
  // A task that left the list (completed, taken by another) is no longer chosen.
  const selected = todo.filter((t) => chosen.has(t.id));
  const choose = (id: string, on: boolean) =>
    setChosen((c) => {
      const next = new Set(c);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  const allChosen = todo.length > 0 && selected.length === todo.length;
  const chooseAll = (on: boolean) => setChosen(new Set(on ? todo.map((t) => t.id) : []));
  const completeSelected = () => {
    if (!oneKind(selected)) return notify.warning(rt('所选任务须为同一流程的同一任务'));
    setOpen({ kind: 'batch', tasks: selected });
  };

  const claim = async (task: TaskRow) => {
    try {
      notify.success(await claimTask(task.id));
      reload();
    } catch (e) {
      notify.error(errorMessage(e, rt('操作失败')));
    }
  };

  const common: Column[] = [
    { key: 'process', title: rt('流程'), render: (t) => t.processName },
    { key: 'businessKey', title: rt('业务编号'), width: 130, render: (t) => t.businessKey },
    { key: 'patient', title: rt('患者'), width: 90, render: (t) => t.patientName },
    { key: 'items', title: rt('检验项目'), render: (t) => t.items },
    { key: 'name', title: rt('任务名称'), width: 120, render: (t) => t.name },
  ];
  const todoColumns: Column[] = [
    {
      key: 'select',
      // A box in the header ticks every task listed (its column is too narrow for a word).
      title: (
        <input
          type="checkbox"
          aria-label={rt('全选')}
          checked={allChosen}
          ref={(box) => {
            if (box) box.indeterminate = selected.length > 0 && !allChosen;
          }}
          disabled={todo.length === 0}
          onChange={(e) => chooseAll(e.target.checked)}
        />
      ),
      width: 36,
      render: (t) => (
        <input
          type="checkbox"
          aria-label={`${rt('选择')} ${t.businessKey ?? ''} ${t.name ?? ''}`}
          checked={chosen.has(t.id)}
          onChange={(e) => choose(t.id, e.target.checked)}
        />
      ),
    },
    ...common,
    { key: 'createdAt', title: rt('创建时间'), width: 170, render: (t) => time(t.createdAt) },
    {
      key: 'actions',
      title: rt('操作'),
      width: 170,
      render: (t) => (
        <span className="task-actions">
          {t.instanceStatus === 'suspended' && <span className="task-suspended">{statusOf('suspended').label}</span>}
          {!t.assignee && (
            <Button size="small" type="link" onClick={() => void claim(t)}>
              {rt('签收')}
            </Button>
          )}
          <Button size="small" type="link" onClick={() => setOpen({ kind: 'task', id: t.id })}>
            {rt('办理')}
          </Button>
        </span>
      ),
    },
  ];
  const doneColumns: Column[] = [
    ...common,
    { key: 'result', title: rt('结果'), width: 130, render: (t) => resultLabel(t.result) },
    { key: 'completedAt', title: rt('完成时间'), width: 170, render: (t) => time(t.completedAt) },
    {
      key: 'actions',
      title: rt('操作'),
      width: 100,
      render: (t) => (
        <Button size="small" type="link" onClick={() => setOpen({ kind: 'trace', id: t.instanceId })}>
          {rt('流程追踪')}
        </Button>
      ),
    },
  ];

  const refresh = (
    <>
      <Button size="small" disabled={selected.length === 0} onClick={completeSelected}>
        {rt('批量办理')}
        {selected.length > 0 && ` (${selected.length})`}
      </Button>{' '}
      <Button size="small" onClick={reload}>
        {rt('刷新')}
      </Button>
    </>
  );
  return (
    <div className="task-panels">
      <Card title={rt('待办任务')} extra={refresh} size="small" data-testid="todo-tasks" aria-busy={loading}>
        <TaskTable columns={todoColumns} rows={todo} />
      </Card>
      <Card title={rt('已办任务')} size="small" data-testid="done-tasks">
        <TaskTable columns={doneColumns} rows={done} />
      </Card>
      <Suspense fallback={null}>
        {open?.kind === 'task' && (
          <TaskDialog
            taskId={open.id}
            onClose={() => setOpen(undefined)}
            onDone={() => {
              setOpen(undefined);
              reload();
            }}
          />
        )}
        {open?.kind === 'trace' && <TraceDialog instanceId={open.id} onClose={() => setOpen(undefined)} />}
        {open?.kind === 'batch' && (
          <BatchTaskDialog
            tasks={open.tasks}
            onClose={() => setOpen(undefined)}
            onDone={() => {
              setOpen(undefined);
              setChosen(new Set());
              reload();
            }}
          />
        )}
      </Suspense>
    </div>
  );
}
