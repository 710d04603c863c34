import { createRequire } from 'node:module';
import { checkExpression } from '../../../shared/expression/index.js';
import { DESIGNER_EXPORTER, labRuleBreaks, type LabRule } from '../../../shared/workflow/labRules.js';
import { badRequest } from '../../kernel/http/envelope.js';
import { conditionProblem, eventProblems, uncaughtErrors } from './eventRules.js';

/**
 * What a model must satisfy before it is deployed: the structural rules of bpmnlint that hold for
 * executable Activiti models (a diagram without layout or labels still runs, so those rules are off),
 * and our own: only elements our engine runs, every expression
 * parses, a default flow carries no condition, a call activity names what it calls. A model saved by
 * our designer must also keep the lab's rules its live check shows (shared/workflow/labRules.ts says
 * why models from elsewhere need not).
 */
const require = createRequire(import.meta.url);
// bpmn-moddle and bpmnlint ship CommonJS without types; the few members used here are typed below.
const BpmnModdle = require('bpmn-moddle') as new () => {
  fromXML(xml: string, type: string): Promise<{ rootElement: unknown }>;
};
const { Linter } = require('bpmnlint') as {
  Linter: new (o: object) => { lint(root: unknown): Promise<Record<string, { message: string; id?: string }[]>> };
};
const NodeResolver = require('bpmnlint/lib/resolver/node-resolver') as new () => object;

const LINT_RULES = [
  'no-disconnected',
  'start-event-required',
  'end-event-required',
  'single-blank-start-event',
  'conditional-flows',
  'no-complex-gateway',
  'single-event-definition',
];
// A new linter per model: some rules keep what they saw, so a shared one reports another model's flows.
const newLinter = () =>
  new Linter({
    config: { rules: Object.fromEntries(LINT_RULES.map((r) => [r, 'error'])) },
    resolver: new NodeResolver(),
  });

/** Element types the engine runs; anything else would need code the lab cannot see in the model. */
const SUPPORTED = new Set([
  'bpmn:StartEvent',
  'bpmn:EndEvent',
  'bpmn:IntermediateThrowEvent',
  'bpmn:UserTask',
  'bpmn:Task',
  'bpmn:ManualTask',
  'bpmn:ReceiveTask',
  'bpmn:BoundaryEvent',
  'bpmn:IntermediateCatchEvent',
  'bpmn:EventBasedGateway',
  'bpmn:ExclusiveGateway',
  'bpmn:InclusiveGateway',
  'bpmn:ParallelGateway',
  'bpmn:SequenceFlow',
  'bpmn:SubProcess',
  'bpmn:CallActivity',
  'bpmn:TextAnnotation',
  'bpmn:Association',
  'bpmn:Group',
  'bpmn:DataObject',
  'bpmn:DataObjectReference',
  'bpmn:DataStoreReference',
  'bpmn:LaneSet',
]);

export interface ModdleElement {
  $type: string;
  /** Definitions: the tool that wrote the file (our designer stamps DESIGNER_EXPORTER). */
  exporter?: string;
  id?: string;
  name?: string;
  $attrs?: Record<string, string>;
  flowElements?: ModdleElement[];
  rootElements?: ModdleElement[];
  conditionExpression?: { body?: string };
  default?: ModdleElement;
  loopCharacteristics?: { $type: string; loopCardinality?: { body?: string }; completionCondition?: { body?: string } };
  calledElement?: string;
  eventDefinitions?: ModdleElement[];
  [key: string]: unknown;
}

/**
 * Activiti extension attributes arrive as `activiti:x` in $attrs (no activiti moddle package is loaded).
 * Camunda's and Flowable's attributes of the same names mean the same (assignee, candidateUsers,
 * candidateGroups, formKey, initiator...), so a model drawn in their tools reads as our Activiti dialect;
 * dialects.ts tells the user what was read so and what was left out.
 */
export const attr = (el: ModdleElement, name: string): string | undefined =>
  el.$attrs?.[`activiti:${name}`] ??
  el.$attrs?.[`lims:${name}`] ??
  el.$attrs?.[`camunda:${name}`] ??
  el.$attrs?.[`flowable:${name}`];

export async function readModel(xml: string): Promise<ModdleElement> {
  try {
    const { rootElement } = await new BpmnModdle().fromXML(xml, 'bpmn:Definitions');
    const definitions = rootElement as ModdleElement;
    for (const p of definitions.rootElements ?? []) linkFlows(p);
    return definitions;
  } catch (e) {
    throw badRequest('workflow.invalidModel', {
      detail: (e instanceof Error ? e.message : String(e)).split('\n')[0]!.slice(0, 200),
    });
  }
}

/**
 * Activiti files often omit <incoming>/<outgoing>; moddle then leaves those lists empty, and bpmnlint
 * would call every element disconnected. They are rebuilt from the flows' source and target.
 */
