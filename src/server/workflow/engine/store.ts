import type { Queryable } from '../../kernel/db/database.js';
import { one } from '../../kernel/db/database.js';
import type { Runtime } from './runner.js';
import type { InstanceStatus } from '../../../shared/workflow/instanceStatus.js';

/** SQL of instances, user tasks and history: the engine's own persistence (migration 5). */
export interface InstanceRow {
  id: string;
  deploymentId: string;
  orgId: number;
  processKey: string;
  businessKey: string | null;
  parentId: string | null;
  parentExecutionId: string | null;
  status: InstanceStatus;
  variables: Record<string, unknown>;
  engineState: unknown;
  runtime: Runtime;
  startedBy: number | null;
  startedAt: string;
  endedAt: string | null;
}

const INSTANCE = `id, deployment_id as "deploymentId", org_id as "orgId", process_key as "processKey", business_key as "businessKey",
  parent_id as "parentId", parent_execution_id as "parentExecutionId", status, variables, engine_state as "engineState", runtime,
  started_by as "startedBy", started_at as "startedAt", ended_at as "endedAt"`;

/** Locks the instance row: one process advances an instance at a time, others wait for the commit. */
export const lockInstance = (tx: Queryable, id: string) =>
  one<InstanceRow>(tx, `select ${INSTANCE} from process_instance where id = $1 for update`, [id]);
/** The same for the recovery at start, which passes over a running instance another process is advancing. */
export const lockRunningInstance = (tx: Queryable, id: string) =>
  one<InstanceRow>(
    tx,
    `select ${INSTANCE} from process_instance where id = $1 and status = 'running' for update skip locked`,
    [id],
  );
export const getInstance = (db: Queryable, id: string) =>
  one<InstanceRow>(db, `select ${INSTANCE} from process_instance where id = $1`, [id]);

export async function insertInstance(
  tx: Queryable,
  row: Pick<
    InstanceRow,
    | 'id'
    | 'deploymentId'
    | 'orgId'
    | 'processKey'
    | 'businessKey'
    | 'parentId'
    | 'parentExecutionId'
    | 'variables'
    | 'startedBy'
  >,
) {
  await tx.query(
    `insert into process_instance (id, deployment_id, org_id, process_key, business_key, parent_id, parent_execution_id, status, variables, runtime, started_by)
     values ($1, $2, $3, $4, $5, $6, $7, 'running', $8, $9, $10)`,
    [
      row.id,
      row.deploymentId,
      row.orgId,
      row.processKey,
      row.businessKey,
      row.parentId,
      row.parentExecutionId,
      JSON.stringify(row.variables),
      JSON.stringify({ completed: {} }),
      row.startedBy,
    ],
  );
}

export async function saveInstance(
  tx: Queryable,
  id: string,
  ended: boolean,
  state: unknown,
  variables: Record<string, unknown>,
  runtime: Runtime,
) {
  await tx.query(
    `update process_instance set engine_state = $2, variables = $3, runtime = $4,
       status = case when $5 then 'completed' else status end, ended_at = case when $5 then now() else ended_at end where id = $1`,
    [id, state === null ? null : JSON.stringify(state), JSON.stringify(variables), JSON.stringify(runtime), ended],
  );
}

export interface TaskRow {
  id: string;
  instanceId: string;
  orgId: number;
  elementId: string;
  executionId: string;
  name: string | null;
  formKey: string | null;
  candidateGroups: string[];
  candidateUsers: string[];
  assignee: string | null;
  priority: number;
  status: 'active' | 'complete' | 'rollback' | 'cancelled';
  createdAt: string;
  claimedAt: string | null;
  completedAt: string | null;
  completedBy: number | null;
  result: string | null;
  /** The user task whose completion created this one (rollback_last returns to it). */
  previousElementId: string | null;
  /** 'manual' and 'receive' tasks are confirmed by a person (model.ts); 'user' otherwise. */
  kind?: 'user' | 'manual' | 'receive';
  /** Who the task was delegated by: it returns to them when the delegate completes it. */
  owner?: string | null;
  processKey?: string;
  businessKey?: string | null;
}

