import { randomUUID } from 'node:crypto';
import { evaluate } from '../../../shared/expression/index.js';
import { t, type Locale } from '../../../shared/i18n/messages.js';
import type { Database, Queryable } from '../../kernel/db/database.js';
import type { FormPages } from '../../kernel/ports.js';
import { ApiError, badRequest, conflict, forbidden, InvalidRecord, notFound } from '../../kernel/http/envelope.js';
import type { PushHub } from '../../kernel/push/hub.js';
import { appendLog } from '../../kernel/audit/log.js';
import { deploymentInfo, getDeployment, latestDeployment, type DeploymentInfo } from './deployments.js';
import { preparedModel, prepareModel, type PreparedModel } from './model.js';
import { isRollback, rollbackTarget, type RollbackKind } from './rollback.js';
import { runStep, signalWait, StepError, type Action, type Wait } from './runner.js';
import * as store from './store.js';
import {
  catchesInLine,
  catchesOf,
  dueTimers,
  hasDueTimer,
  reconcileCatches,
  stillDue,
  waitingFor,
  type CatchRow,
} from './catches.js';
import { dueStartTimers, lockDueStart, messageStarts, rearm, type StartRow } from './startEvents.js';

/**
 * Process instances as the lab uses them: start one, complete its user tasks, and let bpmn-engine
 * route between them. Every step runs inside one transaction that holds the instance's row lock, and
 * writes the engine state, the task rows and the history together; alerts go out after the commit.
 */
export interface Caller {
  id: number;
  orgId: number;
  userAccount: string;
  roles: readonly string[];
}

interface Step {
  tx: Queryable;
  /** Tasks created in this transaction, announced to their candidates once it commits. */
  created: store.TaskRow[];
  /** Signals thrown in this transaction, carried to the organisation's other instances once it commits. */
  signals: Thrown[];
}

/** A signal an instance threw: it reaches the other running instances of its organisation that wait for it. */
interface Thrown {
  orgId: number;
  from: string;
  name: string;
}

/** How far signals may set off further signals (a model whose catch throws again) before they stop. */
const SIGNAL_DEPTH = 8;

/** The task whose completion (or rollback) drives a step: the tasks it creates name it as their previous one. */
interface From {
  elementId: string;
  previousElementId: string | null;
}

/** Due timers fired at once by one server process. */
const TIMER_WORKERS = 4;

const TASK_TYPES = { user: 'UserTask', manual: 'ManualTask', receive: 'ReceiveTask' } as const;

const RESULTS = ['pass', 'unpass', 'rollback_last', 'rollback_start', 'rollback_define'] as const;

export interface CompleteInput {
  result?: string;
  variables?: Record<string, unknown>;
  /** The user task a rollback_define returns to. */
  targetElementId?: string;
}

/** Deployments never change: the XML is read once per process, when its model is first prepared. */
async function modelOf(tx: Queryable, deploymentId: string): Promise<PreparedModel> {
  const cached = preparedModel(deploymentId);
  if (cached) return cached;
  const deployment = await getDeployment(tx, deploymentId);
  if (!deployment) throw notFound();
  return prepareModel(deployment.id, deployment.key, deployment.xml);
}

function text(template: string | undefined, vars: Record<string, unknown>): string | null {
  if (template === undefined) return null;
  try {
    return String(evaluate(template, vars) ?? '');
  } catch (e) {
    throw badRequest('workflow.stepFailed', { detail: `${template}: ${(e as Error).message}` });
  }
}

