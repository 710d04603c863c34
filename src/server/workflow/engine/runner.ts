import { EventEmitter } from 'node:events';
import { Engine } from 'bpmn-engine';
import { evaluate, ExpressionError, hasExpression } from '../../../shared/expression/index.js';
import type { PreparedModel } from './model.js';

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
}

export interface Wait {
  elementId: string;
  executionId: string;
  type: string;
  loopIndex: number | undefined;
  loopRoot: string | undefined;
  loopCardinality: number | undefined;
  calledElement: string | undefined;
}

export interface StepResult {
  ended: boolean;
  /** Saved state without the model source (model.ts keeps that once per deployment). */
  state: unknown;
  waits: Wait[];
  /** Elements the engine finished and sequence flows it took during this step, in order (history, the trace viewer's path). */
  passed: { elementId: string; event: 'end' | 'take' }[];
}

export type Action = (execution: { signal(message: object): void; cancelActivity(message: object): void }, engine: Engine) => void;

interface ApiLike {
  id: string;
  executionId: string;
  type?: string;
  content: Record<string, unknown>;
}

/** Multi-instance variables as Activiti names them, from the iteration's message and our counters. */
function loopVariables(content: Record<string, unknown> | undefined, runtime: Runtime): Record<string, unknown> {
  if (!content?.isMultiInstance) return {};
  const index = Number(content.index);
  const executionId = String(content.executionId ?? '');
  const root = executionId.slice(0, executionId.length - `_${index}`.length);
  const instances = Number(content.loopCardinality ?? 0);
  const completed = runtime.completed[root] ?? 0;
  return { loopCounter: index, nrOfInstances: instances, nrOfCompletedInstances: completed, nrOfActiveInstances: Math.max(instances - completed, 0) };
}

function expressionsFor(variables: Record<string, unknown>, runtime: Runtime) {
  return {
    isExpression: (text: unknown) => typeof text === 'string' && /^\$\{[\s\S]*\}$/.test(text.trim()),
    hasExpression: (text: unknown) => typeof text === 'string' && hasExpression(text),
    resolveExpression(text: unknown, context?: { content?: Record<string, unknown> }) {
      if (typeof text !== 'string') return text;
      return evaluate(text, { ...variables, ...loopVariables(context?.content, runtime) });
    },
  };
}

function waitOf(api: ApiLike): Wait {
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
  };
}

/** What failed in the engine, as the user reads it: the expression's own message when there is one. */
export class StepError extends Error {}

function describe(error: unknown): string {
  let e: unknown = error;
  for (let i = 0; i < 5 && e && typeof e === 'object'; i++) {
    if (e instanceof ExpressionError) return `${e.expression}: ${e.message}`;
    const next = (e as { source?: unknown; inner?: unknown; error?: unknown }).inner ?? (e as { error?: unknown }).error;
    if (!next) break;
    e = next;
  }
  return error instanceof Error ? error.message : String((error as { message?: unknown })?.message ?? error);
}

async function load(model: PreparedModel, saved: unknown, options: object, listener: EventEmitter, errors: unknown[]) {
  // Saved states carry no source: recover() then takes the engine's own sourceContext, the deployment's.
  const engine = new Engine({ name: model.key, sourceContext: model.context, ...options } as ConstructorParameters<typeof Engine>[0]);
  if (saved) engine.recover(structuredClone(saved) as Parameters<Engine['recover']>[0]);
  engine.on('error', (e: unknown) => errors.push(e));
  const execution = saved ? await engine.resume({ listener }) : await engine.execute({ listener });
  return { engine, execution };
}

export async function runStep(model: PreparedModel, saved: unknown, variables: Record<string, unknown>, runtime: Runtime, action?: Action): Promise<StepResult> {
  const options = { expressions: expressionsFor(variables, runtime), settings: { enableDummyService: false } };
  const errors: unknown[] = [];
  const passed: StepResult['passed'] = [];
  const listener = new EventEmitter();
  listener.on('activity.end', (api: ApiLike) => passed.push({ elementId: api.id, event: 'end' }));
  listener.on('flow.take', (api: ApiLike) => passed.push({ elementId: api.id, event: 'take' }));
  const reached = listenForWaits(listener);
  const { engine, execution } = await load(model, saved, options, listener, errors);
  if (errors.length === 0 && action) action(execution as unknown as Parameters<Action>[0], engine);
  if (errors.length > 0) throw new StepError(describe(errors[0]));
  if (engine.state === 'idle' || engine.state === 'stopped' || !execution.isRunning) return { ended: true, state: null, waits: [], passed };
  const state = (await engine.getState()) as { definitions: { source?: string }[] };
  for (const d of state.definitions) delete d.source;
  await engine.stop();
  // A new instance waits exactly where this run stopped; a step of a saved one asks a fresh recovery
  // of its new state, which also sees the waits from before the step: what a restarted server finds.
  if (!saved) return { ended: false, state, waits: reached(), passed };
  const probe = new EventEmitter();
  const waits = listenForWaits(probe);
  const again = await load(model, state, options, probe, errors);
  await again.engine.stop();
  if (errors.length > 0) throw new StepError(describe(errors[0]));
  return { ended: false, state, waits: waits(), passed };
}

/** The executions that wait at the end of a run: every wait (a user task, a call) not left again in the same run. */
function listenForWaits(listener: EventEmitter): () => Wait[] {
  const waits = new Map<string, Wait>();
  listener.on('wait', (api: ApiLike) => waits.set(api.executionId, waitOf(api)));
  listener.on('activity.call', (api: ApiLike) => waits.set(api.executionId, waitOf(api)));
  listener.on('activity.leave', (api: ApiLike) => waits.delete(api.executionId));
  return () => [...waits.values()];
}