export const TASK = `t.id, t.instance_id as "instanceId", t.org_id as "orgId", t.element_id as "elementId", t.execution_id as "executionId", t.name,
  t.form_key as "formKey", t.candidate_groups as "candidateGroups", t.candidate_users as "candidateUsers", t.assignee, t.priority, t.status,
  t.created_at as "createdAt", t.claimed_at as "claimedAt", t.completed_at as "completedAt", t.completed_by as "completedBy", t.result,
  t.previous_element_id as "previousElementId", t.kind, t.owner`;

export const lockTask = (tx: Queryable, id: string) =>
  one<TaskRow>(tx, `select ${TASK} from workflow_task t where t.id = $1 for update`, [id]);
export const getTask = (db: Queryable, id: string) =>
  one<TaskRow>(db, `select ${TASK} from workflow_task t where t.id = $1`, [id]);
/** Tasks by id with their instance's process and business key (to name them), in one statement. */
export const tasksWithKeys = (db: Queryable, ids: string[]) =>
  db.query<TaskRow>(
    `select ${TASK}, i.process_key as "processKey", i.business_key as "businessKey"
       from workflow_task t join process_instance i on i.id = t.instance_id where t.id = any($1::text[])`,
    [ids],
  );
export const activeTasks = (tx: Queryable, instanceId: string) =>
  tx.query<TaskRow>(`select ${TASK} from workflow_task t where t.instance_id = $1 and t.status = 'active'`, [
    instanceId,
  ]);

/** Where a rollback to a task returns: the engine state and counters right after the task was created. */
export interface Snapshot {
  state: unknown;
  runtime: Runtime;
  /** When it was taken (ISO): a rollback to it restarts its timers from the rollback on. */
  at?: string;
}

/** A new open task; `snapshot` (JSON text of a Snapshot) when the task begins a visit a rollback may return to. */
export async function insertTask(
  tx: Queryable,
  t: Omit<TaskRow, 'status' | 'createdAt' | 'claimedAt' | 'completedAt' | 'completedBy' | 'result'>,
  snapshot: string | null,
) {
  await tx.query(
    `insert into workflow_task (id, instance_id, org_id, element_id, execution_id, name, form_key, candidate_groups, candidate_users, assignee, priority, status, previous_element_id, snapshot, kind)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, 'active', $12, $13, $14)`,
    [
      t.id,
      t.instanceId,
      t.orgId,
      t.elementId,
      t.executionId,
      t.name,
      t.formKey,
      t.candidateGroups,
      t.candidateUsers,
      t.assignee,
      t.priority,
      t.previousElementId,
      snapshot,
      t.kind ?? 'user',
    ],
  );
}

export const snapshotOf = async (tx: Queryable, taskId: string) =>
  (await one<{ snapshot: Snapshot | null }>(tx, 'select snapshot from workflow_task where id = $1', [taskId]))
    ?.snapshot ?? undefined;

/** User tasks an instance has reached and could return to, each once, in the order first reached; newest row of each. */
export interface Visit {
  taskId: string;
  elementId: string;
  name: string | null;
  previousElementId: string | null;
}

export async function visitedTasks(db: Queryable, instanceId: string): Promise<Visit[]> {
  const rows = await db.query<Visit>(
    `select id as "taskId", element_id as "elementId", name, previous_element_id as "previousElementId" from workflow_task
      where instance_id = $1 and snapshot is not null order by created_at, id`,
    [instanceId],
  );
  // A Map keeps each key where it was first set, with the value set last: first reached, newest row.
  const latest = new Map<string, Visit>();
  for (const row of rows) latest.set(row.elementId, row);
  return [...latest.values()];
}

export async function closeTask(
  tx: Queryable,
  id: string,
  status: TaskRow['status'],
  by: number | null,
  result: string | null,
  variables: unknown,
) {
  await tx.query(
    `update workflow_task set status = $2, completed_at = now(), completed_by = $3, result = $4, variables = $5 where id = $1`,
    [id, status, by, result, variables === undefined ? null : JSON.stringify(variables)],
  );
}