const list = (values: string[], vars: Record<string, unknown>) =>
  values.flatMap((v) =>
    (text(v, vars) ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  );

/**
 * Runs one engine step on a locked instance and brings tasks, history and children in line with it.
 * Without an action the saved state is only recovered: how a rollback puts back an earlier state.
 */
async function advance(
  step: Step,
  instance: store.InstanceRow,
  action?: Action,
  from: From | null = null,
): Promise<void> {
  const { tx } = step;
  const model = await modelOf(tx, instance.deploymentId);
  const result = await engineStep(tx, instance, model, action);
  const typeOf = (id: string) => model.elements.get(id)?.$type.replace('bpmn:', '');
  step.signals.push(...result.signals.map((s) => ({ orgId: instance.orgId, from: instance.id, name: s.name })));
  await store.addPassed(
    tx,
    instance.id,
    result.passed.map((p) => ({ ...p, elementType: typeOf(p.elementId) })),
  );
  await reconcileTasks(step, instance, model, result, from);
  await reconcileCatches(tx, instance.id, instance.orgId, result.waits);
  await store.saveInstance(tx, instance.id, result.ended, result.state, instance.variables, instance.runtime);
  const current = { ...instance, engineState: result.state };
  for (const wait of result.waits.filter((w) => w.calledElement)) await callActivity(step, current, wait);
  if (result.ended && instance.parentId && instance.parentExecutionId) await resumeParent(step, instance);
}

/** One engine run of the instance, a step the engine refuses answered as the spec's 400 with its reason. */
async function engineStep(tx: Queryable, instance: store.InstanceRow, model: PreparedModel, action?: Action) {
  const members = model.loops.size > 0 ? await loopMembers(tx, instance, model) : undefined;
  try {
    return await runStep(
      model,
      instance.engineState,
      { variables: instance.variables, runtime: instance.runtime, members },
      action,
    );
  } catch (e) {
    if (e instanceof StepError) throw badRequest('workflow.stepFailed', { detail: e.message });
    throw e;
  }
}

/**
 * Recovery at server start: the saved state is loaded into the engine again and the open task rows
 * compared with what it waits on. Only an instance out of line (a task row lost or left over, a call
 * whose child never started) is stepped, so an ordinary start writes nothing. Answers whether it was.
 */
async function recover(step: Step, instance: store.InstanceRow): Promise<boolean> {
  // Loading a state whose timer is past due fires it inside the engine, with no 'timer' history row.
  // The poller fires it instead, and its step brings the instance's tasks and catches in line.
  if (await hasDueTimer(step.tx, instance.id)) return false;
  const model = await modelOf(step.tx, instance.deploymentId);
  const result = await engineStep(step.tx, instance, model);
  const open = new Set((await store.activeTasks(step.tx, instance.id)).map((t) => t.executionId));
  const waiting = result.waits.filter((w) => model.userTasks.has(w.elementId)).map((w) => w.executionId);
  const calls = result.waits.filter((w) => w.calledElement).map((w) => w.executionId);
  const children = calls.length
    ? (
        await step.tx.query<{ at: string }>(
          'select parent_execution_id as at from process_instance where parent_id = $1',
          [instance.id],
        )
      ).map((r) => r.at)
    : [];
  const inLine =
    !result.ended &&
    (await catchesInLine(step.tx, instance.id, result.waits)) &&
    waiting.length === open.size &&
    waiting.every((id) => open.has(id)) &&
    calls.every((id) => children.includes(id));
  if (!inLine) await advance(step, instance);
  return !inLine;
}

/**
 * The staff of each members loop (model.ts): user accounts holding the task's candidate groups in the
 * instance's organisation, read before the step because the engine asks for them synchronously. The
 * runner keeps the list of a loop once it starts, so later steps' answers are read only by new visits.
 */
async function loopMembers(
  tx: Queryable,
  instance: store.InstanceRow,
  model: PreparedModel,
): Promise<Map<string, string[] | Error>> {
  const members = new Map<string, string[] | Error>();
  for (const [id, loop] of model.loops) {
    if (!loop.members) continue;
    try {
      members.set(
        id,
        await store.membersOf(tx, instance.orgId, list(model.userTasks.get(id)!.candidateGroups, instance.variables)),
      );
    } catch (e) {
      // A candidate group expression the variables cannot answer (yet) fails only a step that starts the loop.
      members.set(id, e instanceof ApiError ? new Error(String(e.vars.detail ?? e.key)) : (e as Error));
    }
  }
  return members;
}

/**
 * Closes tasks the engine no longer waits on and opens one per new wait. A task that begins a visit
 * (a plain task, or the first iteration of a loop) keeps the state after this step: a rollback's target.
 */
async function reconcileTasks(
  step: Step,
  instance: store.InstanceRow,
  model: PreparedModel,
  result: { state: unknown; waits: Wait[] },
  from: From | null,
) {
  const { tx } = step;
  const open = await store.activeTasks(tx, instance.id);
  const waiting = new Set(result.waits.map((w) => w.executionId));
  // Iterations the engine dropped (a completion condition met, a scope that ended) are no one's work now.
  for (const task of open.filter((t) => !waiting.has(t.executionId)))
    await store.closeTask(tx, task.id, 'cancelled', null, null, undefined);
  const have = new Set(open.map((t) => t.executionId));
  const fresh = result.waits.filter((w) => model.userTasks.has(w.elementId) && !have.has(w.executionId));
  for (const wait of fresh)
    if (wait.loopRoot) instance.runtime.loops = { ...instance.runtime.loops, [wait.executionId]: wait.loopRoot };
  const snapshot = fresh.some((w) => !w.loopIndex)
    ? JSON.stringify({ state: result.state, runtime: instance.runtime, at: new Date().toISOString() })
    : null;
  for (const wait of fresh) {
    const def = model.userTasks.get(wait.elementId)!;
    const vars = {
      ...instance.variables,
      ...(wait.loopIndex === undefined
        ? {}
        : { ...wait.local, loopCounter: wait.loopIndex, nrOfInstances: wait.loopCardinality }),
    };
    const priority = Number(text(def.priority, vars) ?? 50);
    const task: store.TaskRow = {
      id: randomUUID(),
      kind: def.kind,
      instanceId: instance.id,
      orgId: instance.orgId,
      elementId: wait.elementId,
      executionId: wait.executionId,
      name: text(def.name, vars),
      formKey: text(def.formKey, vars),
      candidateGroups: list(def.candidateGroups, vars),
      candidateUsers: list(def.candidateUsers, vars),
      assignee: text(def.assignee, vars),
      priority: Number.isFinite(priority) ? priority : 50,
      status: 'active',
      createdAt: new Date().toISOString(),
      claimedAt: null,
      completedAt: null,
      completedBy: null,
      result: null,
      // The next iteration of a loop keeps the task that led into the loop.
      previousElementId: from ? (from.elementId === wait.elementId ? from.previousElementId : from.elementId) : null,
      processKey: instance.processKey,
      businessKey: instance.businessKey,
    };
    await store.insertTask(tx, task, wait.loopIndex ? null : snapshot);
    await store.addHistory(tx, {
      instanceId: instance.id,
      elementId: wait.elementId,
      elementType: TASK_TYPES[def.kind],
      event: 'start',
      taskId: task.id,
    });
    step.created.push(task);
  }
}

/** A call activity starts the newest deployment of calledElement in the same organisation, once. */
async function callActivity(step: Step, parent: store.InstanceRow, wait: Wait) {
  const started = await step.tx.query(
    'select 1 from process_instance where parent_id = $1 and parent_execution_id = $2',
    [parent.id, wait.executionId],
  );
  if (started.length > 0) return;
  const deployment = await latestDeployment(step.tx, parent.orgId, wait.calledElement!);
  if (!deployment) throw badRequest('workflow.noDeployment', { key: wait.calledElement! });
  await startInstance(step, deployment, {
    businessKey: parent.businessKey,
    variables: parent.variables,
    startedBy: parent.startedBy,
    parentId: parent.id,
    parentExecutionId: wait.executionId,
  });
}

async function resumeParent(step: Step, child: store.InstanceRow) {
  const parent = await store.lockInstance(step.tx, child.parentId!);
  if (!parent || parent.status !== 'running') return;
  const executionId = child.parentExecutionId!;
  const elementId = executionId.replace(/_[^_]+$/, '');
  await advance(step, parent, signalWait(elementId, executionId));
}

async function startInstance(
  step: Step,
  deployment: DeploymentInfo,
  input: {
    businessKey: string | null;
    variables: Record<string, unknown>;
    startedBy: number | null;
    parentId?: string;
    parentExecutionId?: string;
  },
): Promise<string> {
  const id = randomUUID();
  await store.insertInstance(step.tx, {
    id,
    deploymentId: deployment.id,
    orgId: deployment.orgId,
    processKey: deployment.key,
    businessKey: input.businessKey,
    parentId: input.parentId ?? null,
    parentExecutionId: input.parentExecutionId ?? null,
    variables: input.variables,
    startedBy: input.startedBy,
  });
  const row = (await store.lockInstance(step.tx, id))!;
  await store.addHistory(step.tx, {
    instanceId: id,
    elementId: deployment.key,
    elementType: 'Process',
    event: 'start',
    userId: input.startedBy,
  });
  await advance(step, row);
  return id;
}

/**
 * Starts an instance at a start event that waited for a timer or a message: the engine, started,
 * waits there (as a catch of the new instance), and the action fires that catch at once.
 */
async function startAt(
  step: Step,
  deployment: DeploymentInfo,
  input: { businessKey: string | null; variables: Record<string, unknown>; startedBy: number | null },
  elementId: string,
  fire: (c: CatchRow) => Action,
  event: 'timer' | 'message',
): Promise<string> {
  const id = await startInstance(step, deployment, input);
  const instance = (await store.lockInstance(step.tx, id))!;
  await store.addHistory(step.tx, { instanceId: id, elementId, event, userId: input.startedBy });
  const waiting = (await catchesOf(step.tx, id)).find((c) => c.elementId === elementId);
  // A timer date already past does not wait: the engine went on at once.
  if (waiting) await advance(step, instance, fire(waiting));
  return id;
}

/**
 * Sends the instance back: the engine recovers the state saved when the target task was created
 * (bpmn-engine's own recover), every open task of the abandoned path is closed, and the target task
 * is open again. The task sent back is recorded as 'rollback', and the history names the target.
 */
async function sendBack(
  step: Step,
  caller: Caller,
  task: store.TaskRow,
  instance: store.InstanceRow,
  kind: RollbackKind,
  input: CompleteInput,
) {
  const { tx } = step;
  const target = await rollbackTarget(tx, task, kind, input.targetElementId);
  await store.closeTask(tx, task.id, 'rollback', caller.id, kind, input.variables ?? {});
  await store.addHistory(tx, {
    instanceId: instance.id,
    elementId: task.elementId,
    elementType: 'UserTask',
    event: 'rollback',
    taskId: task.id,
    userId: caller.id,
    result: kind,
    targetElementId: target.elementId,
  });
  instance.engineState = restartTimers(target.snapshot.state, target.snapshot.at);
  instance.runtime = structuredClone(target.snapshot.runtime);
  await advance(step, instance, undefined, {
    elementId: target.elementId,
    previousElementId: target.previousElementId,
  });
}

/**
 * A state put back by a rollback holds its timers as they were then: due long ago, they would fire at
 * once. Each timer the state holds is moved on by the time since the snapshot, so it runs its full time
 * again from the rollback, as when the task was first reached.
 */
function restartTimers(state: unknown, at: string | undefined): unknown {
  if (!at) return state;
  const shift = Date.now() - Date.parse(at);
  if (!(shift > 0)) return state;
  const moved = (value: unknown) => new Date(Date.parse(String(value)) + shift).toISOString();
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (!node || typeof node !== 'object') return node;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(node)) out[k] = walk(v);
    if ('timerType' in out && 'expireAt' in out) {
      out.expireAt = moved(out.expireAt);
      if ('startedAt' in out) out.startedAt = moved(out.startedAt);
    }
    return out;
  };
  return walk(state);
}

