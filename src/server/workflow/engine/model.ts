import { createRequire } from 'node:module';
import { Engine } from 'bpmn-engine';
import { InclusiveGateway } from './inclusiveGateway.js';
import { splitList } from '../../../shared/workflow/labRules.js';
import { attr, type ModdleElement } from './validate.js';
import { standardPeople } from './dialects.js';

/**
 * A deployment made ready for bpmn-engine, once per process: Activiti files rarely say
 * isExecutable and often leave sequence flows without ids, which the engine needs; the designer's
 * sequenceFlowOrder decides which outgoing flow an exclusive gateway tries first. The engine's
 * serialized source context is built here once and shared by every engine of the deployment (new
 * instances and recovered ones), rather than parsed again for each step or kept in each saved state.
 */
const require = createRequire(import.meta.url);
const BpmnModdle = require('bpmn-moddle') as new () => { fromXML(xml: string): Promise<ModdleContext> };

interface ModdleContext {
  rootElement: ModdleElement;
  elementsById: Record<string, ModdleElement>;
  [key: string]: unknown;
}

export interface UserTaskDef {
  id: string;
  name: string | undefined;
  formKey: string | undefined;
  candidateGroups: string[];
  candidateUsers: string[];
  assignee: string | undefined;
  priority: string | undefined;
  /** The specimen's lifecycle step the task's completion performs (lims:specimenStep), e.g. startTesting. */
  specimenStep: string | undefined;
  /** A manual or receive task is opened as a task a person confirms, never left as a silent wait. */
  kind: 'user' | 'manual' | 'receive';
}

const TASK_KINDS: Record<string, UserTaskDef['kind']> = {
  'bpmn:UserTask': 'user',
  'bpmn:ManualTask': 'manual',
  'bpmn:ReceiveTask': 'receive',
};

/**
 * A multi-instance loop that iterates over a list rather than a count: Activiti's activiti:collection
 * with activiti:elementVariable, or, when the model gives neither a loopCardinality nor a collection,
 * the members of the task's candidate groups. bpmn-elements runs the loop over `collection`; the
 * runner resolves that text (runner.ts) once per visit of the loop.
 */
export interface LoopDef {
  /** The text bpmn-elements hands the expression handler for the list; a fixed marker for members. */
  collection: string;
  /** The name each iteration's item has in that iteration's scope. */
  elementVariable: string;
  members: boolean;
}

/** The collection text of a members loop: never evaluated, only recognised by the runner. */
export const MEMBERS = '${candidateGroupMembers}';

export interface PreparedModel {
  key: string;
  /** bpmn-engine's source context (moddle-context-serializer): its `sourceContext` option; read-only to the engine. */
  context: unknown;
  elements: Map<string, ModdleElement>;
  userTasks: Map<string, UserTaskDef>;
  /** Loops over a list, by element id. */
  loops: Map<string, LoopDef>;
  /** The variable a start event's activiti:initiator names: the starting user's account goes there. */
  initiator: string | undefined;
}

const cache = new Map<string, Promise<PreparedModel>>();

/** The prepared model of a deployment this process has prepared before, else undefined (read its XML then). */
export const preparedModel = (deploymentId: string): Promise<PreparedModel> | undefined => cache.get(deploymentId);

export function prepareModel(deploymentId: string, key: string, xml: string): Promise<PreparedModel> {
  let hit = cache.get(deploymentId);
  if (!hit) {
    hit = build(key, xml);
    hit.catch(() => cache.delete(deploymentId));
    cache.set(deploymentId, hit);
  }
  return hit;
}

async function parse(key: string, xml: string, loops: Map<string, LoopDef>): Promise<ModdleContext> {
  const ctx = await new BpmnModdle().fromXML(xml);
  // A recovered state finds its source by the definitions' id; bpmn-elements calls an unnamed one 'Def'.
  ctx.rootElement.id ??= 'Def';
  dataInputs(ctx);
  for (const p of ctx.rootElement.rootElements ?? []) {
    if (p.$type !== 'bpmn:Process') continue;
    // Only the deployed key runs; Activiti treats a process without isExecutable as executable.
    (p as { isExecutable?: boolean }).isExecutable = p.id === key;
    normalise(p, ctx, loops);
  }
  return ctx;
}

/**
 * The standard form of a list loop (loopDataInputRef and inputDataItem) written as Activiti's
 * collection and element variable: Activiti names a process variable in loopDataInputRef, which
 * moddle leaves as an unresolved reference (or resolves to a data input or property of that id).
 */
function dataInputs(ctx: ModdleContext): void {
  const refs = (ctx.references as { element: ModdleElement; property: string; id: string }[] | undefined) ?? [];
  const named = new Map<ModdleElement, string>();
  for (const r of refs) if (r.property === 'bpmn:loopDataInputRef') named.set(r.element, r.id);
  for (const el of Object.values(ctx.elementsById)) {
    const loop = el.loopCharacteristics as
      (ModdleElement & { loopDataInputRef?: ModdleElement; inputDataItem?: ModdleElement }) | undefined;
    if (!loop || loop.$type !== 'bpmn:MultiInstanceLoopCharacteristics' || attr(loop, 'collection')) continue;
    const list = loop.loopDataInputRef ? (loop.loopDataInputRef.name ?? loop.loopDataInputRef.id) : named.get(loop);
    if (!list) continue;
    loop.$attrs!['activiti:collection'] = list;
    loop.$attrs!['activiti:elementVariable'] = loop.inputDataItem?.name ?? loop.inputDataItem?.id ?? 'item';
  }
}

