import { EventEmitter } from 'node:events';
import { Engine } from 'bpmn-engine';
import { Timers } from 'bpmn-elements';
import {
  evaluate,
  ExpressionError,
  hasExpression,
  parseBody,
  splitTemplate,
} from '../../../shared/expression/index.js';
import type { LoopDef, PreparedModel } from './model.js';
import { splitList } from '../../../shared/workflow/labRules.js';

/**
 * One step of an instance on bpmn-engine: recover the saved state (or start), apply an action such as
 * signalling a user task, and report what the engine did. The engine never keeps anything between
 * steps; the caller writes the returned state, in the same transaction as the task rows.
 */
export interface Runtime {
  /** Completed iterations per multi-instance root execution (nrOfCompletedInstances). */
  completed: Record<string, number>;
  /** The multi-instance root of each open iteration's execution. */
  loops?: Record<string, string>;
  /**
   * The list each visit of a list loop runs over (by its root execution), fixed when the loop starts as
   * in Activiti: bpmn-elements asks for it again at every recovery, when variables or staff may differ.
   */
  collections?: Record<string, unknown[]>;
  /** Iterations of sub-process loops already counted as completed (their execution ids). */
  counted?: string[];
}

/** What a step reads besides the saved state: the instance's variables and counters, and the staff its loops may need. */
export interface Scope {
  variables: Record<string, unknown>;
  runtime: Runtime;
  /** User accounts per members loop (model.ts), or why they could not be found; read only if such a loop starts. */
  members?: Map<string, string[] | Error>;
}

export interface Wait {
  elementId: string;
  executionId: string;
  type: string;
  loopIndex: number | undefined;
  loopRoot: string | undefined;
  loopCardinality: number | undefined;
  calledElement: string | undefined;
  /** Variables of the iteration's own scope: a list loop's element variable. */
  local: Record<string, unknown>;
  /** A wait for a timer, a message or a signal rather than a person: kept in workflow_catch. */
  catch?: Catch;
}

export interface Catch {
  kind: 'timer' | 'message' | 'signal';
  /** The message's or signal's name (and its id in the model): what a correlation names. */
  name?: string;
  ref?: string;
  /** When a timer is due (ISO), and the engine execution of its definition, which firing cancels. */
  due?: string;
  fireExecutionId?: string;
}

export interface StepResult {
  ended: boolean;
  /** Saved state without the model source (model.ts keeps that once per deployment). */
  state: unknown;
  waits: Wait[];
  /** Elements the engine finished and sequence flows it took during this step, in order (history, the trace viewer's path). */
  passed: { elementId: string; event: 'end' | 'take' }[];
  /** Signals thrown during this step (by name, and id in the model): the engine delivers them inside the instance, the caller to the others. */
  signals: { name: string; ref: string }[];
}

export type Action = (
  execution: { signal(message: object): void; cancelActivity(message: object): void },
  engine: Engine,
  /** The waiting activities by execution id: signalled through their own api, an error they lead to is caught. */
  waiting: Map<string, { signal(message?: object): void }>,
) => void;

/** Signals one waiting execution through its own api (a definition-wide signal loses an error end event's throw on the way). */
export const signalWait =
  (elementId: string, executionId: string): Action =>
  (execution, _engine, waiting) => {
    const api = waiting.get(executionId);
    if (api) api.signal();
    else execution.signal({ id: elementId, executionId });
  };

interface ApiLike {
  id: string;
  executionId: string;
  type?: string;
  content: Record<string, unknown>;
}

/** The element variable of a list loop's iteration, as bpmn-elements put it in the iteration's message. */
function localOf(model: PreparedModel, content: Record<string, unknown> | undefined): Record<string, unknown> {
  const loop = content?.isMultiInstance ? model.loops.get(String(content.id)) : undefined;
  return loop && loop.elementVariable in content! ? { [loop.elementVariable]: content![loop.elementVariable] } : {};
}

/** Multi-instance variables as Activiti names them, from the iteration's message and our counters. */
function loopVariables(
  model: PreparedModel,
  content: Record<string, unknown> | undefined,
  runtime: Runtime,
): Record<string, unknown> {
  if (!content?.isMultiInstance) return {};
  const index = Number(content.index);
  const executionId = String(content.executionId ?? '');
  const root = executionId.slice(0, executionId.length - `_${index}`.length);
  const instances = Number(content.loopCardinality ?? 0);
  const completed = runtime.completed[root] ?? 0;
  return {
    ...localOf(model, content),
    loopCounter: index,
    nrOfInstances: instances,
    nrOfCompletedInstances: completed,
    nrOfActiveInstances: Math.max(instances - completed, 0),
  };
}