/** The form page a task shows, when its formKey names one of the organisation's pages (Activiti files may name others). */
export async function taskFormPage(db: Queryable, formPages: FormPages, task: store.TaskRow) {
  return task.formKey && /^\d+$/.test(task.formKey.trim())
    ? formPages.load(db, task.orgId, Number(task.formKey))
    : undefined;
}

/** What the recovery at start found: instances loaded, those whose tasks had to be brought in line, and those that failed. */
export interface RecoverySummary {
  checked: number;
  repaired: number;
  failed: { id: string; reason: string }[];
}

/**
 * What a completed task does outside its process: the specimen's lifecycle step its model names
 * (lims:specimenStep), run in the completion's transaction, so a step the specimen's state refuses
 * refuses the completion and nothing changes.
 */
export type TaskStep = (
  tx: Queryable,
  step: { name: string; task: string; businessKey: string | null; variables: Record<string, unknown> },
) => Promise<void>;

export class WorkflowEngine {
  constructor(
    private readonly db: Database,
    private readonly push: PushHub | undefined,
    private readonly formPages: FormPages,
  ) {}

  private async inStep<T>(fn: (step: Step) => Promise<T>, depth = 0): Promise<T> {
    const created: store.TaskRow[] = [];
    const signals: Thrown[] = [];
    const value = await this.db.transaction((tx) => fn({ tx, created, signals }));
    await this.announce(created);
    if (signals.length > 0) await this.broadcast(signals, depth + 1);
    return value;
  }