function normalise(scope: ModdleElement, ctx: ModdleContext, loops: Map<string, LoopDef>): void {
  const elements = scope.flowElements ?? [];
  let n = 0;
  for (const el of elements) {
    const loop = listLoop(el);
    if (loop && el.id) loops.set(el.id, loop);
    if (el.$type === 'bpmn:SequenceFlow' && !el.id) {
      const src = (el.sourceRef as ModdleElement | undefined)?.id ?? 'x';
      const dst = (el.targetRef as ModdleElement | undefined)?.id ?? 'x';
      el.id = `${src}__${dst}__${n++}`;
      ctx.elementsById[el.id] = el;
    }
    if (el.$type === 'bpmn:SubProcess') normalise(el, ctx, loops);
  }
  // Flows named in a gateway's sequenceFlowOrder move, in that order, before its other outgoing flows.
  const rank = new Map<string, number>();
  for (const el of elements) splitList(attr(el, 'sequenceFlowOrder')).forEach((id, i) => rank.set(id, i));
  if (rank.size > 0) {
    const position = (el: ModdleElement, i: number) => (el.id && rank.has(el.id) ? -1e6 + rank.get(el.id)! : i);
    const order = new Map(elements.map((el, i) => [el, position(el, i)]));
    elements.sort((a, b) => order.get(a)! - order.get(b)!);
  }
}

/**
 * The list a multi-instance loop runs over, written where bpmn-elements reads it (the loop's own
 * `collection` and `elementVariable`): Activiti names a variable bare or as `${name}`. A user task
 * whose loop gives neither count nor list runs once per member of its candidate groups.
 */
function listLoop(el: ModdleElement): LoopDef | undefined {
  const loop = el.loopCharacteristics as
    | (ModdleElement & { loopCardinality?: { body?: string }; collection?: string; elementVariable?: string })
    | undefined;
  if (loop?.$type !== 'bpmn:MultiInstanceLoopCharacteristics') return undefined;
  const written = attr(loop, 'collection')?.trim();
  let def: LoopDef | undefined;
  if (written) {
    const collection = /^[A-Za-z_$][\w$]*$/.test(written) ? `\${${written}}` : written;
    def = { collection, elementVariable: attr(loop, 'elementVariable')?.trim() || 'item', members: false };
  } else if (!loop.loopCardinality?.body?.trim() && el.$type === 'bpmn:UserTask' && attr(el, 'candidateGroups')) {
    // Each member's own task: the element variable names the member, and is the task's assignee unless the model names one.
    def = { collection: MEMBERS, elementVariable: attr(loop, 'elementVariable')?.trim() || 'assignee', members: true };
  }
  if (def) {
    loop.collection = def.collection;
    loop.elementVariable = def.elementVariable;
  }
  return def;
}

async function build(key: string, xml: string): Promise<PreparedModel> {
  const loops = new Map<string, LoopDef>();
  const first = await parse(key, xml, loops);
  // The element types are bound into the source context here, so every engine built from it joins inclusive gateways.
  const engine = new Engine({
    name: key,
    moddleContext: first,
    elements: { InclusiveGateway },
  } as ConstructorParameters<typeof Engine>[0]);
  const [definition] = await engine.getDefinitions();
  const context = (definition as unknown as { environment: { options: { source: unknown } } }).environment.options
    .source;
  const elements = new Map<string, ModdleElement>();
  const collect = (scope: ModdleElement) => {
    for (const el of scope.flowElements ?? []) {
      if (el.id) elements.set(el.id, el);
      if (el.$type === 'bpmn:SubProcess') collect(el);
    }
  };
  const processEl = (first.rootElement.rootElements ?? []).find((p) => p.id === key);
  if (processEl) collect(processEl);
  const userTasks = new Map<string, UserTaskDef>();
  for (const el of elements.values()) {
    const kind = TASK_KINDS[el.$type];
    if (!kind || !el.id) continue;
    const people = standardPeople(el);
    userTasks.set(el.id, {
      id: el.id,
      name: el.name,
      formKey: attr(el, 'formKey'),
      candidateGroups: [...splitList(attr(el, 'candidateGroups')), ...people.candidateGroups],
      candidateUsers: [...splitList(attr(el, 'candidateUsers')), ...people.candidateUsers],
      assignee:
        attr(el, 'assignee') ??
        people.assignee ??
        (loops.get(el.id)?.members ? `\${${loops.get(el.id)!.elementVariable}}` : undefined),
      priority: attr(el, 'priority'),
      specimenStep: attr(el, 'specimenStep'),
      kind,
    });
  }
  const starts = [...elements.values()].filter((el) => el.$type === 'bpmn:StartEvent');
  const initiator = starts.map((el) => attr(el, 'initiator')?.trim()).find(Boolean);
  return { key, context, elements, userTasks, loops, initiator };
}