export async function addHistory(
  tx: Queryable,
  h: {
    instanceId: string;
    elementId: string;
    elementType?: string | undefined;
    event: string;
    taskId?: string;
    userId?: number | null;
    result?: string | null;
    targetElementId?: string;
  },
) {
  await tx.query(
    'insert into workflow_history (instance_id, element_id, element_type, event, task_id, user_id, result, target_element_id) values ($1, $2, $3, $4, $5, $6, $7, $8)',
    [
      h.instanceId,
      h.elementId,
      h.elementType ?? null,
      h.event,
      h.taskId ?? null,
      h.userId ?? null,
      h.result ?? null,
      h.targetElementId ?? null,
    ],
  );
}

/** Elements ended and flows taken in one step, in order, in one statement (a step passes several). */
export async function addPassed(
  tx: Queryable,
  instanceId: string,
  passed: { elementId: string; elementType: string | undefined; event: string }[],
) {
  if (passed.length === 0) return;
  await tx.query(
    `insert into workflow_history (instance_id, element_id, element_type, event)
     select $1, e, t, v from unnest($2::text[], $3::text[], $4::text[]) with ordinality as p(e, t, v, n) order by n`,
    [instanceId, passed.map((p) => p.elementId), passed.map((p) => p.elementType ?? null), passed.map((p) => p.event)],
  );
}

export interface HistoryRow {
  elementId: string;
  elementType: string | null;
  event: string;
  taskId: string | null;
  userId: number | null;
  /** Who did it, as the trace's history table names them. */
  userName: string | null;
  result: string | null;
  /** Where a rollback sent the instance. */
  targetElementId: string | null;
  at: string;
}

export const historyOf = (db: Queryable, instanceId: string) =>
  db.query<HistoryRow>(
    `select h.element_id as "elementId", h.element_type as "elementType", h.event, h.task_id as "taskId", h.user_id as "userId", u.user_name as "userName",
            h.result, h.target_element_id as "targetElementId", h.at
       from workflow_history h left join app_user u on u.id = h.user_id where h.instance_id = $1 order by h.id`,
    [instanceId],
  );

/** The caller's groups for candidate matching: their positions (roles) by id, code and name. */
/**
 * The open tasks a user may work (t: workflow_task, i: its instance): of their organisation ($1), assigned
 * to them ($2), or unassigned and offered to them ($3 their names, $4 their positions), or to no one,
 * which an admin ($5) works. The to-do list and the dashboard's count read the same rule.
 */
export const OPEN_FOR_USER = `t.org_id = $1 and t.status = 'active' and i.status <> 'completed'
         and (t.assignee = $2 or (t.assignee is null and (t.candidate_users && $3::text[] or t.candidate_groups && $4::text[]
              or ($5 and cardinality(t.candidate_users) = 0 and cardinality(t.candidate_groups) = 0)))
              -- A task given to an account the organisation lacks waits for no one: its admins see it, to reassign it.
              or ($5 and t.assignee is not null and not exists (select 1 from app_user u where u.org_id = t.org_id and u.user_account = t.assignee)))`;

export async function groupsOf(db: Queryable, userId: number): Promise<string[]> {
  const rows = await db.query<{ id: number; code: string; name: string }>(
    'select r.id, r.code, r.name from user_role ur join role r on r.id = ur.role_id where ur.user_id = $1',
    [userId],
  );
  return [...new Set(rows.flatMap((r) => [String(r.id), r.code, r.name]))];
}

/** The staff holding any of the groups (positions by id, code or name) in an organisation, by account. */
async function staffInGroups(
  db: Queryable,
  orgId: number,
  groups: string[],
): Promise<{ id: number; userAccount: string }[]> {
  if (groups.length === 0) return [];
  return db.query<{ id: number; userAccount: string }>(
    `select distinct u.id, u.user_account as "userAccount" from app_user u join user_role ur on ur.user_id = u.id join role r on r.id = ur.role_id
     where u.org_id = $1 and (r.id::text = any($2::text[]) or r.code = any($2::text[]) or r.name = any($2::text[])) order by 2`,
    [orgId, groups],
  );
}

export const membersOf = async (db: Queryable, orgId: number, groups: string[]): Promise<string[]> =>
  (await staffInGroups(db, orgId, groups)).map((s) => s.userAccount);

export const usersInGroups = async (db: Queryable, orgId: number, groups: string[]): Promise<number[]> =>
  (await staffInGroups(db, orgId, groups)).map((s) => s.id);