  /**
   * Signals thrown by a step, after its commit: each reaches the organisation's other running instances
   * waiting for it (the thrower's own catches the engine reached inside the step), each in its own step.
   */
  private async broadcast(signals: Thrown[], depth: number) {
    if (depth > SIGNAL_DEPTH) return;
    for (const signal of signals) {
      const rows = await waitingFor(this.db, signal.orgId, 'signal', signal.name, {});
      const targets = [...new Set(rows.map((r) => r.instanceId))].filter((id) => id !== signal.from);
      for (const id of targets)
        await this.reach(null, signal.orgId, 'signal', signal.name, id, {}, depth).catch((e: unknown) =>
          this.onTimerError?.({ instanceId: id, elementId: signal.name }, e),
        );
    }
  }

  /**
   * Alerts to the users of a new task's candidate groups and its candidate users (spec 4 push channel);
   * a task given to one person (an assignee, such as each member's task of a members loop) alerts them alone.
   */
  private async announce(tasks: store.TaskRow[]) {
    if (!this.push) return;
    for (const task of tasks) {
      const named = async (accounts: string[]) =>
        accounts.length
          ? (
              await this.db.query<{ id: number }>(
                'select id from app_user where org_id = $1 and (user_account = any($2::text[]) or id::text = any($2::text[]))',
                [task.orgId, accounts],
              )
            ).map((r) => r.id)
          : [];
      const users = task.assignee
        ? await named([task.assignee])
        : [
            ...(await store.usersInGroups(this.db, task.orgId, task.candidateGroups)),
            ...(await named(task.candidateUsers)),
          ];
      await this.push
        .pushToUsers(users, {
          type: 'info',
          title: '新任务',
          message: `${task.name ?? task.elementId}${task.businessKey ? ` · ${task.businessKey}` : ''}`,
        })
        .catch(() => undefined);
    }
  }