function linkFlows(scope: ModdleElement): void {
  for (const el of scope.flowElements ?? []) {
    // Every container of flows (sub-process, transaction, ad-hoc sub-process) has its own.
    if (el.flowElements) linkFlows(el);
    if (el.$type !== 'bpmn:SequenceFlow') continue;
    const add = (node: unknown, list: 'incoming' | 'outgoing') => {
      if (!node || typeof node !== 'object') return;
      const n = node as Record<string, unknown>;
      const items = (n[list] as unknown[] | undefined) ?? [];
      if (!items.includes(el)) n[list] = [...items, el];
    };
    add(el.sourceRef, 'outgoing');
    add(el.targetRef, 'incoming');
  }
}

/** Every problem of the model, each as "element: what is wrong"; empty when it may be deployed. */
/**
 * @param specimenSteps the specimen transitions a task may perform (lims:specimenStep); a task naming
 *   another would fail at every completion, so the model is refused at deploy instead.
 */
export async function modelProblems(
  definitions: ModdleElement,
  key: string,
  specimenSteps: readonly string[] = [],
): Promise<string[]> {
  const problems: string[] = [];
  const processes = (definitions.rootElements ?? []).filter((e) => e.$type === 'bpmn:Process');
  if (!processes.some((p) => p.id === key)) problems.push(`no process with id "${key}"`);
  const main = processes.find((p) => p.id === key);
  if (main?.isExecutable === false)
    problems.push(
      `${key}: the process is marked isExecutable="false" (not meant to run); mark it executable to deploy it`,
    );
  const designed = definitions.exporter === DESIGNER_EXPORTER;
  for (const p of processes) walk(p, problems, designed);
  for (const p of processes) problems.push(...uncaughtErrors(p, (el) => el.id ?? el.$type));
  for (const p of processes) problems.push(...stepProblems(p, specimenSteps));
  // What the engine cannot run comes first; the drawing's structural problems after it.
  const reports = await newLinter().lint(definitions);
  for (const [rule, list] of Object.entries(reports))
    for (const r of list) problems.push(`${r.id ?? '?'}: ${r.message} (${rule})`);
  return problems;
}

/** The lab rules in the words of the deploy message; the designer shows the same rules in the lab's words. */
const LAB_RULE_TEXT: Record<LabRule, string> = {
  'user-task-form': 'the user task has no form (formKey)',
  'user-task-groups': 'the user task has no positions (candidateGroups)',
  'gateway-flow-order': 'the conditional flows of the gateway are not ordered (flow order)',
};

function walk(scope: ModdleElement, problems: string[], designed: boolean): void {
  for (const el of scope.flowElements ?? []) {
    const where = el.id ?? el.$type;
    if (!SUPPORTED.has(el.$type))
      problems.push(`${where}: ${el.$type.replace('bpmn:', '')} is not supported by the engine`);
    problems.push(...eventProblems(el, where));
    if (el.$type === 'bpmn:SequenceFlow') {
      const problem = conditionProblem(el, where);
      if (problem) problems.push(problem);
    }
    checkElement(el, where, problems);
    if (designed)
      for (const rule of labRuleBreaks(el, (node, name) => attr(node as ModdleElement, name)))
        problems.push(`${where}: ${LAB_RULE_TEXT[rule]} (${rule})`);
    if (el.flowElements) walk(el, problems, designed);
  }
}

function stepProblems(scope: ModdleElement, steps: readonly string[]): string[] {
  return (scope.flowElements ?? []).flatMap((el) => {
    const step = attr(el, 'specimenStep');
    const own =
      step !== undefined && !steps.includes(step)
        ? [`${el.id ?? el.$type}: "${step}" is not a specimen step a task may take (${steps.join(', ')})`]
        : [];
    return el.$type === 'bpmn:SubProcess' ? [...own, ...stepProblems(el, steps)] : own;
  });
}

function checkElement(el: ModdleElement, where: string, problems: string[]): void {
  const expr = (label: string, text: string | undefined) => {
    const problem = text ? checkExpression(text) : undefined;
    if (problem) problems.push(`${where}: ${label} ${JSON.stringify(text)}: ${problem}`);
  };
  expr('name', el.name);
  if (el.$type === 'bpmn:UserTask') {
    // A task without candidates is legal (Activiti's own tests have many): the organisation's admins handle it.
    expr('form key', attr(el, 'formKey'));
    expr('assignee', attr(el, 'assignee'));
  }
  if (el.$type === 'bpmn:CallActivity' && !el.calledElement)
    problems.push(`${where}: the call activity names no calledElement`);
  const loop = el.loopCharacteristics;
  if (loop) {
    expr('loop cardinality', loop.loopCardinality?.body?.trim());
    expr('completion condition', loop.completionCondition?.body?.trim());
  }
  if (el.$type === 'bpmn:SequenceFlow' && el.conditionExpression)
    expr('condition', el.conditionExpression.body?.trim() || undefined);
  if (el.default?.conditionExpression) problems.push(`${el.default.id}: a default flow must not carry a condition`);
}
