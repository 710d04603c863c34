import type { Queryable } from '../../kernel/db/database.js';
import { badRequest } from '../../kernel/http/envelope.js';
import * as store from './store.js';

/**
 * Where the three rollback results of spec 3 send an instance: rollback_last to the user task whose
 * completion led to the current one, rollback_start to the first user task the instance reached,
 * rollback_define to a user task the instance has reached that the user names. Each target is a task
 * row that kept the engine state of the moment it was created (its snapshot).
 */
export const ROLLBACKS = ['rollback_last', 'rollback_start', 'rollback_define'] as const;
export type RollbackKind = (typeof ROLLBACKS)[number];

export const isRollback = (result: string | undefined): RollbackKind | undefined => ROLLBACKS.find((r) => r === result);

export interface RollbackTarget {
  elementId: string;
  previousElementId: string | null;
  snapshot: store.Snapshot;
}

/** The user tasks a task may be sent back to (the 退回指定节点 choice): those reached before, other than its own. */
export async function rollbackChoices(
  db: Queryable,
  task: store.TaskRow,
): Promise<{ elementId: string; name: string | null }[]> {
  const visited = await store.visitedTasks(db, task.instanceId);
  return visited.filter((v) => v.elementId !== task.elementId).map(({ elementId, name }) => ({ elementId, name }));
}

async function targetElement(
  db: Queryable,
  task: store.TaskRow,
  kind: RollbackKind,
  chosen: string | undefined,
): Promise<string | undefined> {
  if (kind === 'rollback_last') return task.previousElementId ?? undefined;
  const visited = await store.visitedTasks(db, task.instanceId);
  if (kind === 'rollback_start') return visited[0]?.elementId;
  if (!chosen) throw badRequest('workflow.rollbackTargetRequired');
  if (!visited.some((v) => v.elementId === chosen))
    throw badRequest('workflow.rollbackTargetUnknown', { target: chosen });
  return chosen;
}

export async function rollbackTarget(
  tx: Queryable,
  task: store.TaskRow,
  kind: RollbackKind,
  chosen: string | undefined,
): Promise<RollbackTarget> {
  const elementId = await targetElement(tx, task, kind, chosen);
  // The first task cannot go further back, and a task is never sent back to itself.
  if (!elementId || elementId === task.elementId) throw badRequest('workflow.rollbackNowhere');
  const row = (await store.visitedTasks(tx, task.instanceId)).find((v) => v.elementId === elementId);
  const snapshot = row && (await store.snapshotOf(tx, row.taskId));
  if (!row || !snapshot) throw badRequest('workflow.rollbackNowhere');
  return { elementId, previousElementId: row.previousElementId, snapshot };
}