  /**
   * Starts the newest deployment of a key (or the named deployment). With `onePerBusinessKey`, a
   * second running instance for the same business key (a specimen's barcode) is refused.
   */
  async start(
    caller: Caller,
    input: {
      modelKey?: string;
      deploymentId?: string;
      businessKey?: string | null;
      variables?: Record<string, unknown>;
      onePerBusinessKey?: boolean;
    },
  ): Promise<string> {
    const { orgId } = caller;
    const deployment = input.deploymentId
      ? await deploymentInfo(this.db, input.deploymentId)
      : await latestDeployment(this.db, orgId, input.modelKey ?? '');
    if (!deployment || deployment.orgId !== orgId)
      throw badRequest('workflow.noDeployment', { key: input.modelKey ?? input.deploymentId ?? '' });
    return this.inStep(async (step) => {
      const businessKey = input.businessKey ?? null;
      if (input.onePerBusinessKey && businessKey) {
        // Two clicks at once would otherwise both find nothing running.
        await step.tx.query('select pg_advisory_xact_lock(hashtext($1), $2)', [
          `process_business:${businessKey}`,
          orgId,
        ]);
        const running = await step.tx.query(
          // Running or suspended: one completed or terminated (its specimen cancelled, then reinstated) is over.
          `select 1 from process_instance where org_id = $1 and business_key = $2 and status in ('running', 'suspended') and parent_id is null`,
          [orgId, businessKey],
        );
        if (running.length > 0) throw conflict('workflow.alreadyRunning');
      }
      // activiti:initiator names the variable that holds the starting user's account (`${initiator}` in the model).
      const { initiator } = await modelOf(step.tx, deployment.id);
      const id = await startInstance(step, deployment, {
        businessKey,
        variables: { ...(input.variables ?? {}), ...(initiator ? { [initiator]: caller.userAccount } : {}) },
        startedBy: caller.id,
      });
      await appendLog(step.tx, caller, {
        resource: 'processInstance',
        recordId: id,
        action: 'start',
        after: { key: deployment.key, version: deployment.version, businessKey },
      });
      return id;
    });
  }

  /**
   * Completes a task: pass / unpass (or no result) signal the task and the model's conditions route on
   * `result` and the form values; a rollback puts back the state of an earlier task instead. The form
   * values are checked against the task's form page first; a refusal changes nothing.
   */
  async complete(
    caller: Caller,
    taskId: string,
    input: CompleteInput,
    locale: Locale = 'zh-CN',
    taskStep?: TaskStep,
  ): Promise<void> {
    if (
      input.result !== undefined &&
      input.result !== '' &&
      !RESULTS.includes(input.result as (typeof RESULTS)[number])
    )
      throw badRequest('workflow.badResult', { result: String(input.result) });
    await this.inStep((step) => this.completeIn(step, caller, taskId, input, locale, taskStep));
  }

  /**
   * Tasks completed together with the same values and result (批量办理), in one step: all of them or none, a
   * refusal naming the task it came from. Sending back asks for each task's own target: not here.
   */
  async completeMany(
    caller: Caller,
    tasks: { id: string; label: string }[],
    input: { variables: Record<string, unknown>; result?: 'pass' | 'unpass' },
    locale: Locale,
    taskStep?: TaskStep,
  ): Promise<void> {
    await this.inStep(async (step) => {
      for (const task of tasks)
        await this.completeIn(step, caller, task.id, input, locale, taskStep).catch((e: unknown) => {
          throw namedRefusal(e, task.label, locale);
        });
    });
  }

  private async completeIn(
    step: Step,
    caller: Caller,
    taskId: string,
    input: CompleteInput,
    locale: Locale,
    taskStep?: TaskStep,
  ): Promise<void> {
    const { tx } = step;
    const found = await store.getTask(tx, taskId);
    if (!found || found.orgId !== caller.orgId) throw notFound();
    // Instance first, then task: a step that closes other tasks of the instance holds the instance,
    // so every completion takes the locks in that order and none waits on another in a circle.
    const instance = await store.lockInstance(tx, found.instanceId);
    const task = await store.lockTask(tx, taskId);
    // Deleted from the workflow manager while this waited for the lock.
    if (!instance || !task) throw notFound();
    if (task.status !== 'active') throw new ApiError(409, 'workflow.taskClosed');
    if (!(await mayHandle(tx, caller, task))) throw forbidden();
    if (instance.status === 'suspended') throw conflict('workflow.instanceSuspended');
    if (instance.status !== 'running') throw conflict('workflow.instanceNotRunning');
    const rollback = isRollback(input.result);
    const page = await taskFormPage(tx, this.formPages, task);
    if (page) this.formPages.check(page, input.variables ?? {}, locale, !rollback);
    instance.variables = {
      ...instance.variables,
      ...(input.variables ?? {}),
      ...(input.result ? { result: input.result } : {}),
    };
    await appendLog(tx, caller, {
      resource: 'workflowTask',
      recordId: task.id,
      action: rollback ?? 'complete',
      after: { result: input.result ?? null, variables: input.variables ?? {} },
    });
    if (rollback) return sendBack(step, caller, task, instance, rollback, input);
    if (task.owner) return resolveDelegated(tx, caller, task, instance);
    // A task that did not pass (a review sent back) has done no step of the specimen.
    const specimenStep = (await modelOf(tx, instance.deploymentId)).userTasks.get(task.elementId)?.specimenStep;
    if (specimenStep && taskStep && (input.result || 'pass') === 'pass')
      await taskStep(tx, {
        name: specimenStep,
        task: task.name ?? task.elementId,
        businessKey: instance.businessKey,
        variables: input.variables ?? {},
      });
    await store.closeTask(tx, task.id, 'complete', caller.id, input.result ?? null, input.variables ?? {});
    await store.addHistory(tx, {
      instanceId: instance.id,
      elementId: task.elementId,
      elementType: 'UserTask',
      event: 'complete',
      taskId: task.id,
      userId: caller.id,
      result: input.result ?? null,
    });
    const root = instance.runtime.loops?.[task.executionId];
    if (root) instance.runtime.completed[root] = (instance.runtime.completed[root] ?? 0) + 1;
    await advance(step, instance, signalWait(task.elementId, task.executionId), task);
  }