/**
 * A list loop's items: a list variable as it is, text as its comma-separated parts (a form's
 * multi-select may keep either). The evaluator gives only plain values, so `${name}` is read here.
 */
function listOf(loop: LoopDef, id: string, scope: Scope): unknown[] {
  if (loop.members) {
    const members = scope.members?.get(id);
    if (members instanceof Error) throw members;
    if (!members?.length)
      throw new Error(`${id}: no user holds the task's candidate groups, so there is no one to give its tasks to`);
    return members;
  }
  const parts = splitTemplate(loop.collection.trim());
  const only = parts.length === 1 && 'expr' in parts[0]! ? parseBody(parts[0].expr, loop.collection) : undefined;
  let value: unknown;
  if (only?.type === 'Identifier') {
    const name = String(only.name);
    if (!Object.prototype.hasOwnProperty.call(scope.variables, name))
      throw new ExpressionError(`variable "${name}" is not defined`, loop.collection);
    value = scope.variables[name];
  } else value = evaluate(loop.collection, scope.variables);
  if (Array.isArray(value)) return value;
  if (typeof value === 'string') return splitList(value);
  throw new ExpressionError(`the collection gives ${JSON.stringify(value)}, not a list`, loop.collection);
}

/**
 * A loop of anything but user tasks (a sub-process) has no completion of ours to count: the engine
 * asks its completion condition once as each iteration ends, which is counted here, once per iteration.
 */
function countIteration(
  model: PreparedModel,
  text: string,
  content: Record<string, unknown> | undefined,
  runtime: Runtime,
) {
  if (!content?.isMultiInstance || content.isRootScope || model.userTasks.has(String(content.id))) return;
  const loop = model.elements.get(String(content.id))?.loopCharacteristics;
  if (loop?.completionCondition?.body?.trim() !== text.trim()) return;
  const executionId = String(content.executionId ?? '');
  if (runtime.counted?.includes(executionId)) return;
  const index = Number(content.index);
  const root = executionId.slice(0, executionId.length - `_${index}`.length);
  runtime.counted = [...(runtime.counted ?? []), executionId];
  runtime.completed[root] = (runtime.completed[root] ?? 0) + 1;
}

function expressionsFor(model: PreparedModel, scope: Scope) {
  const { variables, runtime } = scope;
  return {
    isExpression: (text: unknown) => typeof text === 'string' && /^\$\{[\s\S]*\}$/.test(text.trim()),
    hasExpression: (text: unknown) => typeof text === 'string' && hasExpression(text),
    resolveExpression(text: unknown, context?: { content?: Record<string, unknown> }) {
      if (typeof text !== 'string') return text;
      const content = context?.content;
      // A list loop asks for its list with the message of the loop as a whole (its root scope, not an iteration's).
      const loop = content?.isRootScope ? model.loops.get(String(content.id)) : undefined;
      if (loop && text === loop.collection) {
        const root = String(content!.executionId);
        const list = runtime.collections?.[root] ?? listOf(loop, String(content!.id), scope);
        runtime.collections = { ...runtime.collections, [root]: list };
        return list;
      }
      countIteration(model, text, content, runtime);
      return evaluate(text, { ...variables, ...loopVariables(model, content, runtime) });
    },
  };
}

function waitOf(model: PreparedModel, api: ApiLike): Wait {
  const c = api.content;
  const multi = Boolean(c.isMultiInstance);
  const index = multi ? Number(c.index) : undefined;
  return {
    elementId: api.id,
    executionId: api.executionId,
    type: String(c.type ?? api.type ?? ''),
    loopIndex: index,
    loopRoot: multi ? api.executionId.slice(0, api.executionId.length - `_${index}`.length) : undefined,
    loopCardinality: multi ? Number(c.loopCardinality) : undefined,
    calledElement: typeof c.calledElement === 'string' ? c.calledElement : undefined,
    local: localOf(model, c),
  };
}

/** What failed in the engine, as the user reads it: the expression's own message when there is one. */
export class StepError extends Error {}

function describe(error: unknown): string {
  let e: unknown = error;
  for (let i = 0; i < 5 && e && typeof e === 'object'; i++) {
    if (e instanceof ExpressionError) return `${e.expression}: ${e.message}`;
    const next =
      (e as { source?: unknown; inner?: unknown; error?: unknown }).inner ?? (e as { error?: unknown }).error;
    if (!next) break;
    e = next;
  }
  return error instanceof Error ? error.message : String((error as { message?: unknown })?.message ?? error);
}

