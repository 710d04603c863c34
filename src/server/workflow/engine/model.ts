import { createRequire } from 'node:module';
import { Engine } from 'bpmn-engine';
import { attr, splitList, type ModdleElement } from './validate.js';

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
}

export interface PreparedModel {
  key: string;
  /** bpmn-engine's source context (moddle-context-serializer): its `sourceContext` option; read-only to the engine. */
  context: unknown;
  elements: Map<string, ModdleElement>;
  userTasks: Map<string, UserTaskDef>;
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

async function parse(key: string, xml: string): Promise<ModdleContext> {
  const ctx = await new BpmnModdle().fromXML(xml);
  // A recovered state finds its source by the definitions' id; bpmn-elements calls an unnamed one 'Def'.
  ctx.rootElement.id ??= 'Def';
  for (const p of ctx.rootElement.rootElements ?? []) {
    if (p.$type !== 'bpmn:Process') continue;
    // Only the deployed key runs; Activiti treats a process without isExecutable as executable.
    (p as { isExecutable?: boolean }).isExecutable = p.id === key;
    normalise(p, ctx);
  }
  return ctx;
}

function normalise(scope: ModdleElement, ctx: ModdleContext): void {
  const elements = scope.flowElements ?? [];
  let n = 0;
  for (const el of elements) {
    if (el.$type === 'bpmn:SequenceFlow' && !el.id) {
      const src = (el.sourceRef as ModdleElement | undefined)?.id ?? 'x';
      const dst = (el.targetRef as ModdleElement | undefined)?.id ?? 'x';
      el.id = `${src}__${dst}__${n++}`;
      ctx.elementsById[el.id] = el;
    }
    if (el.$type === 'bpmn:SubProcess') normalise(el, ctx);
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

async function build(key: string, xml: string): Promise<PreparedModel> {
  const first = await parse(key, xml);
  const engine = new Engine({ name: key, moddleContext: first });
  const [definition] = await engine.getDefinitions();
  const context = (definition as unknown as { environment: { options: { source: unknown } } }).environment.options.source;
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
    if (el.$type !== 'bpmn:UserTask' || !el.id) continue;
    userTasks.set(el.id, {
      id: el.id,
      name: el.name,
      formKey: attr(el, 'formKey'),
      candidateGroups: splitList(attr(el, 'candidateGroups')),
      candidateUsers: splitList(attr(el, 'candidateUsers')),
      assignee: attr(el, 'assignee'),
      priority: attr(el, 'priority'),
    });
  }
  return { key, context, elements, userTasks };
}