  /**
   * At server start every running instance is recovered (see recover), a page of ids at a time, each
   * in its own transaction under its row lock. An instance another process holds right now is being
   * advanced there and is passed over. One that cannot be recovered is named, and the rest go on;
   * a server that stops meanwhile ends the pass between two instances.
   */
  async recoverRunning(signal?: AbortSignal): Promise<RecoverySummary> {
    const summary: RecoverySummary = { checked: 0, repaired: 0, failed: [] };
    for (let after = ''; ;) {
      const page = await this.db.query<{ id: string }>(
        `select id from process_instance where status = 'running' and id > $1 order by id limit 200`,
        [after],
      );
      if (page.length === 0) return summary;
      for (const { id } of page) {
        if (signal?.aborted) return summary;
        try {
          const repaired = await this.inStep(async (step) => {
            const instance = await store.lockRunningInstance(step.tx, id);
            return instance ? recover(step, instance) : false;
          });
          summary.checked++;
          if (repaired) summary.repaired++;
        } catch (e) {
          summary.failed.push({
            id,
            reason: e instanceof ApiError ? String(e.vars.detail ?? e.key) : (e as Error).message,
          });
        }
      }
      after = page.at(-1)!.id;
    }
  }

  /**
   * Fires the timers due now (the database's clock), a page at a time. Each runs in its own step under
   * the instance's lock, taken without waiting: an instance another process is advancing (or firing)
   * is passed over and its timer, if still due, found by the next round. The step removes or moves the
   * catch row, so a timer fires once whichever process comes first. Answers how many fired.
   */
  async fireDueTimers(limit = 100): Promise<number> {
    let fired = 0;
    for (const start of await dueStartTimers(this.db, limit)) if (await this.fireStart(start)) fired++;
    const page = await dueTimers(this.db, limit);
    // A few instances at once: each step waits mostly on the database, and each holds only its own instance.
    const worker = async () => {
      for (let due = page.shift(); due; due = page.shift()) if (await this.fireOne(due)) fired++;
    };
    await Promise.all(Array.from({ length: TIMER_WORKERS }, worker));
    return fired;
  }

  private async fireOne(due: CatchRow): Promise<boolean> {
    return await this.inStep(async (step) => {
      const instance = await store.lockRunningInstance(step.tx, due.instanceId);
      if (!instance) return false;
      const [timer] = await stillDue(step.tx, due.instanceId, due.executionId);
      if (!timer) return false;
      await store.addHistory(step.tx, { instanceId: instance.id, elementId: timer.elementId, event: 'timer' });
      // Cancelling a timer's definition completes it: what bpmn-engine offers to fire a timer now.
      await advance(step, instance, (execution) =>
        execution.cancelActivity({ id: timer.elementId, executionId: timer.fireExecutionId ?? undefined }),
      );
      return true;
    }).catch((e: unknown) => {
      // A timer whose step fails (a condition that cannot be evaluated) stays due; the others go on.
      this.onTimerError?.(due, e);
      return false;
    });
  }

  /** Where the poller reports a timer whose step failed (the routes log it). */
  onTimerError?: (timer: Pick<CatchRow, 'instanceId' | 'elementId'>, error: unknown) => void;

  /**
   * Delivers a message (to the instances waiting for it, narrowed to one instance or business key) or
   * broadcasts a signal, with variables for the instance. Answers the instances it reached; none is
   * the spec's 400 naming the message, and changes nothing.
   */
  async deliver(
    caller: Caller,
    kind: 'message' | 'signal',
    name: string,
    input: { processInstanceId?: string | null; businessKey?: string | null; variables?: Record<string, unknown> },
  ): Promise<string[]> {
    const rows = await waitingFor(this.db, caller.orgId, kind, name, {
      instanceId: input.processInstanceId,
      businessKey: input.businessKey,
    });
    const instances = [...new Set(rows.map((r) => r.instanceId))];
    // A message meant for one instance starts nothing; otherwise it also starts the processes whose start event waits for it.
    const starts =
      kind === 'message' && !input.processInstanceId ? await messageStarts(this.db, caller.orgId, name) : [];
    if (instances.length === 0 && starts.length === 0)
      throw badRequest(kind === 'message' ? 'workflow.noMessageCatch' : 'workflow.noSignalCatch', { name });
    const reached: string[] = [];
    for (const id of instances)
      if (await this.reach(caller, caller.orgId, kind, name, id, input.variables ?? {})) reached.push(id);
    for (const start of starts) reached.push(await this.startByMessage(caller, start, name, input));
    return reached;
  }