async function load(model: PreparedModel, saved: unknown, options: object, listener: EventEmitter, errors: unknown[]) {
  // Saved states carry no source: recover() then takes the engine's own sourceContext, the deployment's.
  const engine = new Engine({ name: model.key, sourceContext: model.context, ...options } as ConstructorParameters<
    typeof Engine
  >[0]);
  if (saved) engine.recover(structuredClone(saved) as Parameters<Engine['recover']>[0]);
  engine.on('error', (e: unknown) => errors.push(e));
  const execution = saved ? await engine.resume({ listener }) : await engine.execute({ listener });
  return { engine, execution };
}

const never = () => undefined;

export async function runStep(
  model: PreparedModel,
  saved: unknown,
  scope: Scope,
  action?: Action,
): Promise<StepResult> {
  const options = {
    expressions: expressionsFor(model, scope),
    settings: { enableDummyService: false },
    // No timer runs in the process: a waiting timer is kept in the database and fired by the poller (timers.ts).
    timers: new Timers({ setTimeout: never as unknown as typeof setTimeout, clearTimeout: () => undefined }),
  };
  const errors: unknown[] = [];
  const passed: StepResult['passed'] = [];
  const listener = new EventEmitter();
  listener.on('activity.end', (api: ApiLike) => passed.push({ elementId: api.id, event: 'end' }));
  listener.on('flow.take', (api: ApiLike) => passed.push({ elementId: api.id, event: 'take' }));
  const signals: StepResult['signals'] = [];
  listener.on('activity.signal', (api: ApiLike) => {
    const signal = api.content.message as { id?: string; name?: string } | undefined;
    if (api.content.state === 'throw' && signal?.id) signals.push({ name: signal.name ?? signal.id, ref: signal.id });
  });
  const reached = listenForWaits(model, listener);
  const waiting = new Map<string, { signal(message?: object): void }>();
  listener.on('wait', (api: ApiLike & { signal(message?: object): void }) => waiting.set(api.executionId, api));
  const { engine, execution } = await load(model, saved, options, listener, errors);
  if (errors.length === 0 && action) action(execution as unknown as Parameters<Action>[0], engine, waiting);
  if (errors.length > 0) throw new StepError(describe(errors[0]));
  if (engine.state === 'idle' || engine.state === 'stopped' || !execution.isRunning)
    return { ended: true, state: null, waits: [], passed, signals };
  const state = (await engine.getState()) as { definitions: { source?: string }[] };
  for (const d of state.definitions) delete d.source;
  await engine.stop();
  // A new instance, or a saved one only recovered (no action), waits exactly where this run stopped; a
  // step of a saved one asks a fresh recovery of its new state, which also sees the waits from before
  // the step: what a restarted server finds.
  if (!saved || !action) return { ended: false, state, waits: reached(), passed, signals };
  const probe = new EventEmitter();
  const waits = listenForWaits(model, probe);
  const again = await load(model, state, options, probe, errors);
  await again.engine.stop();
  if (errors.length > 0) throw new StepError(describe(errors[0]));
  return { ended: false, state, waits: waits(), passed, signals };
}

/** The executions that wait at the end of a run: every wait (a user task, a call) not left again in the same run. */
function listenForWaits(model: PreparedModel, listener: EventEmitter): () => Wait[] {
  const waits = new Map<string, Wait>();
  listener.on('wait', (api: ApiLike) => waits.set(api.executionId, withCatch(waitOf(model, api), api)));
  listener.on('activity.timer', (api: ApiLike) => {
    const parent = (api.content.parent as { executionId?: string } | undefined)?.executionId ?? api.executionId;
    const due = api.content.expireAt
      ? new Date(api.content.expireAt as string).toISOString()
      : new Date().toISOString();
    const wait = { ...waitOf(model, api), executionId: parent, type: 'bpmn:TimerEventDefinition' };
    waits.set(parent, { ...wait, catch: { kind: 'timer', due, fireExecutionId: api.executionId } });
  });
  listener.on('activity.call', (api: ApiLike) => waits.set(api.executionId, waitOf(model, api)));
  listener.on('activity.leave', (api: ApiLike) => waits.delete(api.executionId));
  return () => [...waits.values()];
}

/** A message or signal catch says which one it waits for; a user task's wait carries none. */
function withCatch(wait: Wait, api: ApiLike): Wait {
  const c = api.content;
  const kind =
    c.type === 'bpmn:MessageEventDefinition' ? 'message' : c.type === 'bpmn:SignalEventDefinition' ? 'signal' : null;
  if (!kind) return wait;
  const def = (c.message ?? c.signal) as { id?: string; name?: string } | undefined;
  return { ...wait, catch: { kind, name: def?.name ?? def?.id, ref: def?.id } };
}