  /** One instance reached by a message or signal, in its own step; false when it no longer waits for it. */
  private async reach(
    caller: Caller | null,
    orgId: number,
    kind: 'message' | 'signal',
    name: string,
    id: string,
    variables: Record<string, unknown>,
    depth = 0,
  ): Promise<boolean> {
    return this.inStep(async (step) => {
      const instance = await store.lockInstance(step.tx, id);
      if (!instance || instance.status !== 'running') return false;
      const [row] = await waitingFor(step.tx, orgId, kind, name, { instanceId: id });
      if (!row) return false;
      instance.variables = { ...instance.variables, ...variables };
      await store.addHistory(step.tx, {
        instanceId: id,
        elementId: row.elementId,
        event: kind,
        userId: caller?.id ?? null,
        result: name,
      });
      if (caller)
        await appendLog(step.tx, caller, {
          resource: 'processInstance',
          recordId: id,
          action: kind,
          after: { name, variables },
        });
      await advance(step, instance, (execution) => execution.signal({ id: row.ref ?? name }));
      return true;
    }, depth);
  }

  /** A message start event: a new instance of its deployment, started at that event with the message's variables. */
  private async startByMessage(
    caller: Caller,
    start: StartRow,
    name: string,
    input: { businessKey?: string | null; variables?: Record<string, unknown> },
  ): Promise<string> {
    return this.inStep(async (step) => {
      const deployment = await deploymentInfo(step.tx, start.deploymentId);
      if (!deployment) throw badRequest('workflow.noMessageCatch', { name });
      const id = await startAt(
        step,
        deployment,
        { businessKey: input.businessKey ?? null, variables: input.variables ?? {}, startedBy: caller.id },
        start.elementId,
        (c) => (execution) => execution.signal({ id: c.ref ?? name }),
        'message',
      );
      await appendLog(step.tx, caller, {
        resource: 'processInstance',
        recordId: id,
        action: 'start',
        after: { key: deployment.key, version: deployment.version, message: name },
      });
      return id;
    });
  }

  /**
   * A due timer start event: a new instance of its deployment, started at that event; the row is
   * re-armed for a cycle or removed, in the same transaction, so one process alone starts it.
   */
  private async fireStart(due: StartRow): Promise<boolean> {
    return this.inStep(async (step) => {
      const [row] = await lockDueStart(step.tx, due);
      if (!row) return false;
      const deployment = await deploymentInfo(step.tx, row.deploymentId);
      if (deployment)
        await startAt(
          step,
          deployment,
          { businessKey: null, variables: {}, startedBy: null },
          row.elementId,
          (c) => (execution) =>
            execution.cancelActivity({ id: c.elementId, executionId: c.fireExecutionId ?? undefined }),
          'timer',
        );
      await rearm(step.tx, row);
      return true;
    }).catch((e: unknown) => {
      this.onTimerError?.({ instanceId: `start of ${due.deploymentId}`, elementId: due.elementId }, e);
      return false;
    });
  }

  /**
   * Task administration (Activiti's unclaim, delegate, setAssignee): by an administrator or the task's
   * owner (its assignee, or who delegated it), each logged and in the history. A task given to an
   * account that does not exist is mended this way.
   */
  private async administer(
    caller: Caller,
    taskId: string,
    event: string,
    change: (tx: Queryable, task: store.TaskRow) => Promise<Record<string, unknown>>,
  ): Promise<void> {
    await this.db.transaction(async (tx) => {
      const found = await store.getTask(tx, taskId);
      if (!found || found.orgId !== caller.orgId) throw notFound();
      const task = (await store.lockTask(tx, taskId))!;
      if (task.status !== 'active') throw new ApiError(409, 'workflow.taskClosed');
      const owner = task.owner ?? task.assignee;
      if (!caller.roles.includes('admin') && owner !== caller.userAccount) throw forbidden();
      const after = await change(tx, task);
      await store.addHistory(tx, {
        instanceId: task.instanceId,
        elementId: task.elementId,
        elementType: TASK_TYPES[task.kind ?? 'user'],
        event,
        taskId: task.id,
        userId: caller.id,
        result: typeof after.assignee === 'string' ? after.assignee : null,
      });
      await appendLog(tx, caller, {
        resource: 'workflowTask',
        recordId: task.id,
        action: event,
        before: { assignee: task.assignee, owner: task.owner ?? null, candidateGroups: task.candidateGroups },
        after,
      });
    });
  }

  /** Back to the pool of its candidates: no assignee. */
  unclaim(caller: Caller, taskId: string) {
    return this.administer(caller, taskId, 'unclaim', async (tx, task) => {
      await tx.query('update workflow_task set assignee = null, owner = null, claimed_at = null where id = $1', [
        task.id,
      ]);
      return { assignee: null };
    });
  }

  /** Given to another account for now: their completion hands it back to the owner (Activiti's resolve). */
  delegate(caller: Caller, taskId: string, account: string) {
    return this.administer(caller, taskId, 'delegate', async (tx, task) => {
      await mustHaveAccount(tx, caller.orgId, account);
      const owner = task.owner ?? task.assignee ?? caller.userAccount;
      await tx.query('update workflow_task set assignee = $2, owner = $3 where id = $1', [task.id, account, owner]);
      return { assignee: account, owner };
    });
  }

  /** Given for good to another account, or offered to a position instead. */
  reassign(caller: Caller, taskId: string, to: { userAccount?: string | null; candidateGroup?: string | null }) {
    return this.administer(caller, taskId, 'reassign', async (tx, task) => {
      if (to.userAccount) {
        await mustHaveAccount(tx, caller.orgId, to.userAccount);
        await tx.query('update workflow_task set assignee = $2, owner = null, claimed_at = now() where id = $1', [
          task.id,
          to.userAccount,
        ]);
        return { assignee: to.userAccount };
      }
      if (!to.candidateGroup) throw badRequest('workflow.reassignTarget');
      await tx.query(
        `update workflow_task set assignee = null, owner = null, claimed_at = null, candidate_groups = $2, candidate_users = '{}' where id = $1`,
        [task.id, [to.candidateGroup]],
      );
      return { assignee: null, candidateGroups: [to.candidateGroup] };
    });
  }

  async claim(caller: Caller, taskId: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      const task = await store.lockTask(tx, taskId);
      if (!task || task.orgId !== caller.orgId) throw notFound();
      if (task.status !== 'active') throw new ApiError(409, 'workflow.taskClosed');
      // A candidate who comes second learns that someone was first; anyone else is simply refused.
      if (task.assignee && task.assignee !== caller.userAccount)
        throw (await isCandidate(tx, caller, task)) ? new ApiError(409, 'workflow.taskClaimed') : forbidden();
      if (!(await mayHandle(tx, caller, task))) throw forbidden();
      await tx.query('update workflow_task set assignee = $2, claimed_at = now() where id = $1', [
        task.id,
        caller.userAccount,
      ]);
      await appendLog(tx, caller, {
        resource: 'workflowTask',
        recordId: task.id,
        action: 'claim',
        after: { assignee: caller.userAccount },
      });
    });
  }
}

async function mustHaveAccount(db: Queryable, orgId: number, account: string) {
  const found = await db.query('select 1 from app_user where org_id = $1 and user_account = $2', [orgId, account]);
  if (found.length === 0) throw badRequest('workflow.noSuchAccount', { account });
}

/** A delegate's completion: the task goes back to its owner with the delegate's form values kept; the process does not move. */
async function resolveDelegated(tx: Queryable, caller: Caller, task: store.TaskRow, instance: store.InstanceRow) {
  await tx.query('update workflow_task set assignee = owner, owner = null where id = $1', [task.id]);
  await tx.query('update process_instance set variables = $2 where id = $1', [
    instance.id,
    JSON.stringify(instance.variables),
  ]);
  await store.addHistory(tx, {
    instanceId: instance.id,
    elementId: task.elementId,
    elementType: TASK_TYPES[task.kind ?? 'user'],
    event: 'resolve',
    taskId: task.id,
    userId: caller.id,
    result: task.owner,
  });
}

/**
 * Who may work a task: its assignee; a candidate user; a member of a candidate group (positions);
 * for a task that names nobody, the organisation's admins.
 */
/** A refusal of one task of a batch, naming the task: the batch answers it, and none of it is done. */
function namedRefusal(e: unknown, task: string, locale: Locale): unknown {
  const reason =
    e instanceof ApiError
      ? t(e.key, locale, e.vars)
      : e instanceof InvalidRecord
        ? e.errors.map((x) => x.message).join('；')
        : undefined;
  return reason === undefined ? e : badRequest('workflow.batchTask', { task, reason });
}

export async function mayHandle(db: Queryable, caller: Caller, task: store.TaskRow): Promise<boolean> {
  // A claimed or assigned task is its assignee's alone.
  if (task.assignee) return task.assignee === caller.userAccount;
  if (task.candidateGroups.length === 0 && task.candidateUsers.length === 0) return caller.roles.includes('admin');
  return isCandidate(db, caller, task);
}

async function isCandidate(db: Queryable, caller: Caller, task: store.TaskRow): Promise<boolean> {
  if (task.candidateUsers.includes(caller.userAccount) || task.candidateUsers.includes(String(caller.id))) return true;
  const groups = await store.groupsOf(db, caller.id);
  return task.candidateGroups.some((g) => groups.includes(g));
}
